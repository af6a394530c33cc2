import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { startServer, type TestServer } from '../../helpers/server.js';
import { rigctldSkip } from './rigctld-peer.js';
import { rigctldPids } from './processes.js';
import { until } from '../rig-fixture.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { YaesuCatSim } from '../../sims/yaesu-cat-rig.js';
import { systemClock } from '../../../src/util/clock.js';

// Hamlib over the real server: GET /api/v1/radio/hamlib-models (satellite radios first; no
// Hamlib, no list and a note saying what to install), the radio settings' 400 for a model Hamlib
// does not know, and a radio driven through the station's own rigctld: connect, a pair on the
// simulator, rigctld killed and brought back by the reconnect loop, nothing left after disconnect.

const haveRigctl = spawnSync('rigctl', ['--version']).status === 0;
const skipList = !haveRigctl && process.env.REQUIRE_HAMLIB !== '1' ? 'rigctl (apt-get install libhamlib-utils) is not installed; set REQUIRE_HAMLIB=1 to make this a failure' : false;

/** Runs fn with a PATH where no Hamlib program is found (the server runs in this process). */
async function withoutHamlib<T>(fn: () => Promise<T>): Promise<T> {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    return await fn();
  } finally {
    process.env.PATH = path;
  }
}

const uplink = (o: Record<string, unknown>) => ({
  rig_model: 'hamlib', transport: 'usb', serial_device: '/dev/ttyUSB1', baud_rate: 9600, civ_address: '0xA4', hamlib_model: 1020, hamlib_address: '',
  wifi_host: '', wifi_username: '', wifi_password: '', wifi_control_port: 50001, ...o,
});

describe('Hamlib model list and the radio settings’ model check, over the server', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s?.stop();
  });

  it('without Hamlib: no list, a note saying what to install, and any model is taken', async () => {
    const r = await withoutHamlib(() => s.get('/api/v1/radio/hamlib-models'));
    assert.equal(r.status, 200);
    assert.deepEqual(r.body, { available: false, note: 'Hamlib is not installed on this station: install libhamlib-utils (sudo apt-get install libhamlib-utils)', items: [] });
    const set = await withoutHamlib(() => s.post('/api/v1/settings/radio', { rig_model: 'hamlib', hamlib_model: 999999, serial_device: '/dev/ttyUSB0', baud_rate: 9600 }));
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.state.hamlib_model, 999999);
    await s.post('/api/v1/settings/radio', { rig_model: 'rigA', hamlib_model: 0 });
  });

  it("lists Hamlib's models, satellite radios first, each with its number, maker, name and status", { skip: skipList }, async () => {
    const r = await s.get('/api/v1/radio/hamlib-models');
    assert.equal(r.status, 200);
    assert.equal(r.body.available, true);
    assert.equal(r.body.note, null);
    assert.deepEqual(r.body.items[0], { model: 3081, manufacturer: 'Icom', name: 'IC-9700', status: r.body.items[0].status, satellite: true });
    const ft817 = r.body.items.find((m: { model: number }) => m.model === 1020);
    assert.deepEqual(ft817, { model: 1020, manufacturer: 'Yaesu', name: 'FT-817', status: 'Stable', satellite: true });
    const firstOther = r.body.items.findIndex((m: { satellite: boolean }) => !m.satellite);
    assert.ok(firstOther > 10 && r.body.items.slice(firstOther).every((m: { satellite: boolean }) => !m.satellite));
    assert.ok(r.body.items.length > 200);
  });

  it('a Hamlib model the list lacks is a 400 naming the field, for either radio; a known one, model 0 or an external rigctld is taken', { skip: skipList }, async () => {
    const bad = await s.post('/api/v1/settings/radio', { rig_model: 'hamlib', hamlib_model: 999999, serial_device: '/dev/ttyUSB0', baud_rate: 9600 });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'unknown_hamlib_model');
    assert.deepEqual(bad.body.error.details, { field: 'hamlib_model' });
    assert.match(bad.body.error.message, /no rig model 999999/);
    for (const body of [{ hamlib_model: 1020 }, { hamlib_model: 0 }, { hamlib_model: 999999, hamlib_address: '127.0.0.1:4532' }]) {
      const ok = await s.post('/api/v1/settings/radio', { rig_model: 'hamlib', serial_device: '/dev/ttyUSB0', baud_rate: 9600, hamlib_address: '', ...body });
      assert.equal(ok.status, 200, JSON.stringify([body, ok.body]));
    }
    await s.post('/api/v1/settings/radio', { rig_model: 'rigA', hamlib_model: 0, hamlib_address: '' });
    const up = await s.post('/api/v1/settings/radio', { uplink_rig: uplink({ hamlib_model: 424242 }) });
    assert.equal(up.status, 400);
    assert.deepEqual([up.body.error.code, up.body.error.details], ['unknown_hamlib_model', { field: 'uplink_rig.hamlib_model' }]);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: uplink({ hamlib_model: 1041 }) })).status, 200);
    await s.post('/api/v1/settings/radio', { uplink_rig: null });
  });
});

const skipRig = rigctldSkip || (spawnSync('socat', ['-V']).status !== 0 && process.env.REQUIRE_HAMLIB !== '1' ? 'socat is not installed' : false);

describe('a radio through the station’s own rigctld, over the server', { skip: skipRig }, () => {
  let s: TestServer;
  let pty: PtyPair;
  let sim: YaesuCatSim;
  before(async () => {
    pty = await openPtyPair();
    sim = new YaesuCatSim({ model: 'FT-818' });
    await sim.open(pty.rigPath, 9600);
    s = await startServer({ clock: systemClock });
  });
  after(async () => {
    await s?.stop();
    await sim?.close();
    await pty?.close();
  });

  const runtime = async () => (await s.get('/api/v1/radio/state')).body.runtime;

  it('connects, writes a pair to the simulator, is brought back after rigctld is killed, and leaves no rigctld on disconnect', async () => {
    const set = await s.post('/api/v1/settings/radio', { enabled: true, rig_model: 'hamlib', hamlib_model: 1041, serial_device: pty.ctlPath, baud_rate: 9600, poll_interval_ms: 500 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const c = await s.post('/api/v1/radio/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.runtime.connected, true);
    assert.equal(c.body.runtime.capabilities.radio, 'Hamlib 1041 FT-818');
    assert.equal(c.body.runtime.legs.downlink.rig, 'Hamlib 1041 FT-818');
    const pair = await s.post('/api/v1/radio/pair', { uplink_hz: 435_300_000, downlink_hz: 145_900_000, uplink_mode: 'LSB', downlink_mode: 'USB' });
    assert.equal(pair.status, 200, JSON.stringify(pair.body));
    assert.deepEqual([sim.state.vfoA.freq, sim.state.vfoA.mode, sim.state.vfoB.freq, sim.state.vfoB.mode, sim.state.split], [145_900_000, 'USB', 435_300_000, 'LSB', true]);

    const [pid] = rigctldPids(pty.ctlPath);
    assert.ok(pid, 'the station runs rigctld for the radio');
    process.kill(pid, 'SIGKILL');
    await until(async () => !(await runtime()).connected, 'the rig to be seen lost', 10_000);
    assert.match((await runtime()).last_error, /rigctld killed by SIGKILL; reconnecting/);
    await until(async () => (await runtime()).connected, 'the reconnect loop to bring the rig back', 15_000);
    const [again] = rigctldPids(pty.ctlPath);
    assert.ok(again && again !== pid, 'a new rigctld');
    const poll = await s.post('/api/v1/radio/poll');
    assert.equal(poll.status, 200, JSON.stringify(poll.body));
    assert.deepEqual([poll.body.runtime.targets.vfo_a_freq_hz, poll.body.runtime.targets.vfo_b_freq_hz], [145_900_000, 435_300_000]);

    await s.post('/api/v1/radio/disconnect');
    await until(() => rigctldPids(pty.ctlPath).length === 0, 'rigctld to end on disconnect', 5000);
  });
});
