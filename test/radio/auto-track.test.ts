import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loopTick, rigFixture, until, wire, type RigFixture } from './rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';

// Auto-track on a fixed clock against the IC-705 simulator with USB echo and transceive on:
// leg-only writes past the deadband, knob-follow on an inverting transponder, FM staying on its
// channel, stop, and the whole pair rewritten after an unplug.

describe('auto-track and knob-follow (IC-705, echo on)', () => {
  let f: RigFixture;
  let clock: FixedClock;
  const state = async () => (await f.s.get('/api/v1/radio/state')).body;
  const tick = (ms: number) => loopTick(clock, ms);
  /** The operator turns the knob; waits until the station has heard the rig's transceive broadcast. */
  const turnKnob = async (hz: number) => {
    f.sim.turnKnob('A', hz);
    await until(async () => (await state()).runtime.targets.vfo_a_freq_hz === hz, `broadcast of ${hz} Hz heard`);
  };

  before(async () => {
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    f = await rigFixture({ clock, echo: true, transceive: true });
    const passes = await f.s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 20, sat_ids: ['rs-44'], include_ongoing: false });
    assert.ok(passes.length > 0, 'an RS-44 pass');
    clock.set(passes[0].aos_ms + 60_000);
  });
  after(() => f.stop());

  it('start writes the whole pair with modes, then only legs that moved past the deadband', async () => {
    const r = await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'rs-44', interval_ms: 1000 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.runtime.control_mode, 'auto_tracking');
    assert.equal(r.body.auto_track.sat_id, 'rs-44');
    assert.equal(f.sim.state.split, true);
    assert.equal(f.sim.state.vfoA.mode, 'USB');
    assert.equal(f.sim.state.vfoB.mode, 'LSB');
    assert.ok(Math.abs(f.sim.state.vfoA.freq - 435_640_000) < 12_000, `downlink ${f.sim.state.vfoA.freq}`);
    assert.ok(Math.abs(f.sim.state.vfoB.freq - 145_965_000) < 5_000, `uplink ${f.sim.state.vfoB.freq}`);

    f.sim.clearLog();
    const seen: number[] = [f.sim.state.vfoA.freq];
    for (let i = 0; i < 8; i++) {
      await tick(1000);
      if (f.sim.state.vfoA.freq !== seen[seen.length - 1]) seen.push(f.sim.state.vfoA.freq);
    }
    const writes = wire(f.sim).filter((w) => w.startsWith('25'));
    const others = wire(f.sim).filter((w) => !w.startsWith('25') && !w.startsWith('26') && !w.startsWith('0F') && !w.startsWith('27'));
    assert.deepEqual(others, [], 'ticks write frequencies only (polls read 25/26/0F/27)');
    const setWrites = writes.filter((w) => w.split(' ').length > 2);
    assert.ok(setWrites.length > 0, 'Doppler moved the pair');
    assert.ok(setWrites.length < 16, `the bus stays quiet between steps (${setWrites.length} leg writes in 8 ticks)`);
    for (let i = 1; i < seen.length; i++) assert.ok(Math.abs(seen[i] - seen[i - 1]) >= 30, 'no write inside the linear deadband');
  });

  it('knob-follow: the operator tunes the receive VFO up 5 kHz; after two stable reads the uplink moves 5 kHz down', async () => {
    const before = await state();
    const upBefore = f.sim.state.vfoB.freq;
    const rx = f.sim.state.vfoA.freq + 5_000;
    await turnKnob(rx); // broadcast: first read
    await tick(1000); // poll readback: second read, then the tick follows
    await tick(1000);
    await until(() => Math.abs(f.sim.state.vfoB.freq - (upBefore - 5_000)) < 200, `uplink followed (${f.sim.state.vfoB.freq} vs ${upBefore - 5000})`);
    assert.ok(Math.abs(f.sim.state.vfoA.freq - rx) < 200, 'the receive VFO stays where the operator put it');
    const after = await state();
    assert.ok(after.runtime.auto_track.knob.last_follow_at);
    assert.ok(after.runtime.auto_track.position.downlink_hz > before.runtime.auto_track.position.downlink_hz + 4_000);
  });

  it('while the knob is still turning nothing is written', async () => {
    f.sim.clearLog();
    const a = f.sim.state.vfoA.freq;
    await turnKnob(a + 1_000);
    await tick(300);
    await turnKnob(a + 2_000);
    await tick(300);
    await turnKnob(a + 3_000);
    await tick(400);
    const sets = wire(f.sim).filter((w) => w.startsWith('25') && w.split(' ').length > 2);
    assert.deepEqual(sets, [], 'no frequency written against the moving knob');
  });

  it('stop returns the runtime to idle and the bus goes quiet', async () => {
    const r = await f.s.post('/api/v1/radio/auto-track/stop');
    assert.equal(r.status, 200);
    assert.equal(r.body.runtime.control_mode, 'idle');
    assert.equal(r.body.runtime.auto_track, null);
    f.sim.clearLog();
    await tick(3000);
    assert.deepEqual(wire(f.sim).filter((w) => w.split(' ').length > 2 && w.startsWith('25')), []);
  });

  it('FM stays on its channel pair: a knob turn does not move the uplink', async () => {
    const r = await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'iss', interval_ms: 1000 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const up = f.sim.state.vfoB.freq;
    await turnKnob(f.sim.state.vfoA.freq + 10_000);
    await tick(1000);
    await tick(1000);
    await tick(1000);
    assert.equal(f.sim.state.vfoB.freq, up);
    await f.s.post('/api/v1/radio/auto-track/stop');
  });

  it('auto-track start validates and refuses what it cannot track', async () => {
    assert.equal((await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'iss', interval_ms: 10 })).status, 400);
    assert.equal((await f.s.post('/api/v1/radio/auto-track/start', {})).status, 400);
    const u = await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'nope' });
    assert.equal(u.status, 400);
  });

  it('after an unplug the loop writes the whole pair again once the rig is back', async () => {
    assert.equal((await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'rs-44', interval_ms: 1000 })).status, 200);
    await f.pty.unplug();
    // Noticed at once, whichever way the hangup reaches the binding (see src/links/hangup-aware-binding.ts).
    await until(async () => (await state()).runtime.connected === false, 'unplug noticed');
    await f.sim.close().catch(() => {});
    await f.pty.replug();
    await f.sim.open(f.pty.rigPath);
    f.sim.state.split = false;
    f.sim.state.vfoA.mode = 'FM';
    f.sim.clearLog();
    await until(async () => {
      await tick(1000);
      return f.sim.state.split === true && f.sim.state.vfoA.mode === 'USB';
    }, 'pair rewritten after reconnect', 10_000);
    assert.equal((await state()).runtime.control_mode, 'auto_tracking');
    await f.s.post('/api/v1/radio/auto-track/stop');
  });
});

describe('rigB (IC-9700) on the same codec and interface', () => {
  let f: RigFixture;
  before(async () => {
    f = await rigFixture({ kind: 'IC-9700' });
  });
  after(() => f.stop());

  it('reports itself as not equally validated, pairs MAIN (downlink) and SUB (uplink) in satellite mode', async () => {
    const st = (await f.s.get('/api/v1/radio/state')).body;
    assert.equal(st.runtime.capabilities.model, 'rigB');
    assert.equal(st.runtime.capabilities.validated, false);
    const r = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_935_000, downlink_hz: 435_640_000, uplink_mode: 'LSB', downlink_mode: 'USB' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(f.sim.state.satMode, true);
    assert.equal(f.sim.state.vfoA.freq, 435_640_000, 'MAIN receives the downlink');
    assert.equal(f.sim.state.vfoA.mode, 'USB');
    assert.equal(f.sim.state.vfoB.freq, 145_935_000, 'SUB transmits the uplink');
    assert.equal(f.sim.state.vfoB.mode, 'LSB');
    assert.equal(f.sim.state.band, 'MAIN');
    assert.match(r.body.targetMapping.tx, /SUB/);
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.runtime.targets.vfo_a_freq_hz, 435_640_000);
    assert.equal(p.body.runtime.targets.vfo_b_freq_hz, 145_935_000);
    assert.equal(p.body.runtime.raw_state.split_enabled, true, 'satellite mode reads as the split of a pair');
  });
});
