import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { CivRigSim } from '../sims/civ-rig.js';
import { YaesuCatSim } from '../sims/yaesu-cat-rig.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { TEST_CIV_TIMEOUTS, loopTick, until } from './rig-fixture.js';
import { UPLINK_RIG_START } from '../../ui/components/settings/rig-fields.js';
import { FixedClock } from '../../src/util/clock.js';
import type { PassEvent } from '../../src/orbit/types.js';

// Two radios (issue 34): an IC-705 receives the downlink and a second IC-705 transmits the
// uplink, each on its own pseudo-terminal through the real serial stack. A whole pass tracked by
// the pass-pinned session, an unplug of each leg (the other keeps tracking, the fault names the
// leg), the emergency stop on the transmit radio, and both radios put back at LOS.

interface Radio {
  pty: PtyPair;
  sim: CivRigSim;
}

async function radio(): Promise<Radio> {
  const pty = await openPtyPair();
  const sim = new CivRigSim({ kind: 'IC-705', echo: false, transceive: true });
  await sim.open(pty.rigPath);
  return { pty, sim };
}

/** A whole link to a simulated IC-705 (the page's starting uplink radio, on the radio's pty). */
const link = (r: Radio) => ({ ...UPLINK_RIG_START, serial_device: r.pty.ctlPath, baud_rate: 115200 });

/** The operator's radios before the station touches them: both must come back like this. */
function operatorState(down: Radio, up: Radio): void {
  for (const [r, a, b] of [
    [down, 14_074_000, 7_074_000],
    [up, 28_074_000, 21_074_000],
  ] as const) {
    r.sim.state.vfoA.freq = a;
    r.sim.state.vfoA.mode = 'USB';
    r.sim.state.vfoB.freq = b;
    r.sim.state.vfoB.mode = 'LSB';
    r.sim.state.split = r === up;
  }
}

describe('two radios: the downlink on one, the uplink on the other', () => {
  let down: Radio;
  let up: Radio;
  let s: TestServer;
  let clock: FixedClock;
  let pass: PassEvent;
  /** An AO-7 pass: its uplink is on UHF, so that is the side Doppler moves (uhf_only). */
  let uhfUpPass: PassEvent;
  const state = async () => (await s.get('/api/v1/radio/state')).body;
  const tick = (ms: number) => loopTick(clock, ms);

  before(async () => {
    [down, up] = [await radio(), await radio()];
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    s = await startServer({ clock, app: { civTimeouts: TEST_CIV_TIMEOUTS } });
    const passes = await s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 30, sat_ids: ['rs-44'], include_ongoing: false });
    assert.ok(passes.length > 0, 'an RS-44 pass');
    pass = passes[0];
    const ao7 = await s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 30, sat_ids: ['ao-7'], include_ongoing: false });
    assert.ok(ao7.length > 0, 'an AO-7 pass');
    uhfUpPass = ao7[0];
  });
  after(async () => {
    await s.stop();
    for (const r of [down, up]) {
      await r.sim.close().catch(() => {});
      await r.pty.close();
    }
  });

  it('uplink_rig: from null it takes the whole object (a missing field is a 400 naming it), later bodies may be partial', async () => {
    const { serial_device: _, ...partial } = link(up);
    const missing = await s.post('/api/v1/settings/radio', { uplink_rig: partial });
    assert.equal(missing.status, 400);
    assert.match(JSON.stringify(missing.body.error), /uplink_rig\.serial_device/);
    const bad = await s.post('/api/v1/settings/radio', { uplink_rig: { ...link(up), serial_device: 'ttyUSB0' } });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body.error), /uplink_rig\.serial_device/);
    const same = await s.post('/api/v1/settings/radio', { enabled: true, ...link(down), uplink_rig: { ...link(up), serial_device: down.pty.ctlPath } });
    assert.equal(same.status, 400, 'both radios on one device');
    assert.equal(same.body.error.details.field, 'uplink_rig.serial_device');
    const yaesuBaud = await s.post('/api/v1/settings/radio', { uplink_rig: { ...link(up), rig_model: 'ft818', baud_rate: 115200 } });
    assert.equal(yaesuBaud.status, 400);
    assert.equal(yaesuBaud.body.error.details.field, 'uplink_rig.baud_rate');
    // Wrong shapes are 400s naming the field, never a 500.
    for (const [body, field] of [
      [{ uplink_rig: [] }, 'uplink_rig'],
      [{ uplink_rig: 5 }, 'uplink_rig'],
      [{ uplink_rig: { ...link(up), baud_rate: '9600' } }, 'uplink_rig.baud_rate'],
      [{ uplink_rig: { ...link(up), rig_model: 'ic7300' } }, 'uplink_rig.rig_model'],
      [{ hamlib_address: 'nohost' }, 'hamlib_address'],
      [{ hamlib_model: -1 }, 'hamlib_model'],
    ] as const) {
      const r = await s.post('/api/v1/settings/radio', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      // The field itself, or one of its own fields (an array has none of the object's).
      assert.ok(r.body.error.details.fields.some((f: { field: string }) => f.field === field || f.field.startsWith(`${field}.`)), JSON.stringify(r.body));
    }
    for (const body of ['[]', 'null']) {
      const r = await fetch(`${s.base}/api/v1/settings/radio`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(r.status, 400, body);
    }
    assert.equal((await state()).settings.uplink_rig, null, 'nothing saved on a 400');

    const ok = await s.post('/api/v1/settings/radio', { enabled: true, ...link(down), uplink_rig: { ...link(up), wifi_password: 'secret' } });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.notEqual(ok.body.state.uplink_rig.wifi_password, 'secret', 'the uplink radio password is write-only');
    const partialLater = await s.post('/api/v1/settings/radio', { uplink_rig: { baud_rate: 19200 } });
    assert.equal(partialLater.status, 200, JSON.stringify(partialLater.body));
    assert.equal(partialLater.body.state.uplink_rig.serial_device, up.pty.ctlPath);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: { baud_rate: 115200 } })).status, 200);
  });

  it('connects both: runtime.legs names each radio, the Hamlib server sees a satellite pair', async () => {
    const c = await s.post('/api/v1/radio/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    await until(async () => {
      const l = (await state()).runtime.legs;
      return l.downlink.connected && l.uplink?.connected;
    }, 'both radios connected');
    const st = await state();
    assert.equal(st.runtime.connected, true, JSON.stringify(st.runtime));
    assert.equal(st.runtime.legs.downlink.rig, 'IC-705');
    assert.equal(st.runtime.legs.uplink.rig, 'IC-705');
    assert.equal(st.runtime.capabilities.radio, 'IC-705 + IC-705');
    assert.match(st.runtime.capabilities.target_mapping.tx, /uplink radio/);
  });

  it('a whole pass: the downlink radio follows Doppler on VFO A, the uplink radio transmits on its VFO A with split off', async () => {
    operatorState(down, up);
    assert.equal((await s.post('/api/v1/radio/session/select', { sat_id: pass.sat_id, pass_aos: pass.aos, pass_los: pass.los, max_el_deg: pass.max_el_deg })).status, 200);
    clock.set(pass.aos_ms - 2000);
    const st = await s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    await tick(3000);
    await until(async () => (await state()).session.screen_state === 'active', 'tracking at AOS');
    assert.equal(up.sim.state.split, false, 'the uplink radio transmits where it is written');
    const rxSeen = new Set<number>();
    const txSeen = new Set<number>();
    while (clock.now() < pass.los_ms - 3000) {
      await tick(1500);
      rxSeen.add(down.sim.state.vfoA.freq);
      txSeen.add(up.sim.state.vfoA.freq);
    }
    assert.ok(rxSeen.size > 3, `the downlink radio followed Doppler (${rxSeen.size} distinct)`);
    // RS-44's profile corrects the downlink only: the uplink stays on its spot of the passband.
    assert.deepEqual([...txSeen], [(await state()).runtime.auto_track.targets.tx_hz], 'the uplink radio on the uplink');
    for (const hz of rxSeen) assert.ok(Math.abs(hz - 435_640_000) < 60_000, `downlink ${hz} in RS-44's passband`);
    for (const hz of txSeen) assert.ok(Math.abs(hz - 145_965_000) < 60_000, `uplink ${hz} in RS-44's passband`);
    const legs = (await state()).runtime.legs;
    assert.equal(legs.downlink.freq_hz, down.sim.state.vfoA.freq);
    assert.equal(legs.uplink.freq_hz, up.sim.state.vfoA.freq);
    clock.set(pass.los_ms + 100);
    await until(async () => (await state()).session.screen_state === 'completed', 'end at LOS');
    for (const [r, a, split] of [
      [down, 14_074_000, false],
      [up, 28_074_000, true],
    ] as const) {
      assert.equal(r.sim.state.vfoA.freq, a, 'each radio put back');
      assert.equal(r.sim.state.split, split);
    }
  });

  /** Tracks mid-pass a satellite whose Doppler moves the leg that stays (RS-44 its downlink, AO-7 its uplink). */
  const trackMidPass = async (p: PassEvent) => {
    clock.set(p.tca_ms - 120_000);
    const r = await s.post('/api/v1/radio/auto-track/start', { sat_id: p.sat_id, interval_ms: 1000 });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  };

  for (const leg of ['uplink', 'downlink'] as const) {
    it(`unplugging the ${leg} radio: the other keeps tracking, last_error names the leg, and it is written again once back`, async () => {
      await trackMidPass(leg === 'uplink' ? pass : uhfUpPass);
      const gone = leg === 'uplink' ? up : down;
      const stays = leg === 'uplink' ? down : up;
      const staysVfo = () => stays.sim.state.vfoA.freq;
      await gone.pty.unplug();
      await until(async () => (await state()).runtime.legs[leg].connected === false, `${leg} unplug noticed`);
      const st = await state();
      assert.equal(st.runtime.connected, true, 'the station still has a radio');
      assert.match(st.runtime.legs[leg].last_error ?? '', new RegExp(`${leg} radio \\(IC-705\\)`));
      assert.match(st.runtime.last_error ?? '', new RegExp(`${leg} radio`));
      const seen = new Set<number>();
      for (let i = 0; i < 6; i++) {
        await tick(5000);
        seen.add(staysVfo());
      }
      assert.ok(seen.size >= 3, `the ${leg === 'uplink' ? 'downlink' : 'uplink'} radio kept tracking (${seen.size} distinct)`);
      await gone.sim.close().catch(() => {});
      await gone.pty.replug();
      gone.sim.state.vfoA.freq = 14_000_000;
      await gone.sim.open(gone.pty.rigPath);
      await until(async () => {
        // Not tick(): the reconnect timer that fires here is not armed again.
        clock.advance(1000);
        await new Promise((r) => setTimeout(r, 20));
        const f = gone.sim.state.vfoA.freq;
        return f > 400_000_000 || (f > 144_000_000 && f < 148_000_000);
      }, `${leg} radio written again`, 10_000);
      assert.equal((await state()).runtime.legs[leg].connected, true);
      assert.equal((await s.post('/api/v1/radio/auto-track/stop')).status, 200);
    });
  }

  it('the emergency stop unkeys the transmit radio', async () => {
    up.sim.state.transmitting = true;
    const r = await s.post('/api/v1/aprs/emergency-stop');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await until(() => up.sim.state.transmitting === false, 'uplink radio unkeyed');
  });
});

describe('two radios of two makes: an FT-818 receives, an IC-705 transmits', () => {
  let ft: { pty: PtyPair; sim: YaesuCatSim };
  let ic: Radio;
  let s: TestServer;
  let clock: FixedClock;
  const state = async () => (await s.get('/api/v1/radio/state')).body;
  const tick = (ms: number) => loopTick(clock, ms);

  before(async () => {
    const pty = await openPtyPair();
    const sim = new YaesuCatSim({ model: 'FT-818' });
    sim.state.current = 'B'; // the operator left it on VFO B: that is its receive VFO now
    await sim.open(pty.rigPath, 9600);
    ft = { pty, sim };
    ic = await radio();
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    s = await startServer({ clock, app: { civTimeouts: TEST_CIV_TIMEOUTS } });
  });
  after(async () => {
    await s.stop();
    await ft.sim.close().catch(() => {});
    await ft.pty.close();
    await ic.sim.close().catch(() => {});
    await ic.pty.close();
  });

  it('tracks a pass: the FT-818 on the VFO it rests on, the IC-705 on its VFO A; a hand on the FT-818\'s PTT stops its leg only', async () => {
    const ftLink = { ...link(ic), rig_model: 'ft818', serial_device: ft.pty.ctlPath, baud_rate: 9600 };
    const set = await s.post('/api/v1/settings/radio', { enabled: true, ...ftLink, uplink_rig: link(ic) });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await s.post('/api/v1/radio/connect')).status, 200);
    await until(async () => {
      const l = (await state()).runtime.legs;
      return l.downlink.connected && l.uplink?.connected;
    }, 'both radios connected');
    const legs = (await state()).runtime.legs;
    assert.deepEqual([legs.downlink.rig, legs.uplink.rig], ['FT-818', 'IC-705']);
    assert.equal((await s.get('/api/v1/lite/snapshot')).body.radioControl.rig, 'FT-818 + IC-705', 'the lite line names both');

    const [p] = await s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 30, sat_ids: ['rs-44'], include_ongoing: false });
    clock.set(p.tca_ms - 120_000);
    const start = await s.post('/api/v1/radio/auto-track/start', { sat_id: 'rs-44', interval_ms: 1000 });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const rxSeen = new Set<number>();
    for (let i = 0; i < 5; i++) {
      await tick(5000);
      rxSeen.add(ft.sim.state.vfoB.freq);
    }
    assert.ok(rxSeen.size >= 3, `the FT-818's resting VFO followed Doppler (${[...rxSeen]})`);
    for (const hz of rxSeen) assert.ok(Math.abs(hz - 435_640_000) < 60_000, `downlink ${hz}`);
    assert.equal(ft.sim.state.current, 'B', 'left on its receive VFO');
    assert.ok(Math.abs(ic.sim.state.vfoA.freq - 145_965_000) < 60_000, `uplink on the IC-705: ${ic.sim.state.vfoA.freq}`);
    assert.equal(ic.sim.state.split, false);

    ft.sim.keyByHand(true);
    const icBefore = ic.sim.state.vfoA.freq;
    await until(async () => {
      await tick(5000);
      return /downlink radio \(FT-818\)/.test((await state()).runtime.legs.downlink.last_error ?? '');
    }, 'the keyed FT-818 named in its leg');
    assert.match((await state()).runtime.last_error ?? '', /downlink radio \(FT-818\).*transmitting/);
    assert.equal((await state()).runtime.legs.downlink.ptt, true, 'the leg says the FT-818 transmits');
    assert.equal(icBefore > 0, true);
    ft.sim.keyByHand(false);
    await until(async () => {
      await tick(5000);
      return (await state()).runtime.legs.downlink.last_error === null;
    }, 'the FT-818 tracked again once unkeyed');
    assert.equal((await s.post('/api/v1/radio/auto-track/stop')).status, 200);
  });
});
