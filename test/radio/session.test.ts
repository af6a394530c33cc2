import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertOperatorState, rigFixture, setOperatorState, until, type RigFixture } from './rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';
import type { PassEvent } from '../../src/orbit/types.js';

// The pass-pinned session (spec part 3) on a fixed clock: every legal move, the illegal ones,
// the automatic end at LOS with restore, and a whole pass tracked in about a second.

async function passesOf(f: RigFixture, sat: string, from_ms: number): Promise<PassEvent[]> {
  return f.s.app.services.orbit.passesWhenReady({ from_ms, hours: 48, min_max_el_deg: 5, sat_ids: [sat], include_ongoing: false });
}

const selectBody = (p: PassEvent) => ({ sat_id: p.sat_id, sat_name: p.name, pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg });

describe('radio session', () => {
  let f: RigFixture;
  let clock: FixedClock;
  let passes: PassEvent[];
  const session = async () => (await f.s.get('/api/v1/radio/session')).body;
  before(async () => {
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    f = await rigFixture({ clock });
    passes = await passesOf(f, 'iss', clock.now());
    assert.ok(passes.length >= 3, 'a few ISS passes in two days');
  });
  after(() => f.stop());

  it('is always present, idle before anything is selected', async () => {
    const s = await session();
    assert.equal(s.session.screen_state, 'idle');
    assert.equal(s.session.control_state, 'connected_idle');
    assert.equal(s.session.selected_sat_id, null);
    assert.equal(s.session.active, false);
  });

  it('illegal moves answer 409 with a clear message and change nothing', async () => {
    for (const path of ['/session/test', '/session/test/confirm', '/session/start', '/session/stop']) {
      const before = await session();
      const r = await f.s.post(`/api/v1/radio${path}`);
      assert.equal(r.status, 409, path);
      assert.ok(r.body.error.message.length > 10);
      assert.deepEqual((await session()).session, before.session, path);
    }
  });

  it('select → test → confirm: test pair applied from a snapshot, then the rig restored and released', async () => {
    setOperatorState(f.sim);
    const p = passes[0];
    const sel = await f.s.post('/api/v1/radio/session/select', selectBody(p));
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    assert.equal(sel.body.session.screen_state, 'idle');
    assert.equal(sel.body.session.control_state, 'connected_idle');
    assert.equal(sel.body.session.is_eligible, true);
    assert.equal(sel.body.session.has_test_pair, true);
    assert.equal(sel.body.session.selected_sat_id, 'iss');
    const pair = sel.body.session.test_pair;

    const confirmEarly = await f.s.post('/api/v1/radio/session/test/confirm');
    assert.equal(confirmEarly.status, 409);

    const t = await f.s.post('/api/v1/radio/session/test');
    assert.equal(t.status, 200, JSON.stringify(t.body));
    assert.equal(t.body.session.screen_state, 'test');
    assert.equal(t.body.session.control_state, 'test_applied');
    assert.equal(t.body.runtime.control_mode, 'manual_applied');
    assert.equal(f.sim.state.vfoA.freq, pair.downlink_hz);
    assert.equal(f.sim.state.vfoB.freq, pair.uplink_hz);
    assert.equal(f.sim.state.split, true);
    assert.equal(f.sim.state.squelch, 0);

    const again = await f.s.post('/api/v1/radio/session/test');
    assert.equal(again.status, 409, 'no second test on top of the first');
    const other = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_850_000, downlink_hz: 436_795_000 });
    assert.equal(other.status, 409, 'the session holds the rig');

    const c = await f.s.post('/api/v1/radio/session/test/confirm');
    assert.equal(c.status, 200);
    assert.equal(c.body.session.screen_state, 'released');
    assert.equal(c.body.session.control_state, 'released');
    assert.equal(c.body.session.selected_sat_id, 'iss', 'stays pinned');
    assert.equal(c.body.runtime.control_mode, 'idle');
    assertOperatorState(f.sim);
  });

  it('start before AOS arms; AOS starts tracking; the pass is tracked; LOS ends it with the rig restored', async () => {
    setOperatorState(f.sim);
    const p = passes[0];
    const st = await f.s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    assert.equal(st.body.session.screen_state, 'armed');
    assert.equal(st.body.session.control_state, 'armed_waiting_aos');
    assert.equal(f.sim.state.vfoA.freq, 14_074_000, 'nothing written while armed');

    clock.set(p.aos_ms - 1000);
    await clock.run(2000, 1000, 5);
    await until(async () => (await session()).session.screen_state === 'active', 'tracking at AOS');
    const s = await session();
    assert.equal(s.session.control_state, 'tracking_active');
    assert.equal(s.runtime.control_mode, 'auto_tracking');
    assert.equal(s.runtime.auto_track.owner, 'session');
    assert.equal(f.sim.state.split, true);
    const firstRx = f.sim.state.vfoA.freq;
    assert.ok(Math.abs(firstRx - 437_800_000) < 15_000, `downlink near 437.800 MHz with Doppler, got ${firstRx}`);

    // The whole pass on the fixed clock: 1.5 s ticks, real serial I/O between them.
    const rxSeen = new Set<number>();
    while (clock.now() < p.los_ms - 2000) {
      await clock.run(1500, 1500, 0);
      await until(() => true, 'turn');
      rxSeen.add(f.sim.state.vfoA.freq);
    }
    assert.ok(rxSeen.size > 3, `the downlink followed Doppler (${rxSeen.size} distinct)`);
    clock.set(p.los_ms + 100);
    await until(async () => (await session()).session.screen_state === 'completed', 'end at LOS');
    const end = await session();
    assert.equal(end.session.control_state, 'ended');
    assert.equal(end.session.ended_reason, 'LOS');
    assert.equal(end.runtime.control_mode, 'idle');
    assert.equal(end.runtime.auto_track, null);
    assertOperatorState(f.sim);
  });

  it('start mid-pass tracks at once; stop releases and restores', async () => {
    setOperatorState(f.sim);
    const p = passes[1];
    assert.equal((await f.s.post('/api/v1/radio/session/select', selectBody(p))).status, 200);
    clock.set(p.tca_ms);
    const st = await f.s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    assert.equal(st.body.session.screen_state, 'active');
    assert.equal(st.body.session.control_state, 'tracking_active');
    assert.equal(st.body.runtime.control_mode, 'auto_tracking');
    const stopAuto = await f.s.post('/api/v1/radio/auto-track/stop');
    assert.equal(stopAuto.status, 409, 'the session owns the loop');
    const stop = await f.s.post('/api/v1/radio/session/stop');
    assert.equal(stop.status, 200);
    assert.equal(stop.body.session.screen_state, 'released');
    assert.equal(stop.body.session.control_state, 'released');
    assert.equal(stop.body.runtime.control_mode, 'idle');
    assertOperatorState(f.sim);
    const late = await f.s.post('/api/v1/radio/session/stop');
    assert.equal(late.status, 409);
  });

  it('a restore that fails never fails the request: released, the reason in last_error', async () => {
    setOperatorState(f.sim);
    const p = passes[2];
    assert.equal((await f.s.post('/api/v1/radio/session/select', selectBody(p))).status, 200);
    clock.set(p.tca_ms);
    assert.equal((await f.s.post('/api/v1/radio/session/start')).status, 200);
    f.sim.faults.noReplyAtAll = true;
    const stop = await f.s.post('/api/v1/radio/session/stop');
    f.sim.faults.noReplyAtAll = false;
    assert.equal(stop.status, 200);
    assert.equal(stop.body.session.screen_state, 'released');
    assert.match(stop.body.runtime.last_error, /restor/);
  });

  it('start after LOS is refused; clear returns to the normal flow', async () => {
    const p = passes[2];
    clock.set(p.los_ms + 60_000);
    const r = await f.s.post('/api/v1/radio/session/start');
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'pass_over');
    const c = await f.s.post('/api/v1/radio/session/clear');
    assert.equal(c.status, 200);
    assert.equal(c.body.session.selected_sat_id, null);
    assert.equal(c.body.session.screen_state, 'idle');
  });

  it('a custom test pair is checked for eligibility; an ineligible one is refused', async () => {
    const p = (await passesOf(f, 'iss', clock.now()))[0];
    await f.s.post('/api/v1/radio/session/select', selectBody(p));
    const bad = await f.s.post('/api/v1/radio/session/test-pair', { uplink_hz: 50_000_000, downlink_hz: 29_000_000 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'not_eligible');
    const ok = await f.s.post('/api/v1/radio/session/test-pair', { uplink_hz: 145_990_000, downlink_hz: 437_800_000 });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.test_pair.source, 'manual');
    const def = await f.s.post('/api/v1/radio/session/test-pair', {});
    assert.equal(def.body.test_pair.source, 'guidance');
  });

  it('selection validates its body and the satellite', async () => {
    const p = passes[0];
    for (const b of [{}, { ...selectBody(p), sat_id: 'nope' }, { ...selectBody(p), pass_los: p.aos }, { ...selectBody(p), pass_aos: 'tomorrow' }]) {
      const r = await f.s.post('/api/v1/radio/session/select', b);
      assert.equal(r.status, 400, JSON.stringify(b));
    }
  });

  it('without a rig, test and start answer 409 and the idle control state says not_connected', async () => {
    await f.s.post('/api/v1/radio/session/clear');
    const p = (await passesOf(f, 'iss', clock.now()))[0];
    await f.s.post('/api/v1/radio/disconnect');
    const sel = await f.s.post('/api/v1/radio/session/select', selectBody(p));
    assert.equal(sel.body.session.control_state, 'not_connected');
    assert.equal((await f.s.post('/api/v1/radio/session/test')).status, 409);
    assert.equal((await f.s.post('/api/v1/radio/session/start')).status, 409);
  });
});
