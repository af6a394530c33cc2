import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { assertOperatorState, rigFixture, setOperatorState, type RigFixture } from './rig-fixture.js';

// "Restore the rig as it was": Apply now, a manual pair and auto-track open the squelch, turn
// the scope on and set split. The first of them since connect snapshots the rig; POST
// /api/v1/radio/restore puts it back. Against the IC-705 simulator over a real pseudo-terminal.

describe('POST /api/v1/radio/restore (IC-705)', () => {
  let f: RigFixture;
  const runtime = async () => (await f.s.get('/api/v1/radio/state')).body.runtime;
  before(async () => {
    f = await rigFixture();
  });
  after(() => f.stop());

  it('answers 409 no_snapshot before any manual write since connect', async () => {
    assert.equal((await runtime()).restore_available, false);
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'no_snapshot');
    assert.match(r.body.error.message, /nothing to restore/);
  });

  it('Apply now changes squelch, scope and split; restore puts back the rig as it was before the first apply', async () => {
    setOperatorState(f.sim);
    const a = await f.s.post('/api/v1/radio/apply', { sat_id: 'iss' });
    assert.equal(a.status, 200, JSON.stringify(a.body));
    assert.equal(f.sim.state.squelch, 0);
    assert.equal(f.sim.state.scope.on, true);
    assert.equal(f.sim.state.split, true);
    assert.equal(a.body.runtime.restore_available, true);

    // A second apply does not snapshot again: restore goes back past both.
    const b = await f.s.post('/api/v1/radio/apply', { sat_id: 'so-50', apply_mode_and_tone: true });
    assert.equal(b.status, 200, JSON.stringify(b.body));
    assert.equal(f.sim.state.vfoB.tone.toneOn, true);

    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.restored, true);
    assert.equal(r.body.runtime.restore_available, false, 'the snapshot is used up');
    assert.equal(r.body.runtime.control_mode, 'idle');
    assert.equal(r.body.runtime.active_sat_id, null);
    assertOperatorState(f.sim);

    const again = await f.s.post('/api/v1/radio/restore');
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'no_snapshot');
  });

  it('a restore whose reply is lost runs once more: the rig is put back, the late reply named in last_error', async () => {
    setOperatorState(f.sim);
    const a = await f.s.post('/api/v1/radio/apply', { sat_id: 'iss' });
    assert.equal(a.status, 200, JSON.stringify(a.body));
    f.sim.faults.loseReplies = 1; // the restore's first write is carried out, its reply lost
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(f.sim.faults.loseReplies, 0, 'the lost reply was the restore\'s');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.restored, true);
    assertOperatorState(f.sim);
    assert.match(r.body.runtime.last_error ?? '', /restore rig snapshot: .*no answer within/);
  });

  it('a manual pair snapshots too', async () => {
    setOperatorState(f.sim);
    const p = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_990_000, downlink_hz: 435_800_000 });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(f.sim.state.split, true);
    assert.equal(p.body.runtime.restore_available, true);
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertOperatorState(f.sim);
  });

  it('auto-track: restore stops the loop, then puts the rig back', async () => {
    setOperatorState(f.sim);
    const t = await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'iss', interval_ms: 60_000 });
    assert.equal(t.status, 200, JSON.stringify(t.body));
    assert.equal(f.sim.state.squelch, 0);
    assert.equal(t.body.runtime.restore_available, true);
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.runtime.auto_track, null);
    assert.equal(r.body.runtime.control_mode, 'idle');
    assertOperatorState(f.sim);
  });

  it('the pass session holds the rig: restore waits for it (409), its own snapshot is its own', async () => {
    setOperatorState(f.sim);
    await f.s.post('/api/v1/radio/apply', { sat_id: 'iss' });
    const passes = await f.s.app.services.orbit.passesWhenReady({ from_ms: f.clock.now(), hours: 24, min_max_el_deg: 5, sat_ids: ['iss'], include_ongoing: false });
    const p = passes[0];
    const sel = await f.s.post('/api/v1/radio/session/select', { sat_id: 'iss', pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    assert.equal((await f.s.post('/api/v1/radio/session/test')).status, 200);
    const held = await f.s.post('/api/v1/radio/restore');
    assert.equal(held.status, 409);
    assert.equal(held.body.error.code, 'session_owns_rig');
    assert.equal((await f.s.post('/api/v1/radio/session/test/confirm')).status, 200);
    assert.equal(f.sim.state.squelch, 0, 'the session put back the applied state it found');
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assertOperatorState(f.sim);
    await f.s.post('/api/v1/radio/session/clear');
  });

  it('disconnect drops the snapshot: the next connection may be another rig state', async () => {
    setOperatorState(f.sim);
    await f.s.post('/api/v1/radio/apply', { sat_id: 'iss' });
    assert.equal((await runtime()).restore_available, true);
    const d = await f.s.post('/api/v1/radio/disconnect');
    assert.equal(d.body.runtime.restore_available, false);
    const off = await f.s.post('/api/v1/radio/restore');
    assert.equal(off.status, 409);
    assert.equal(off.body.error.code, 'rig_not_connected');
    assert.equal((await f.s.post('/api/v1/radio/connect')).status, 200);
    const r = await f.s.post('/api/v1/radio/restore');
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'no_snapshot');
  });
});
