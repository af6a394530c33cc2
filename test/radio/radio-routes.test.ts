import { describe, it, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { rigFixture, until, wire, type RigFixture } from './rig-fixture.js';

// Every radio route against the IC-705 simulator over a real pseudo-terminal.

describe('radio routes against an IC-705 (rigA)', () => {
  let f: RigFixture;
  before(async () => {
    f = await rigFixture();
  });
  after(() => f.stop());
  beforeEach(() => {
    f.sim.faults.noReplyTo.clear();
    f.sim.faults.ngTo.clear();
    f.sim.faults.garble = false;
    f.sim.faults.noReplyAtAll = false;
  });

  it('connect opened the port, selected VFO A and reports rigA as validated', async () => {
    const st = await f.s.get('/api/v1/radio/state');
    assert.equal(st.status, 200);
    assert.equal(st.body.runtime.connected, true);
    assert.equal(st.body.runtime.capabilities.model, 'rigA');
    assert.equal(st.body.runtime.capabilities.validated, true);
    assert.equal(f.sim.state.selected, 'A');
    assert.ok(f.sim.log.some((e) => e.cmd === 0x07 && e.data[0] === 0x00), 'VFO A selected on the wire');
    assert.equal(st.body.session.screen_state, 'idle');
    assert.equal(st.body.session.control_state, 'connected_idle');
  });

  it('poll reads both VFOs back as absolute A and B, with split and scope', async () => {
    f.sim.state.vfoA.freq = 145_800_000;
    f.sim.state.vfoB.freq = 437_800_000;
    f.sim.state.vfoB.mode = 'USB';
    f.sim.state.split = true;
    const r = await f.s.post('/api/v1/radio/poll');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.runtime.targets, { vfo_a_freq_hz: 145_800_000, vfo_b_freq_hz: 437_800_000, vfo_a_mode: 'FM', vfo_b_mode: 'USB' });
    assert.equal(r.body.runtime.raw_state.split_enabled, true);
    assert.equal(r.body.runtime.raw_state.selected_vfo, 'A');
    assert.ok(r.body.runtime.last_poll_at);
  });

  it('a direct VFO B write lands on B and leaves VFO A selected', async () => {
    const r = await f.s.post('/api/v1/radio/frequency', { vfo: 'B', freq_hz: 435_300_000 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.result, { vfo: 'B', freq_hz: 435_300_000 });
    assert.equal(f.sim.state.vfoB.freq, 435_300_000);
    assert.equal(f.sim.state.selected, 'A');
    assert.equal(r.body.runtime.targets.vfo_b_freq_hz, 435_300_000);
    const a = await f.s.post('/api/v1/radio/frequency', { vfo: 'A', freq_hz: 14_074_000 });
    assert.equal(a.status, 200, 'VFO A (receive) may go anywhere the rig tunes');
    assert.equal(f.sim.state.vfoA.freq, 14_074_000);
  });

  it('the safe transmit guard refuses an out-of-band transmit VFO, and bad bodies get 400', async () => {
    const before = f.sim.log.length;
    const g = await f.s.post('/api/v1/radio/frequency', { vfo: 'B', freq_hz: 28_500_000 });
    assert.equal(g.status, 400);
    assert.equal(g.body.error.code, 'tx_guard');
    for (const body of [{ vfo: 'C', freq_hz: 1 }, { vfo: 'A', freq_hz: 145.8 }, { vfo: 'A' }, { vfo: 'A', freq_hz: -5 }]) {
      const r = await f.s.post('/api/v1/radio/frequency', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.body.error.code, 'validation_failed');
    }
    assert.equal(f.sim.log.length, before, 'nothing reached the rig');
  });

  it('a manual pair goes out in the spec order: split off, A freq, A mode, B freq, B mode, split on', async () => {
    f.sim.clearLog();
    const r = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_990_000, downlink_hz: 435_800_000, uplink_mode: 'LSB', downlink_mode: 'USB' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    // The first manual write since connect reads a snapshot first (POST /radio/restore puts it
    // back): reads only, then the pair in the spec order.
    const w = wire(f.sim);
    assert.deepEqual(w.slice(-7), ['07 00', '0F 00', '25 00 00 00 80 35 04', '26 00 01 00 01', '25 01 00 00 99 45 01', '26 01 00 00 01', '0F 01']);
    assert.ok(w.slice(0, -7).includes('14 03'), 'the squelch read for the snapshot');
    assert.equal(r.body.runtime.restore_available, true);
    assert.equal(f.sim.state.vfoA.freq, 435_800_000);
    assert.equal(f.sim.state.vfoA.mode, 'USB');
    assert.equal(f.sim.state.vfoB.freq, 145_990_000);
    assert.equal(f.sim.state.vfoB.mode, 'LSB');
    assert.equal(f.sim.state.split, true);
    assert.equal(r.body.runtime.control_mode, 'manual_applied');
    assert.equal(r.body.recommendation.mode, 'manual');
    assert.match(r.body.targetMapping.tx, /VFO B/);
    assert.match(r.body.targetMapping.rx, /VFO A/);
  });

  it('pair modes default to FM', async () => {
    const r = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_850_000, downlink_hz: 436_795_000 });
    assert.equal(r.status, 200);
    assert.equal(f.sim.state.vfoA.mode, 'FM');
    assert.equal(f.sim.state.vfoB.mode, 'FM');
  });

  it('an out-of-range pair answers 400 with the eligibility message and leaves the rig untouched', async () => {
    f.sim.clearLog();
    const r = await f.s.post('/api/v1/radio/pair', { uplink_hz: 1_268_000_000, downlink_hz: 29_400_000 });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'not_eligible');
    assert.match(r.body.error.message, /VHF 144\.000–148\.000 MHz or UHF 420\.000–450\.000 MHz/);
    assert.deepEqual(f.sim.log, []);
  });

  it('apply resolves the shared recommendation and opens squelch, scope on, centre, 1 MHz span (±500 kHz)', async () => {
    f.sim.state.squelch = 128;
    f.sim.state.scope.on = false;
    const r = await f.s.post('/api/v1/radio/apply', { sat_id: 'iss' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.recommendation.sat_id, 'iss');
    assert.equal(f.sim.state.vfoA.freq, r.body.recommendation.downlink_hz);
    assert.equal(f.sim.state.vfoB.freq, r.body.recommendation.uplink_hz);
    assert.equal(f.sim.state.squelch, 0);
    assert.equal(f.sim.state.scope.on, true);
    assert.equal(f.sim.state.scope.mode, 'center');
    assert.equal(f.sim.state.scope.spanHalfHz, 500_000);
    assert.equal(r.body.runtime.active_sat_id, 'iss');
    assert.equal(r.body.runtime.control_mode, 'manual_applied');
  });

  it('apply with a CTCSS profile sets the tone on the transmit VFO when apply_mode_and_tone', async () => {
    const r = await f.s.post('/api/v1/radio/apply', { sat_id: 'so-50', apply_mode_and_tone: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.applied.tone_hz, 67);
    assert.equal(f.sim.state.vfoB.tone.repeaterToneHz, 67);
    assert.equal(f.sim.state.vfoB.tone.toneOn, true);
    assert.equal(f.sim.state.selected, 'A');
  });

  it('apply refuses unknown satellites and satellites outside the rig bands', async () => {
    const u = await f.s.post('/api/v1/radio/apply', { sat_id: 'no-such-sat' });
    assert.equal(u.status, 400);
    assert.equal(u.body.error.code, 'unknown_satellite');
    const q = await f.s.post('/api/v1/radio/apply', { sat_id: 'qo-100' });
    assert.equal(q.status, 400);
    assert.equal(q.body.error.code, 'not_eligible');
    assert.match(q.body.error.message, /outside the rig ranges|inside the rig ranges/);
  });

  it('a 0x25 write whose reply never comes: 504, the write applied, last good targets kept; a poll recovers', async () => {
    await f.s.post('/api/v1/radio/poll');
    const before = (await f.s.get('/api/v1/radio/state')).body.runtime.targets;
    f.sim.faults.noReplyTo.add(0x25);
    const r = await f.s.post('/api/v1/radio/frequency', { vfo: 'A', freq_hz: 145_900_000 });
    assert.equal(r.status, 504);
    assert.equal(r.body.error.code, 'rig_timeout');
    assert.match(r.body.error.message, /may still have applied/);
    assert.equal(f.sim.state.vfoA.freq, 145_900_000, 'the rig applied it');
    const st = (await f.s.get('/api/v1/radio/state')).body.runtime;
    assert.deepEqual(st.targets, before, 'last good targets kept');
    assert.match(st.last_error, /0x25|frequency|no answer/i);
    f.sim.faults.noReplyTo.clear();
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 200);
    assert.equal(p.body.runtime.targets.vfo_a_freq_hz, 145_900_000);
    assert.equal(p.body.runtime.last_error, null);
  });

  it('NG answers and garbled replies are reported, not crashed on, and the next poll recovers', async () => {
    f.sim.faults.ngTo.add(0x26);
    const ng = await f.s.post('/api/v1/radio/pair', { uplink_hz: 145_850_000, downlink_hz: 436_795_000 });
    assert.equal(ng.status, 502);
    assert.equal(ng.body.error.code, 'rig_rejected');
    f.sim.faults.ngTo.clear();
    f.sim.faults.garble = true;
    const g = await f.s.post('/api/v1/radio/poll');
    assert.ok(g.status === 200 || g.status === 504);
    assert.ok((await f.s.get('/api/v1/radio/state')).body.runtime.last_error);
    f.sim.faults.garble = false;
    const ok = await f.s.post('/api/v1/radio/poll');
    assert.equal(ok.status, 200);
    assert.equal(ok.body.runtime.last_error, null);
  });

  it('a rig that stops answering: the server keeps serving and reports it; it recovers', async () => {
    f.sim.faults.noReplyAtAll = true;
    const kept = (await f.s.get('/api/v1/radio/state')).body.runtime.targets;
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 504, 'nothing usable came back');
    assert.equal(p.body.error.code, 'rig_timeout');
    const st = (await f.s.get('/api/v1/radio/state')).body.runtime;
    assert.ok(st.last_error);
    assert.deepEqual(st.targets, kept, 'last good targets kept');
    assert.equal((await f.s.get('/health')).status, 200);
    f.sim.faults.noReplyAtAll = false;
    const ok = await f.s.post('/api/v1/radio/poll');
    assert.equal(ok.body.runtime.last_error, null);
  });

  it('ports lists what the machine has (best effort)', async () => {
    const r = await f.s.get('/api/v1/radio/ports');
    assert.equal(r.status, 200);
    assert.ok(Array.isArray(r.body.items));
  });

  it('unplug: connected false with the reason; replug: reconnects with backoff and answers again', async () => {
    await f.pty.unplug();
    await until(async () => (await f.s.get('/api/v1/radio/state')).body.runtime.connected === false, 'disconnect noticed');
    const st = (await f.s.get('/api/v1/radio/state')).body.runtime;
    assert.match(st.last_error, /went away/);
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 409);
    assert.equal(p.body.error.code, 'rig_not_connected');
    await f.pty.replug();
    await f.sim.close().catch(() => {});
    await f.sim.open(f.pty.rigPath);
    // Reconnect timers run on the injected clock: move it past the capped backoff.
    await until(async () => {
      (f.clock as { advance?: (ms: number) => void }).advance?.(1000);
      return (await f.s.get('/api/v1/radio/state')).body.runtime.connected === true;
    }, 'reconnect', 8000);
    const ok = await f.s.post('/api/v1/radio/poll');
    assert.equal(ok.status, 200);
  });

  it('disconnect reports idle and not connected', async () => {
    const r = await f.s.post('/api/v1/radio/disconnect');
    assert.equal(r.status, 200);
    assert.equal(r.body.runtime.connected, false);
    assert.equal(r.body.runtime.control_mode, 'idle');
    const w = await f.s.post('/api/v1/radio/frequency', { vfo: 'A', freq_hz: 145_800_000 });
    assert.equal(w.status, 409);
  });
});

describe('radio settings', () => {
  let f: RigFixture;
  before(async () => {
    f = await rigFixture({ connect: false });
  });
  after(() => f.stop());

  it('validates baud, CI-V address, device path and interval minimums', async () => {
    const bad = [
      { baud_rate: 1234 },
      { baud_rate: 1200 },
      { civ_address: 'A4' },
      { civ_address: '0xA' },
      { serial_device: '/dev/../etc/passwd' },
      { serial_device: 'ttyUSB0' },
      { poll_interval_ms: 10 },
      { auto_track_interval_ms: 100 },
      { rig_model: 'ic7300' },
    ];
    for (const b of bad) {
      const r = await f.s.post('/api/v1/settings/radio', b);
      assert.equal(r.status, 400, JSON.stringify(b));
      assert.equal(r.body.error.code, 'validation_failed');
    }
    const ok = await f.s.post('/api/v1/settings/radio', { serial_device: '/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0', baud_rate: 19200 });
    assert.equal(ok.status, 200);
    const gps = await f.s.post('/api/v1/settings/gps', { serial_device: '/dev/serial/by-path/pci-0000:00:14.0-usb-0:2:1.0-port0' });
    assert.equal(gps.status, 200, 'the GPS device rule is the same rule');
  });

  it('the capabilities shown follow the rig model setting while disconnected', async () => {
    await f.s.post('/api/v1/settings/radio', { rig_model: 'rigB' });
    assert.equal((await f.s.get('/api/v1/radio/state')).body.runtime.capabilities.validated, false);
    await f.s.post('/api/v1/settings/radio', { rig_model: 'rigA' });
    assert.equal((await f.s.get('/api/v1/radio/state')).body.runtime.capabilities.model, 'rigA');
  });

  it('connect refuses while radio control is disabled', async () => {
    await f.s.post('/api/v1/settings/radio', { enabled: false, serial_device: f.pty.ctlPath });
    const r = await f.s.post('/api/v1/radio/connect');
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'radio_disabled');
  });
});
