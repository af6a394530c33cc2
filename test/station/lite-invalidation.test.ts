import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// Spec part 4 "Lite snapshot rules": the exact list of requests that clear the lite cache.
const SPEC_CLEARING: Array<{ method: 'GET' | 'POST'; path: string; query?: string; body?: unknown; owner: string }> = [
  { method: 'GET', path: '/api/v1/satellites', query: '?refresh_from_sources=true', owner: 'catalog' },
  { method: 'POST', path: '/api/v1/settings/iss-display-mode', body: { iss_display_mode: 'track' }, owner: 'station' },
  { method: 'POST', path: '/api/v1/settings/timezone', body: { display_timezone: 'Europe/Berlin' }, owner: 'station' },
  { method: 'POST', path: '/api/v1/settings/pass-filter', body: { pass_profile: 'IssOnly' }, owner: 'station' },
  { method: 'POST', path: '/api/v1/settings/lite', body: { setup_complete: true }, owner: 'station' },
  { method: 'POST', path: '/api/v1/location', body: {}, owner: 'station' },
  { method: 'POST', path: '/api/v1/network', body: { offline: true }, owner: 'station' },
  { method: 'POST', path: '/api/v1/settings/gps', body: { baud_rate: 4800 }, owner: 'station' },
  { method: 'POST', path: '/api/v1/aprs/connect', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/aprs/disconnect', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/aprs/select-target', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/aprs/session/select', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/aprs/session/identity', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/aprs/emergency-stop', owner: 'aprs' },
  { method: 'POST', path: '/api/v1/radio/connect', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/disconnect', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/select', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/test-pair', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/clear', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/test', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/test/confirm', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/start', owner: 'radio' },
  { method: 'POST', path: '/api/v1/radio/session/stop', owner: 'radio' },
  { method: 'POST', path: '/api/v1/datasets/refresh', owner: 'catalog' },
];
// Issue 32 adds the rotator's routes, as the spec's list does for radio and APRS (run for real
// against a simulated controller in test/rotator/rotator-lite.test.ts).
const ROTATOR_CLEARING = ['connect', 'disconnect', 'goto', 'stop', 'park', 'track/start', 'track/stop'].map((p) => `/api/v1/rotator/${p}`).concat('/api/v1/settings/rotator');
// Issue 37 adds the recorder's start, stop and settings: the lite snapshot's recording line (the
// REC dot) follows them at once, as the rotator line follows its routes.
const RECORDING_CLEARING = ['/api/v1/recordings/start', '/api/v1/recordings/stop', '/api/v1/settings/recording'];
const key = (method: string, path: string) => `${method} ${path}`;
const SPEC_KEYS = new Set([...SPEC_CLEARING.map((r) => key(r.method, r.path)), ...[...ROTATOR_CLEARING, ...RECORDING_CLEARING].map((p) => key('POST', p))]);

// Requests that must leave the cache alone (snapshot recording, cache-policy and other edits).
const NOT_CLEARING: Array<{ method: 'GET' | 'POST'; path: string; body?: unknown }> = [
  { method: 'POST', path: '/api/v1/snapshots/record', body: { source: 'test' } },
  { method: 'POST', path: '/api/v1/settings/developer-overrides', body: { show_debug_badge: true } },
  { method: 'GET', path: '/api/v1/satellites' },
  { method: 'GET', path: '/api/v1/system/state' },
  { method: 'GET', path: '/api/v1/location' },
];

describe('lite cache: cleared by exactly the spec list', () => {
  let s: TestServer;
  const exists = (method: string, path: string) => s.app.routes.some((r) => r.method === method && r.path === path);
  const cacheState = async () => (await s.get('/api/v1/lite/snapshot')).headers.get('x-cache');
  /** Prime the cache and prove the next read is a hit. */
  const prime = async () => {
    await cacheState();
    assert.equal(await cacheState(), 'HIT');
  };
  before(async () => {
    // No outside network in tests: catalog sources point at a closed local port, and the
    // offline switch is on for the refresh calls below.
    s = await startServer({ config: { catalogSources: ['http://127.0.0.1:9/none.tle'] } });
    await s.app.services.orbit.table.ready();
    await s.app.services.stores.network.update({ offline: true });
  });
  after(() => s.stop());

  for (const r of SPEC_CLEARING) {
    it(`${r.method} ${r.path}${r.query ?? ''} clears it (${r.owner})`, async (t) => {
      if (!exists(r.method, r.path)) {
        // Owned by a later issue (APRS station, radio control); the route is not there yet.
        assert.ok(['aprs', 'radio'].includes(r.owner), `${r.method} ${r.path} should exist by now`);
        t.diagnostic(`not yet implemented: ${r.method} ${r.path} (${r.owner} issue)`);
        return;
      }
      const def = s.app.routes.find((x) => x.method === r.method && x.path === r.path)!;
      if (r.method === 'POST') assert.equal(def.clearsLiteCache, true, 'route is marked clearsLiteCache');
      // Flag checked; radio requests run for real in test/radio/lite-invalidation.test.ts (they need a rig), APRS ones need a TNC.
      if (r.owner === 'aprs' || r.owner === 'radio') return;
      await prime();
      const res = r.method === 'GET' ? await s.get(r.path + (r.query ?? '')) : await s.post(r.path, r.body ?? {});
      assert.ok(res.status < 300, `${r.path} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      assert.equal(await cacheState(), 'MISS');
    });
  }

  for (const r of NOT_CLEARING) {
    it(`${r.method} ${r.path} leaves it alone`, async () => {
      assert.ok(exists(r.method, r.path), `${r.method} ${r.path} exists`);
      await prime();
      const res = r.method === 'GET' ? await s.get(r.path) : await s.post(r.path, r.body ?? {});
      assert.ok(res.status < 300, `${r.path} → ${res.status}`);
      assert.equal(await cacheState(), 'HIT');
    });
  }

  it('a rejected request does not clear it', async () => {
    await prime();
    assert.equal((await s.post('/api/v1/settings/timezone', { display_timezone: 'Nowhere/Land' })).status, 400);
    assert.equal(await cacheState(), 'HIT');
  });

  it('the rotator routes are marked clearsLiteCache (issue 32)', () => {
    for (const p of ROTATOR_CLEARING) assert.equal(s.app.routes.find((r) => r.method === 'POST' && r.path === p)?.clearsLiteCache, true, p);
  });

  it('the recording routes are marked clearsLiteCache (issue 37)', () => {
    for (const p of RECORDING_CLEARING) assert.equal(s.app.routes.find((r) => r.method === 'POST' && r.path === p)?.clearsLiteCache, true, p);
  });

  it('no other route is marked clearsLiteCache', () => {
    const extra = s.app.routes.filter((r) => r.clearsLiteCache && !SPEC_KEYS.has(key(r.method, r.path))).map((r) => key(r.method, r.path));
    assert.deepEqual(extra, []);
  });
});
