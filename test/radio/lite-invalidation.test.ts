import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { rigFixture, type RigFixture } from './rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';

// Spec part 4 "Lite snapshot rules": every radio route on the clearing list, called for real
// against the simulated rig in an order the session allows, clears the lite cache.

describe('lite cache: radio routes clear it for real', () => {
  let f: RigFixture;
  const cache = async () => (await f.s.get('/api/v1/lite/snapshot')).headers.get('x-cache');
  before(async () => {
    const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    f = await rigFixture({ clock, connect: false });
    await f.s.app.services.orbit.table.ready();
  });
  after(() => f.stop());

  it('connect, session select/test-pair/test/confirm/start/stop/clear, disconnect', async () => {
    const [p] = await f.s.app.services.orbit.passesWhenReady({ from_ms: f.clock.now(), hours: 24, min_max_el_deg: 5, sat_ids: ['iss'], include_ongoing: false });
    const calls: Array<[string, unknown?]> = [
      ['/api/v1/radio/connect'],
      ['/api/v1/radio/session/select', { sat_id: 'iss', pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg }],
      ['/api/v1/radio/session/test-pair', {}],
      ['/api/v1/radio/session/test'],
      ['/api/v1/radio/session/test/confirm'],
      ['/api/v1/radio/session/start'],
      ['/api/v1/radio/session/stop'],
      ['/api/v1/radio/session/clear'],
      ['/api/v1/radio/disconnect'],
    ];
    for (const [path, body] of calls) {
      await cache();
      assert.equal(await cache(), 'HIT', `primed before ${path}`);
      const r = await f.s.post(path, body ?? {});
      assert.equal(r.status, 200, `${path} → ${JSON.stringify(r.body).slice(0, 300)}`);
      assert.equal(await cache(), 'MISS', `${path} cleared the cache`);
    }
  });

  it('a refused radio request does not clear it, and poll/pair do not', async () => {
    await cache();
    assert.equal((await f.s.post('/api/v1/radio/session/stop')).status, 409);
    assert.equal(await cache(), 'HIT');
    await f.s.post('/api/v1/radio/connect');
    await cache();
    assert.equal((await f.s.post('/api/v1/radio/poll')).status, 200);
    assert.equal((await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_990_000, downlink_hz: 437_800_000 })).status, 200);
    assert.equal(await cache(), 'HIT');
  });
});
