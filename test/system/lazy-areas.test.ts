import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { EnabledArea } from '../../src/util/enabled-area.js';

// Radio control, the LAN transport and the APRS station load when first enabled or used, not at
// boot (issue 24, src/util/lazy-part.ts). Until then every read answers what a loaded but idle
// area answers, so the API cannot tell the difference; acting on an area loads it.

const NOW = '2026-08-22T12:00:00Z';

describe('areas not enabled are not loaded', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: NOW });
  });
  after(async () => {
    await s?.stop();
  });

  it('boots with radio control, the LAN transport and the APRS station unloaded, and reading them loads nothing', async () => {
    const { radio, aprs } = s.app.services;
    for (const path of ['/api/v1/radio/state', '/api/v1/radio/session', '/api/v1/aprs/state', '/api/v1/rotator/state', '/api/v1/aprs/targets', '/api/v1/system/state', '/api/v1/lite/snapshot']) {
      const r = await s.get(path);
      assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
    }
    assert.equal(radio.loaded, false, 'radio control loaded by a read');
    assert.equal(aprs.loaded, false, 'the APRS station loaded by a read');
    assert.equal(s.app.lanLoaded, false, 'the LAN transport loaded');
    assert.equal(s.app.services.rotator.loaded, false, 'the rotator loaded by a read');
    assert.equal(s.app.services.hamlib.loaded, false, 'the Hamlib servers loaded by a read');
  });

  it('radio, rotator, Hamlib and logbook are each one EnabledArea (one mechanism, not four copies of it)', () => {
    const { radio, rotator, hamlib, logbook } = s.app.services;
    for (const area of [radio, rotator, hamlib, logbook]) {
      assert.ok(area instanceof EnabledArea, `${area.name} does not load through EnabledArea`);
      assert.equal(area.loaded, false, `${area.name} loaded at boot`);
    }
  });

  it('a connect refused because radio control is off loads nothing', async () => {
    const r = await s.post('/api/v1/radio/connect');
    assert.equal(r.status, 409);
    assert.equal(r.body.error.code, 'radio_disabled');
    assert.equal(s.app.services.radio.loaded, false);
  });

  it('the APRS emergency stop answers and loads nothing', async () => {
    const r = await s.post('/api/v1/aprs/emergency-stop');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.runtime.emergency_stopped, true);
    assert.equal(r.body.runtime.modem_state, 'stopped (emergency stop)');
    assert.equal(s.app.services.aprs.loaded, false);
    assert.equal(s.app.services.hamlib.loaded, false, 'the emergency stop loaded the Hamlib servers');
  });

  it('Hamlib settings change without loading the servers until one is enabled; disabling closes the listener', async () => {
    const off = await s.post('/api/v1/settings/hamlib', { rigctld_port: 4600, allow_ptt: false });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    assert.equal(s.app.services.hamlib.loaded, false);
    assert.deepEqual((await s.get('/api/v1/system/state')).body.hamlibRuntime, { rigctld_listening: false, rotctld_listening: false, clients: 0, connections: [], last_error: null });
  });

  it('the radio answers the same before and after it loads', async () => {
    const before = (await s.get('/api/v1/radio/state')).body;
    assert.equal(s.app.services.radio.loaded, false);
    await s.app.services.radio.engine();
    assert.equal(s.app.services.radio.loaded, true);
    const after = (await s.get('/api/v1/radio/state')).body;
    assert.deepEqual(after, before);
  });

  it('the APRS station answers the same before and after it loads (a send loads it, and is refused: not connected)', async () => {
    const before = (await s.get('/api/v1/aprs/state')).body;
    const sent = await s.post('/api/v1/aprs/send/status', { text: 'test' });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.equal(sent.body.sent, false);
    assert.match(sent.body.tx_block_reason, /not connected|emergency stop/i);
    assert.equal(s.app.services.aprs.loaded, true);
    const after = (await s.get('/api/v1/aprs/state')).body;
    assert.deepEqual(after, before);
  });
});

describe('enabling an area loads it', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: NOW });
  });
  after(async () => {
    await s?.stop();
  });

  it('radio control loads when its settings enable it, without a connect', async () => {
    assert.equal(s.app.services.radio.loaded, false);
    const r = await s.post('/api/v1/settings/radio', { enabled: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    await s.app.services.radio.engine(); // the load the settings change started
    assert.equal(s.app.services.radio.loaded, true);
    assert.equal(s.app.lanLoaded, false, 'a USB rig does not load the LAN transport');
  });

  it('a radio enabled at boot is loaded at boot', async () => {
    const again = await startServer({ now: NOW, dataDir: s.dataDir });
    try {
      assert.equal(again.app.services.radio.loaded, true);
      assert.equal(again.app.services.aprs.loaded, false);
    } finally {
      await again.stop();
    }
  });

  it('the receive log loads on its first read, not the station', async () => {
    const r = await s.get('/api/v1/aprs/log');
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.items, []);
    assert.equal(s.app.services.aprs.loaded, false);
  });
});
