import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { CivRigSim } from '../../sims/civ-rig.js';
import { IcomLanSim } from '../../sims/icom-lan-sim.js';
import { startServer, tmpDataDir, type TestServer } from '../../helpers/server.js';
import { LAN_PASS, LAN_USER, TEST_LAN_TIMINGS } from './lan-fixture.js';
import { until } from '../rig-fixture.js';

// Radio settings saved with transport wifi and auto_connect on: the next boot of the service
// connects to the radio over its LAN session by itself, as it does for a USB rig.

describe('radio auto_connect over Wi-Fi at boot', () => {
  let rig: CivRigSim;
  let lan: IcomLanSim;
  let dataDir: string;
  let s: TestServer | null = null;
  const boot = () => startServer({ dataDir, app: { lan: { preflightTimeoutMs: 600, timings: TEST_LAN_TIMINGS } } });
  before(async () => {
    rig = new CivRigSim({ kind: 'IC-705' });
    lan = new IcomLanSim({ rig, username: LAN_USER, password: LAN_PASS });
    await lan.start();
    dataDir = tmpDataDir();
  });
  after(async () => {
    await s?.stop();
    await lan.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('connects to the emulated IC-705 on start, with no serial device set', async () => {
    rig.state.vfoA.freq = 145_825_000;
    const first = await boot();
    const set = await first.post('/api/v1/settings/radio', {
      enabled: true,
      auto_connect: true,
      rig_model: 'rigA',
      civ_address: '0xA4',
      transport: 'wifi',
      serial_device: '',
      wifi_host: '127.0.0.1',
      wifi_control_port: lan.controlPort,
      wifi_username: LAN_USER,
      wifi_password: LAN_PASS,
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal((await first.get('/api/v1/radio/state')).body.runtime.connected, false, 'saving does not connect');
    await first.stop({ keepData: true });

    s = await boot();
    await until(async () => (await s!.get('/api/v1/radio/state')).body.runtime.connected === true, 'connected at boot', 8000);
    assert.equal(lan.clientConnected, true, 'the radio holds our LAN session');
    const p = await s.post('/api/v1/radio/poll');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.runtime.targets.vfo_a_freq_hz, 145_825_000);
  });
});
