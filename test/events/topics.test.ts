import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextPassEdge } from '../../src/station/pass-edges.js';
import { eventsServer, subscribed } from './fixture.js';

// Each topic follows its services' own change notifications (issue 35): a change is pushed at once
// after a quiet min_period (the leading edge), changes within it go out once at its end with the
// newest state, live ticks every second, passes follows the pass table. The clock is fixed: the
// throttle and the live tick run on it, so a test moves time by hand.

const settle = (ms = 120) => new Promise((r) => setTimeout(r, ms));

describe('live events: topics follow their services', () => {
  const env = eventsServer();
  const open = (topics: string[], min_period_ms?: number) => subscribed(env.s, topics, min_period_ms);
  const at = () => new Date(env.clock.now()).toISOString();

  it('min_period: a change after a quiet period goes out at once; changes within it once at its end, the newest winning', async () => {
    const c = await open(['radio'], 1000);
    await c.next((m) => m.topic === 'radio' && m.seq === 1);
    // Within the period of the first event: held.
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 600 })).status, 200);
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 700 })).status, 200);
    await settle();
    assert.equal(c.events('radio').length, 1, 'nothing before the period ends');
    env.clock.advance(999);
    await settle();
    assert.equal(c.events('radio').length, 1, 'nothing 1 ms before the period ends');
    env.clock.advance(1);
    const second = await c.next((m) => m.topic === 'radio' && m.seq === 2);
    assert.equal(second.data.settings.poll_interval_ms, 700, 'the newest state, once');
    assert.equal(second.ts, at());
    // A quiet period, then a change: sent without the clock moving (the leading edge).
    env.clock.advance(5000);
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 800 })).status, 200);
    const third = await c.next((m) => m.topic === 'radio' && m.seq === 3);
    assert.equal(third.data.settings.poll_interval_ms, 800);
    assert.equal(third.ts, at(), 'sent at the instant of the change');
    assert.deepEqual(third.data, (await env.s.get('/api/v1/radio/state')).body);
    await settle();
    assert.equal(c.events('radio').length, 3, 'one event per change: none from the period ending after it');
    c.destroy();
  });

  it('a change that leaves the GET body as it was sends nothing', async () => {
    const c = await open(['radio'], 100);
    await c.next((m) => m.topic === 'radio');
    env.clock.advance(200);
    const same = (await env.s.get('/api/v1/radio/state')).body.settings.poll_interval_ms;
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: same })).status, 200);
    env.s.app.services.stores.radio.reload(); // a re-read that finds the file as it was
    await settle();
    assert.equal(c.events('radio').length, 1);
    c.destroy();
  });

  it('live: one event every second on the clock, each the body of GET /live then', async () => {
    env.clock.set(Math.ceil(env.clock.now() / 1000) * 1000 + 300);
    const c = await open(['live']);
    const second = () => new Date(Math.floor(env.clock.now() / 1000) * 1000).toISOString();
    const first = await c.next((m) => m.topic === 'live');
    assert.equal(first.data.timestamp, second());
    env.clock.advance(700); // the whole second
    for (let k = 2; k <= 4; k++) {
      const e = await c.next((m) => m.topic === 'live' && m.seq === k);
      assert.equal(e.data.timestamp, second(), `tick ${k}`);
      assert.equal(e.ts, at(), `tick ${k} at the second`);
      assert.deepEqual(e.data, (await env.s.get('/api/v1/live')).body);
      if (k < 4) env.clock.advance(1000);
    }
    env.clock.advance(600);
    await settle();
    assert.equal(c.events('live').length, 4, 'nothing between two seconds');
    c.destroy();
    await settle(50);
    assert.equal(env.s.app.events.stats().watching.includes('live'), false, 'nobody listens: the tick stops');
  });

  it('passes: {generated_at, count} of the table, again when it is rebuilt', async () => {
    const c = await open(['passes']);
    const first = await c.next((m) => m.topic === 'passes');
    assert.equal(first.data.count, env.s.app.services.orbit.table.current()!.size);
    env.clock.advance(60_000);
    const rebuiltAt = at();
    assert.equal((await env.s.post('/api/v1/passes/cache/refresh')).status, 200);
    const next = await c.next((m) => m.topic === 'passes' && m.seq === 2, 20_000);
    assert.equal(next.data.generated_at, rebuiltAt);
    assert.equal(next.data.count, env.s.app.services.orbit.table.current()!.size);
    c.destroy();
  });

  it('lite: the snapshot again whenever it is invalidated, equal to GET /lite/snapshot', async () => {
    const c = await open(['lite'], 100);
    const first = await c.next((m) => m.topic === 'lite');
    env.clock.advance(200);
    const tracked = ['iss', 'so-50'];
    assert.equal((await env.s.post('/api/v1/settings/lite', { tracked_sat_ids: tracked })).status, 200);
    const e = await c.next((m) => m.topic === 'lite' && m.seq === 2);
    assert.notDeepEqual(e.data.trackedSatIds, first.data.trackedSatIds);
    assert.deepEqual(e.data.trackedSatIds, tracked);
    assert.deepEqual(e.data, (await env.s.get('/api/v1/lite/snapshot')).body);
    c.destroy();
  });

  it('lite and system at the AOS or LOS of a pass they show, by a timer for that instant', async () => {
    const c = await open(['lite', 'system'], 100);
    await c.next((m) => m.topic === 'lite');
    await c.next((m) => m.topic === 'system');
    const edge = nextPassEdge(env.s.app.services.station, env.clock.now());
    assert.ok(edge !== null && edge > env.clock.now() + 1000, 'a pass edge ahead');
    env.clock.set(edge - 1);
    await settle();
    const [lite, system] = [c.events('lite').length, c.events('system').length];
    env.clock.advance(1);
    const e = await c.next((m) => m.topic === 'lite' && m.seq === lite + 1);
    assert.equal(e.ts, at());
    assert.equal(e.data.generated_at, at(), 'built at the edge, not served from the cache');
    assert.deepEqual(e.data, (await env.s.get('/api/v1/lite/snapshot')).body);
    const sys = await c.next((m) => m.topic === 'system' && m.seq === system + 1);
    assert.equal(sys.ts, at());
    c.destroy();
  });

  it('system: any of its parts (here the display time zone) sends system state again', async () => {
    const c = await open(['system'], 100);
    await c.next((m) => m.topic === 'system');
    env.clock.advance(200);
    assert.equal((await env.s.post('/api/v1/settings/timezone', { display_timezone: 'Europe/Berlin' })).status, 200);
    const e = await c.next((m) => m.topic === 'system' && m.seq === 2);
    assert.equal(e.data.settings.display_timezone, 'Europe/Berlin');
    assert.deepEqual(e.data, (await env.s.get('/api/v1/system/state')).body);
    c.destroy();
  });

  it('logbook: a QSO logged and deleted, each pushed as GET /logbook', async () => {
    const c = await open(['logbook'], 100);
    const first = await c.next((m) => m.topic === 'logbook');
    assert.deepEqual(first.data.items, []);
    env.clock.advance(200);
    assert.equal((await env.s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
    env.clock.advance(200);
    const q = await env.s.post('/api/v1/logbook/qso', { call: 'W1AW', mode: 'FM' });
    assert.equal(q.status, 200, JSON.stringify(q.body));
    const logged = await c.next((m) => m.topic === 'logbook' && m.data.items.length === 1);
    assert.equal(logged.data.items[0].id, q.body.qso.id);
    assert.deepEqual(logged.data, (await env.s.get('/api/v1/logbook')).body);
    env.clock.advance(200);
    assert.equal((await env.s.post('/api/v1/logbook/qso/delete', { id: q.body.qso.id })).status, 200);
    await c.next((m) => m.topic === 'logbook' && m.seq > logged.seq && m.data.items.length === 0);
    c.destroy();
  });
});
