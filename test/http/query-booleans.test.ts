import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { freePort } from '../rotator/rotctld-peer.js';

// Issue 32: a query boolean is exactly true/false/1/0; anything else (empty, yes, a comma, a
// repeat) is a 400 validation_failed naming the parameter, on every route that takes one.
const BOOLEANS = [
  { path: '/api/v1/satellites', name: 'refresh_from_sources' },
  { path: '/api/v1/passes', name: 'include_all_sats' },
  { path: '/api/v1/passes', name: 'include_ongoing' },
];
const BAD = ['', ',', '%2C', 'yes', 'no', 'on', 'TRUE', 'True', ' true', 'true,', '2', '-1', 'maybe'];

describe('query booleans', () => {
  let s: TestServer;
  before(async () => {
    // A refresh contacts nothing that could take time: the catalog source refuses, the others are off.
    s = await startServer({ config: { catalogSources: [`http://127.0.0.1:${await freePort()}/dead`] } });
    assert.equal((await s.post('/api/v1/datasets/sources', { status_url: '', transmitters_source: '' })).status, 200);
  });
  after(() => s.stop());

  for (const { path, name } of BOOLEANS) {
    it(`${path} ${name}: true, false, 1 and 0 are taken`, async () => {
      for (const value of ['true', 'false', '1', '0']) {
        const r = await s.get(`${path}?${name}=${value}`);
        assert.equal(r.status, 200, `${name}=${value}: ${JSON.stringify(r.body).slice(0, 200)}`);
      }
      if (name === 'refresh_from_sources') {
        assert.match((await s.get(`${path}?${name}=1`)).body.refreshError, /ECONNREFUSED/, '1 is true');
        assert.equal((await s.get(`${path}?${name}=0`)).body.refreshError, null, '0 is false');
      }
    });

    it(`${path} ${name}: anything else is a 400 naming the parameter`, async () => {
      const bare = await s.get(`${path}?${name}`);
      const repeated = await s.get(`${path}?${name}=,&${name}=true`);
      for (const [what, r] of [...(await Promise.all(BAD.map(async (b) => [JSON.stringify(b), await s.get(`${path}?${name}=${b}`)] as const))), ['bare', bare] as const, ['repeated', repeated] as const]) {
        assert.equal(r.status, 400, `${name}=${what} answered ${r.status}`);
        assert.equal(r.body.error.code, 'validation_failed', what);
        assert.match(r.body.error.message, new RegExp(`\\b${name}\\b`), what);
        assert.equal(r.body.error.details.fields[0].field, name, what);
      }
      assert.match(bare.body.error.message, /must be true, false, 1 or 0/);
      assert.match(repeated.body.error.message, /more than once/);
    });
  }

  it('/docs lists exactly the four values for every boolean query parameter', async () => {
    const doc = (await s.get('/docs', { accept: 'application/json' })).body;
    const seen: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: { name: string; schema: { enum?: unknown[] } }[] }>>)) {
      for (const op of Object.values(ops)) {
        for (const p of op.parameters ?? []) {
          if (!p.schema.enum?.some((x) => x === 'true' || x === 'yes' || x === '')) continue;
          seen.push(`${path} ${p.name}`);
          assert.deepEqual(p.schema.enum, ['true', 'false', '1', '0'], `${path} ${p.name}`);
        }
      }
    }
    assert.deepEqual(seen.sort(), BOOLEANS.map((b) => `${b.path} ${b.name}`).sort(), 'the booleans this test covers are all there are');
  });
});
