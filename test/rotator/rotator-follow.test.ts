import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { RotatorSim } from '../sims/rotator-sim.js';
import { rigFixture, type RigFixture } from '../radio/rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';

// follow_radio_session (issue 25): the radio's pass-pinned session arms, tracks and releases the
// rotator with the rig. An IC-705 simulator and a GS-232A rotator simulator, each on its own pty,
// one simulated clock for the server and both controllers.

const have = spawnSync('socat', ['-V']).status === 0;
const skip = !have ? 'socat is not installed (apt-get install socat)' : false;
const settle = (ms = 25) => new Promise((r) => setTimeout(r, ms));

describe('the rotator follows the radio session', { skip }, () => {
  let f: RigFixture;
  let pty: PtyPair;
  let sim: RotatorSim;
  const clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
  const rotator = async () => (await f.s.get('/api/v1/rotator/state')).body;
  /** 1 s steps of the shared clock, each waiting (real time) for the rotator's poll to read back. */
  const steps = async (n: number) => {
    for (let i = 0; i < n; i++) {
      clock.advance(1000);
      const at = new Date(clock.now()).toISOString();
      const rt = () => f.s.app.services.rotator.runtime();
      for (let k = 0; k < 100 && rt().connected && rt().last_poll_at !== at; k++) await settle(5);
      await settle(10);
    }
  };
  before(async () => {
    f = await rigFixture({ clock });
    pty = await openPtyPair();
    sim = new RotatorSim({ protocol: 'gs232a', az_rate_deg_s: 6, el_rate_deg_s: 3, start: { az_deg: 0, el_deg: 0 }, now: () => clock.now() });
    await sim.open(pty.rigPath, 9600);
    const set = await f.s.post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232a', serial_device: pty.ctlPath, baud_rate: 9600, park_az_deg: 90 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await f.s.app.services.rotator.engine();
    const c = await f.s.post('/api/v1/rotator/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
  });
  after(async () => {
    await f?.stop();
    await sim?.close();
    await pty?.close();
  });

  it('armed: the rotator tracks the session’s pass; stopping the session parks it', async () => {
    const [p] = await f.s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 24, min_max_el_deg: 10, sat_ids: ['iss'], include_ongoing: false });
    const sel = await f.s.post('/api/v1/radio/session/select', { sat_id: p.sat_id, sat_name: p.name, pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    clock.set(p.aos_ms - 60_000);
    await settle();
    const st = await f.s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    assert.equal(st.body.session.screen_state, 'armed');
    await steps(3);
    const armed = await rotator();
    assert.equal(armed.runtime.control_mode, 'tracking');
    assert.equal(armed.runtime.active_sat_id, 'iss');
    assert.equal(armed.plan.aos, p.aos, 'the session’s pass, not another');
    await steps(70);
    assert.ok(sim.commands.some((c) => c.kind === 'goto'), 'the rotator was commanded');
    const stop = await f.s.post('/api/v1/radio/session/stop');
    assert.equal(stop.status, 200);
    await steps(3);
    const released = await rotator();
    assert.notEqual(released.runtime.control_mode, 'tracking');
    assert.equal(released.runtime.active_sat_id, null);
    assert.equal(released.runtime.target_az_deg, 90, 'parked after the session released the rig');
  });
});
