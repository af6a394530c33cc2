import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, type TestServer } from '../helpers/server.js';
import { UPLINK_RIG_START } from '../../ui/components/settings/rig-fields.js';

// Before any radio is connected, runtime.legs names each side's radio from the settings alone:
// while radio control is not loaded (a first GET may come before its code has), once it is, and
// as the uplink radio is set, changed and taken away. A page opened then must not name the
// downlink radio on the uplink side.

describe('each side names its radio before connecting', () => {
  let s: TestServer;
  const legs = async () => {
    const rt = (await s.get('/api/v1/radio/state')).body.runtime;
    return [rt.legs.downlink.rig, rt.legs.uplink.rig, rt.legs.uplink.connected];
  };
  const up = (rig_model: string, serial_device = '/dev/ttyUSB1') => ({ ...UPLINK_RIG_START, rig_model, serial_device, baud_rate: 9600 });

  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s.stop();
  });

  it('radio control not loaded: the settings name each side', async () => {
    const r = await s.post('/api/v1/settings/radio', { enabled: false, rig_model: 'rigA', serial_device: '/dev/ttyUSB0', uplink_rig: up('ft818') });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(s.app.services.radio.loaded, false);
    assert.deepEqual(await legs(), ['IC-705', 'FT-818', false]);
  });

  it('loaded and not connected: each side follows the settings', async () => {
    // Loaded with one radio, so its connection is one radio's until the next connect.
    assert.equal((await s.post('/api/v1/settings/radio', { enabled: true, uplink_rig: null })).status, 200);
    await s.app.services.radio.engine();
    assert.deepEqual(await legs(), ['IC-705', 'IC-705', false]);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: up('ft818') })).status, 200);
    assert.deepEqual(await legs(), ['IC-705', 'FT-818', false]);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: { rig_model: 'rigB', baud_rate: 115200 } })).status, 200);
    assert.deepEqual(await legs(), ['IC-705', 'IC-9700', false]);
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: null })).status, 200);
    assert.deepEqual(await legs(), ['IC-705', 'IC-705', false], 'one radio carries both sides');
    assert.equal((await s.post('/api/v1/settings/radio', { uplink_rig: up('ft817') })).status, 200);
    assert.deepEqual(await legs(), ['IC-705', 'FT-817', false]);
  });
});
