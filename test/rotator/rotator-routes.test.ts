import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { RotatorSim } from '../sims/rotator-sim.js';
import { freePort, startRotctld } from './rotctld-peer.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { FixedClock } from '../../src/util/clock.js';

// The rotator through the real server over HTTP (issue 25): settings, the resting state while it
// is not loaded, the refusals the issue names, and a GS-232B controller (the simulator on a pty,
// on the same simulated clock as the server) driven by goto, stop, park and a whole pass tracked.

const have = spawnSync('socat', ['-V']).status === 0;
const skip = !have ? 'socat is not installed (apt-get install socat)' : false;
const NOW = '2026-08-22T12:00:00Z';
const settle = (ms = 30) => new Promise((r) => setTimeout(r, ms));

describe('rotator API without a controller', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: NOW });
  });
  after(async () => {
    await s?.stop();
  });

  it('is not loaded at boot; state, system state and the lite snapshot show it resting', async () => {
    const st = await s.get('/api/v1/rotator/state');
    assert.equal(st.status, 200);
    assert.equal(st.body.settings.enabled, false);
    assert.equal(st.body.settings.protocol, 'rotctld');
    assert.equal(st.body.settings.rotctld_port, 4533);
    assert.deepEqual(st.body.runtime, { connected: false, control_mode: 'idle', az_deg: null, el_deg: null, target_az_deg: null, target_el_deg: null, moving: false, active_sat_id: null, last_poll_at: null, last_error: null });
    assert.equal(st.body.plan, null);
    const sys = await s.get('/api/v1/system/state');
    assert.equal(sys.body.rotatorSettings.enabled, false);
    assert.equal(sys.body.rotatorRuntime.connected, false);
    const lite = await s.get('/api/v1/lite/snapshot');
    assert.equal(lite.body.rotator.enabled, false);
    assert.equal(lite.body.rotator.focused, false);
    assert.equal(s.app.services.rotator.loaded, false);
  });

  it('settings merge partial bodies and refuse impossible limits, naming the field', async () => {
    const ok = await s.post('/api/v1/settings/rotator', { az_max_deg: 450, el_max_deg: 180 });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.state.az_max_deg, 450);
    assert.equal(ok.body.state.deadband_deg, 2);
    const bad = await s.post('/api/v1/settings/rotator', { el_min_deg: 30, el_max_deg: 20 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.details.field, 'el_max_deg');
    const unknown = await s.post('/api/v1/settings/rotator', { protocol: 'gs9000' });
    assert.equal(unknown.status, 400);
    await s.post('/api/v1/settings/rotator', { az_max_deg: 360, el_max_deg: 90 });
  });

  it('refusals: disabled, outside the limits, not connected; the stop always answers and loads nothing', async () => {
    const c = await s.post('/api/v1/rotator/connect');
    assert.equal(c.status, 409);
    assert.equal(c.body.error.code, 'rotator_disabled');
    const el = await s.post('/api/v1/rotator/goto', { az_deg: 10, el_deg: 95 });
    assert.equal(el.status, 400);
    assert.equal(el.body.error.details.field, 'el_deg');
    const az = await s.post('/api/v1/rotator/goto', { az_deg: 400, el_deg: 10 });
    assert.equal(az.status, 400);
    assert.equal(az.body.error.details.field, 'az_deg');
    const g = await s.post('/api/v1/rotator/goto', { az_deg: 100, el_deg: 10 });
    assert.equal(g.status, 409);
    assert.equal(g.body.error.code, 'rotator_not_connected');
    for (const path of ['/api/v1/rotator/park', '/api/v1/rotator/track/start']) {
      const r = await s.post(path, path.endsWith('start') ? { sat_id: 'iss' } : {});
      assert.equal(r.status, 409, path);
      assert.equal(r.body.error.code, 'rotator_not_connected');
    }
    const stop = await s.post('/api/v1/rotator/stop');
    assert.equal(stop.status, 200);
    for (const junk of ['[]', 'null', '{"az_deg":"x"}', '{"settings":{"enabled":1}}']) assert.equal((await s.post('/api/v1/rotator/stop', junk)).status, 200, `a stop with the body ${junk} still stops`);
    assert.equal(s.app.services.rotator.loaded, false);
  });

  it('the stop needs no token when the station is locked; goto does', async () => {
    const lock = await s.post('/api/v1/access', { locked: true, token: 'correct horse battery staple' });
    assert.equal(lock.status, 200, JSON.stringify(lock.body));
    const stop = await s.post('/api/v1/rotator/stop');
    assert.equal(stop.status, 200, JSON.stringify(stop.body));
    const g = await s.post('/api/v1/rotator/goto', { az_deg: 100, el_deg: 10 });
    assert.equal(g.status, 401);
  });
});

describe('rotator API with nothing listening', () => {
  it('a failed connect is a 502 naming the cause, and runtime.last_error keeps it', async () => {
    const s = await startServer({ now: NOW });
    try {
      const srv = createServer();
      await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
      const port = (srv.address() as AddressInfo).port;
      await new Promise((r) => srv.close(r)); // a port with nothing behind it
      assert.equal((await s.post('/api/v1/settings/rotator', { enabled: true, protocol: 'rotctld', rotctld_port: port })).status, 200);
      const c = await s.post('/api/v1/rotator/connect');
      assert.equal(c.status, 502, JSON.stringify(c.body));
      assert.equal(c.body.error.code, 'rotator_unreachable');
      const st = (await s.get('/api/v1/rotator/state')).body;
      assert.equal(st.runtime.connected, false);
      assert.match(st.runtime.last_error, /ECONNREFUSED/);
    } finally {
      await s.stop();
    }
  });
});

const haveRotctld = spawnSync('rotctld', ['--version']).status === 0;
const skipRotctld = !haveRotctld && process.env.REQUIRE_HAMLIB !== '1' ? 'rotctld (apt-get install libhamlib-utils) is not installed' : false;

describe('rotator API through Hamlib rotctld -m 1 (the default protocol)', { skip: skipRotctld }, () => {
  it('connects, reads back, moves and stops the dummy rotator', async () => {
    const port = await freePort();
    const daemon = await startRotctld(port);
    const clock = new FixedClock(Date.parse(NOW));
    const s = await startServer({ clock });
    try {
      assert.equal((await s.post('/api/v1/settings/rotator', { enabled: true, rotctld_port: port })).status, 200);
      const c = await s.post('/api/v1/rotator/connect');
      assert.equal(c.status, 200, JSON.stringify(c.body));
      assert.equal(c.body.runtime.connected, true);
      const g = await s.post('/api/v1/rotator/goto', { az_deg: 30, el_deg: 20 });
      assert.equal(g.status, 200, JSON.stringify(g.body));
      assert.equal(g.body.runtime.target_az_deg, 30);
      clock.advance(1000); // one poll reads the dummy's position back
      for (let i = 0; i < 100 && (await s.get('/api/v1/rotator/state')).body.runtime.az_deg === null; i++) await settle(10);
      const st = (await s.get('/api/v1/rotator/state')).body.runtime;
      assert.equal(typeof st.az_deg, 'number');
      assert.equal((await s.post('/api/v1/rotator/stop')).body.runtime.control_mode, 'stopped');
    } finally {
      await s.stop();
      daemon.kill();
    }
  });
});

describe('rotator API with a GS-232B controller on a pty', { skip }, () => {
  let s: TestServer;
  let pty: PtyPair;
  let sim: RotatorSim;
  const clock = new FixedClock(Date.parse(NOW));
  /** Moves the shared clock in 1 s steps, waiting (real time) for each poll's serial round trip. */
  const run = async (seconds: number) => {
    for (let i = 0; i < seconds; i++) {
      clock.advance(1000);
      const at = new Date(clock.now()).toISOString();
      for (let k = 0; k < 100 && s.app.services.rotator.runtime().connected && s.app.services.rotator.runtime().last_poll_at !== at; k++) await settle(5);
      await settle(5);
    }
  };
  before(async () => {
    pty = await openPtyPair();
    sim = new RotatorSim({ protocol: 'gs232b', az_rate_deg_s: 6, el_rate_deg_s: 3, start: { az_deg: 0, el_deg: 0 }, now: () => clock.now() });
    await sim.open(pty.rigPath, 9600);
    s = await startServer({ clock, app: { rotatorTimeouts: { reply_ms: 400 } } });
    const set = await s.post('/api/v1/settings/rotator', { enabled: true, protocol: 'gs232b', serial_device: pty.ctlPath, baud_rate: 9600, park_az_deg: 180, park_el_deg: 0 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
  });
  after(async () => {
    await s?.stop();
    await sim?.close();
    await pty?.close();
  });

  it('loads when enabled, connects, reads the position back', async () => {
    for (let i = 0; i < 50 && !s.app.services.rotator.loaded; i++) await settle(10);
    assert.equal(s.app.services.rotator.loaded, true);
    const c = await s.post('/api/v1/rotator/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.runtime.connected, true);
    await run(1);
    const st = (await s.get('/api/v1/rotator/state')).body;
    assert.equal(st.runtime.az_deg, 0);
    assert.equal(st.runtime.el_deg, 0);
    assert.ok(st.runtime.last_poll_at);
  });

  it('goto moves the antenna at the controller’s slew rate; stop halts it at once', async () => {
    const g = await s.post('/api/v1/rotator/goto', { az_deg: 60, el_deg: 30 });
    assert.equal(g.status, 200, JSON.stringify(g.body));
    assert.equal(g.body.runtime.control_mode, 'manual');
    assert.equal(g.body.runtime.target_az_deg, 60);
    await run(3);
    const mid = (await s.get('/api/v1/rotator/state')).body.runtime;
    assert.ok(mid.az_deg > 0 && mid.az_deg < 60, `6°/s: ${mid.az_deg}`);
    assert.equal(mid.moving, true);
    const stop = await s.post('/api/v1/rotator/stop');
    assert.equal(stop.body.runtime.control_mode, 'stopped');
    await settle(150); // the S on its way through the pty (GS-232 does not answer a stop)
    const at = sim.position();
    await run(3);
    assert.deepEqual(sim.position().az_deg, at.az_deg, 'no motion after the stop');
  });

  it('tracks a whole pass: preposition at the AOS azimuth, inside the deadband once caught up, parks after LOS', async () => {
    const [p] = await s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 24, min_max_el_deg: 10, sat_ids: ['iss'], include_ongoing: false });
    assert.ok(p, 'an ISS pass');
    const aos = p.aos_ms;
    const los = p.los_ms;
    clock.set(aos - 100_000);
    await settle();
    const t = await s.post('/api/v1/rotator/track/start', { sat_id: 'iss' });
    assert.equal(t.status, 200, JSON.stringify(t.body));
    assert.equal(t.body.runtime.control_mode, 'tracking');
    assert.equal(t.body.plan.sat_id, 'iss');
    assert.equal(t.body.plan.aos, new Date(aos).toISOString());
    const goto = await s.post('/api/v1/rotator/goto', { az_deg: 10, el_deg: 10 });
    assert.equal(goto.status, 409);
    assert.equal(goto.body.error.code, 'rotator_tracking');
    await run(90); // prepositioning
    const pre = (await s.get('/api/v1/rotator/state')).body;
    assert.ok(Math.abs(sim.position().az_deg - pre.plan.preposition_az_deg) < 3, `at the AOS azimuth before AOS: ${sim.position().az_deg} vs ${pre.plan.preposition_az_deg}`);
    let worst = 0;
    let commandsBefore = sim.commands.filter((c) => c.kind === 'goto').length;
    const passS = Math.floor((los - clock.now()) / 1000);
    for (let i = 0; i < passS; i++) {
      await run(1);
      const sat = s.app.services.orbit.sample('iss', clock.now());
      const rt = (await s.get('/api/v1/rotator/state')).body.runtime;
      if (sat && sat.el_deg < 80 && clock.now() - aos > 60_000) worst = Math.max(worst, Math.abs((((rt.az_deg - sat.az_deg) % 360) + 540) % 360 - 180));
    }
    const gotos = sim.commands.filter((c) => c.kind === 'goto').length - commandsBefore;
    assert.ok(gotos <= Math.ceil(passS) + 2, `at most one command per update interval: ${gotos} in ${passS} s`);
    assert.ok(sim.commands.every((c) => c.kind !== 'goto' || !c.beyond_stop), 'no command beyond the stops');
    assert.ok(worst <= 2 + 1 + 6, `pointing error once caught up ${worst.toFixed(1)}° (deadband + 1°, plus one poll of 6°/s)`);
    await run(60);
    const end = (await s.get('/api/v1/rotator/state')).body;
    assert.equal(end.runtime.active_sat_id, null);
    assert.equal(end.plan, null);
    assert.ok(Math.abs(sim.position().az_deg - 180) < 3, `parked at 180°: ${sim.position().az_deg}`);
    commandsBefore = 0;
  });

  it('a silent controller: last_error set, the service keeps serving, and it recovers', async () => {
    sim.faults.silent = true;
    for (let i = 0; i < 8; i++) {
      clock.advance(1000);
      await settle(30);
      clock.advance(500); // the reply timeout runs on the same clock
      await settle(30);
    }
    const st = (await s.get('/api/v1/rotator/state')).body;
    assert.match(st.runtime.last_error ?? '', /did not answer|reconnecting/);
    assert.equal((await s.get('/health')).status, 200);
    sim.faults.silent = false;
    for (let i = 0; i < 40 && !(await s.get('/api/v1/rotator/state')).body.runtime.connected; i++) {
      clock.advance(2000);
      await settle(40);
    }
    const back = (await s.get('/api/v1/rotator/state')).body;
    assert.equal(back.runtime.connected, true, JSON.stringify(back.runtime));
  });
});
