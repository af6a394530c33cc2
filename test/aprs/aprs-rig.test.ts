import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rigFixture, type RigFixture } from '../radio/rig-fixture.js';
import { FakeKissTnc, until } from './aprs-fixture.js';

// The APRS station beside a connected rig (the CI-V simulator on a pty): one owner per serial
// device, and the emergency stop dropping the rig's PTT over CI-V.

describe('APRS with the rig connected', () => {
  let f: RigFixture;
  let tnc: FakeKissTnc;
  before(async () => {
    f = await rigFixture();
    tnc = new FakeKissTnc();
    await tnc.listen();
  });
  after(async () => {
    await f.stop();
    await tnc.close();
  });

  it('refuses a TNC whose CAT PTT would open the device the radio controller holds', async () => {
    const dev = (await f.s.get('/api/v1/settings/radio')).body.state.serial_device;
    await f.s.post('/api/v1/settings/aprs', { callsign: 'G4ABC', listen_only: false, kiss_host: '', ptt_method: 'cat', serial_device: dev, tnc_binary: 'direwolf' });
    const r = await f.s.post('/api/v1/aprs/connect');
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'device_busy');
    assert.match(r.body.error.message, /radio controller/);
    const st = (await f.s.get('/api/v1/aprs/state')).body.runtime;
    assert.equal(st.connected, false);
  });

  it('emergency stop drops the rig PTT over CI-V and blocks sends', async () => {
    await f.s.post('/api/v1/settings/aprs', { kiss_host: '127.0.0.1', kiss_port: tnc.port });
    const c = await f.s.post('/api/v1/aprs/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    await until(() => tnc.connections === 1, 'the TNC link');
    f.sim.state.transmitting = true; // stuck keyed after a failed send
    const r = await f.s.post('/api/v1/aprs/emergency-stop');
    assert.equal(r.status, 200);
    assert.equal(r.body.rig_ptt_dropped, true);
    assert.equal(f.sim.state.transmitting, false);
    assert.equal(r.body.runtime.connected, false);
    const send = await f.s.post('/api/v1/aprs/send/status', { text: 'x' });
    assert.equal(send.body.sent, false);
    assert.match(send.body.tx_block_reason, /emergency stop/);
  });
});
