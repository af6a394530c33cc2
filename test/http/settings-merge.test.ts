// API fault 1 of issue 23: every settings route takes a partial nested object and merges it
// (the store always deep-merged, the body schema demanded whole nested objects), while a bad
// nested value is a 400 naming its path and saves nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { deepPartial } from '../../src/http/deep-partial.js';
import { JsonStore, StoreValidationError } from '../../src/store/json-store.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';

type Json = Record<string, any>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

describe('settings routes merge partial nested objects', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.stop());

  const aprsFile = () => readFileSync(join(s.dataDir, 'aprs-settings.json'), 'utf8');

  it('every state route with a nested object takes one field of it and keeps the rest', async () => {
    const doc = (await s.get('/docs', { accept: 'application/json' })).body;
    // The resources whose GET answers {state} and whose POST changes it: every settings route.
    const paths = Object.keys(doc.paths).filter((p) => doc.paths[p].get && doc.paths[p].post && doc.paths[p].get.responses['200'].content['application/json'].schema.properties?.state);
    assert.ok(paths.includes('/api/v1/settings/aprs') && paths.includes('/api/v1/settings/radio'), paths.join(' '));
    const nested: string[] = [];
    for (const path of paths) {
      const state: Json = (await s.get(path)).body.state;
      for (const [key, value] of Object.entries(state)) {
        if (!isObject(value) || Object.keys(value).length < 2) continue;
        const [leaf, leafValue] = Object.entries(value)[0];
        const r = await s.post(path, { [key]: { [leaf]: leafValue } });
        assert.equal(r.status, 200, `${path} {${key}:{${leaf}}}: ${JSON.stringify(r.body)}`);
        assert.deepEqual(r.body.state[key], value, `${path} ${key}: the other fields kept`);
        nested.push(`${path} ${key}`);
      }
    }
    for (const want of ['/api/v1/settings/aprs digipeater', '/api/v1/settings/aprs igate']) assert.ok(nested.includes(want), `${want} checked: ${nested.join(', ')}`);
  });

  it('APRS digipeater and iGate: one field changes, the rest stays, arrays replace whole, persisted', async () => {
    const before = (await s.get('/api/v1/settings/aprs')).body.state;
    const on = await s.post('/api/v1/settings/aprs', { digipeater: { enabled: true } });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.deepEqual(on.body.state.digipeater, { ...before.digipeater, enabled: true });
    assert.deepEqual(on.body.state.igate, before.igate);

    const ig = await s.post('/api/v1/settings/aprs', { callsign: 'pa3xyz', igate: { passcode: 12345, login_callsign: 'pa3xyz-10' } });
    assert.equal(ig.status, 200, JSON.stringify(ig.body));
    assert.deepEqual(ig.body.state.igate, { ...before.igate, passcode: 12345, login_callsign: 'PA3XYZ-10' }, 'field rules (upper case) still apply');
    assert.equal(ig.body.state.callsign, 'PA3XYZ');
    assert.equal(ig.body.state.digipeater.enabled, true, 'the earlier change kept');

    const aliases = await s.post('/api/v1/settings/aprs', { digipeater: { aliases: ['wide2-1'] } });
    assert.deepEqual(aliases.body.state.digipeater, { ...before.digipeater, enabled: true, aliases: ['WIDE2-1'] }, 'a list is replaced, not merged');

    const onDisk = JSON.parse(aprsFile());
    assert.deepEqual(onDisk.digipeater, aliases.body.state.digipeater);
    assert.deepEqual(onDisk.igate, ig.body.state.igate);
  });

  it('a bad nested value is a 400 naming its path, and nothing of the body is saved', async () => {
    await s.post('/api/v1/settings/aprs', { digipeater: { enabled: false } });
    const file = aprsFile();
    const state = (await s.get('/api/v1/settings/aprs')).body.state;
    const cases: Array<[Json, string]> = [
      [{ callsign: 'DL1ABC', digipeater: { enabled: true, max_hops: 99 } }, 'digipeater.max_hops'],
      [{ igate: { server_port: 0 } }, 'igate.server_port'],
      [{ digipeater: { aliases: ['not an address'] } }, 'digipeater.aliases.0'],
      [{ digipeater: null }, 'digipeater'],
      [{ igate: 'off' }, 'igate'],
    ];
    for (const [body, field] of cases) {
      const r = await s.post('/api/v1/settings/aprs', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, 'validation_failed');
      assert.equal(r.body.error.details.fields[0].field, field, JSON.stringify(r.body));
      assert.ok(r.body.error.message.includes(field), r.body.error.message);
    }
    assert.deepEqual((await s.get('/api/v1/settings/aprs')).body.state, state, 'nothing changed');
    assert.equal(aprsFile(), file, 'nothing written');
  });

  it('/docs describes the POST body as partial at every depth and the state as whole', async () => {
    const doc = (await s.get('/docs', { accept: 'application/json' })).body;
    const op = doc.paths['/api/v1/settings/aprs'];
    const body = op.post.requestBody.content['application/json'].schema;
    assert.equal(body.required, undefined, 'no top-level field required');
    assert.equal(body.properties.digipeater.type, 'object');
    assert.equal(body.properties.digipeater.required, undefined, 'no nested field required');
    assert.equal(body.properties.digipeater.properties.max_hops.maximum, 7, 'field rules documented');
    assert.equal(body.properties.digipeater.properties.aliases.type, 'array');
    assert.match(op.post.summary, /nested objects merge/);
    const state = op.get.responses['200'].content['application/json'].schema.properties.state;
    assert.ok(state.properties.digipeater.required.includes('aliases'), 'the state itself is whole');
  });
});

describe('deepPartial', () => {
  const Inner = v.pipe(
    v.object({ low: v.number(), high: v.number() }),
    v.check((r) => r.low < r.high, 'low must be below high'),
  );
  const Schema = v.object({
    name: v.pipe(v.string(), v.toUpperCase()),
    limit: v.optional(v.number(), 5),
    range: Inner,
    tags: v.array(v.string()),
    maybe: v.nullable(v.strictObject({ a: v.number(), b: v.number() })),
  });
  const body = deepPartial(Schema);

  it('every key optional at every depth, no defaults injected, field rules and strictness kept', () => {
    assert.deepEqual(v.parse(body, {}), {}, 'an absent field with a default stays absent');
    assert.deepEqual(v.parse(body, { range: { high: 9 } }), { range: { high: 9 } });
    assert.deepEqual(v.parse(body, { name: 'abc', maybe: { b: 1 } }), { name: 'ABC', maybe: { b: 1 } });
    assert.deepEqual(v.parse(body, { maybe: null }), { maybe: null });
    assert.equal(v.safeParse(body, { range: { high: 'x' } }).success, false);
    assert.equal(v.safeParse(body, { maybe: { c: 1 } }).success, false, 'strict stays strict');
    assert.equal(v.safeParse(body, { tags: 'a' }).success, false);
  });

  it('with a store: the merged result is validated by the full schema (object-level rules)', async () => {
    const store = new JsonStore({ dir: tmpDataDir(), name: 'x', schema: Schema, defaults: () => ({ name: 'A', limit: 5, range: { low: 1, high: 10 }, tags: ['a', 'b'], maybe: null }) });
    const patch = v.parse(body, { range: { low: 20 }, tags: ['c'] });
    assert.throws(() => store.preview(patch), (e: unknown) => e instanceof StoreValidationError && /range: low must be below high/.test(e.message));
    assert.deepEqual(store.preview(v.parse(body, { range: { low: 2 }, tags: ['c'] })), { name: 'A', limit: 5, range: { low: 2, high: 10 }, tags: ['c'], maybe: null });
  });
});
