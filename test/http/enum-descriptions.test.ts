import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// Issue 33: /docs listed rig_model as rigA/rigB without saying they are the IC-705 and the
// IC-9700. Every value an operator chooses in a setting says what it is: the OpenAPI document
// (built from the validating schemas) carries x-enumDescriptions beside each such enum.

/** The resources the settings pages save to: every POST tagged settings, and these. */
const ALSO_SETTINGS = ['/api/v1/location', '/api/v1/network', '/api/v1/datasets/sources', '/api/v1/frequency-guides/profiles', '/api/v1/access'];

interface Schema {
  enum?: unknown[];
  'x-enumDescriptions'?: Record<string, unknown>;
  [k: string]: unknown;
}

/** Every enum under `node`, with where it is. */
function enums(node: unknown, where: string, out: Array<{ where: string; s: Schema }> = []): Array<{ where: string; s: Schema }> {
  if (!node || typeof node !== 'object') return out;
  const s = node as Schema;
  if (Array.isArray(s.enum)) out.push({ where, s });
  for (const [k, child] of Object.entries(s)) if (k !== 'x-enumDescriptions') enums(child, `${where}.${k}`, out);
  return out;
}

describe('settings enums in /docs', () => {
  let s: TestServer;
  let doc: { paths: Record<string, Record<string, { tags: string[]; requestBody?: { content: Record<string, { schema: unknown }> } }>> };
  before(async () => {
    s = await startServer();
    doc = (await s.get('/docs?format=json')).body;
  });
  after(() => s.stop());

  it('describes every value of every text enum a setting offers', () => {
    const settings = Object.entries(doc.paths).filter(([path, ops]) => ops.post?.requestBody && (ops.post.tags.includes('settings') || ALSO_SETTINGS.includes(path)));
    assert.ok(settings.length >= 12, `${settings.length} settings resources`);
    const missing: string[] = [];
    let described = 0;
    for (const [path, ops] of settings) {
      for (const { where, s: e } of enums(ops.post.requestBody!.content['application/json'].schema, path)) {
        // Numbers (baud rates) say what they are; words need saying.
        for (const value of e.enum!.filter((x): x is string => typeof x === 'string')) {
          const text = e['x-enumDescriptions']?.[value];
          if (typeof text === 'string' && text.trim().length > 3) described++;
          else missing.push(`${where}: ${value}`);
        }
      }
    }
    assert.deepEqual(missing, [], 'values without a description');
    assert.ok(described >= 40, `${described} values described`);
  });

  it('names the rigs behind rigA and rigB, in the JSON and on the /docs page', async () => {
    const rig = (doc.paths['/api/v1/settings/radio'].post.requestBody!.content['application/json'].schema as { properties: Record<string, Schema> }).properties.rig_model;
    assert.deepEqual(rig.enum, ['rigA', 'rigB', 'ft817', 'ft818', 'ft857', 'ft897', 'hamlib']);
    assert.match(String(rig['x-enumDescriptions']?.ft818), /FT-818/);
    assert.match(String(rig['x-enumDescriptions']?.hamlib), /Hamlib/);
    assert.match(String(rig['x-enumDescriptions']?.rigA), /IC-705/);
    assert.match(String(rig['x-enumDescriptions']?.rigB), /IC-9700/);
    const page = (await s.get('/docs', { accept: 'text/html' })).body as string;
    assert.match(page, /&quot;rigA&quot;: &quot;Icom IC-705[^&]*&quot;/);
  });
});
