import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../../helpers/server.js';

// The Wi-Fi transport's settings: selected per resource, validated, and the rig's LAN password
// (it can key the transmitter) is write-only in every answer and owner-only on disk.

describe('Wi-Fi transport settings', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ app: { lan: { preflightTimeoutMs: 300 } } });
  });
  after(() => s.stop());

  it('defaults to USB with the radio’s factory control port', async () => {
    const r = (await s.get('/api/v1/settings/radio')).body.state;
    assert.equal(r.transport, 'usb');
    assert.equal(r.wifi_control_port, 50001);
    assert.equal(r.wifi_password, '');
  });

  it('masks a stored password everywhere and keeps it when the mask comes back', async () => {
    const w = await s.post('/api/v1/settings/radio', { transport: 'wifi', wifi_host: '192.0.2.7', wifi_username: 'ham', wifi_password: 's3cret' });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    assert.equal(w.body.state.wifi_password, '********');
    for (const [path, pick] of [
      ['/api/v1/settings/radio', (b: any) => b.state],
      ['/api/v1/radio/state', (b: any) => b.settings],
      ['/api/v1/system/state', (b: any) => b.radioSettings],
    ] as const) {
      const body = (await s.get(path)).body;
      assert.equal(pick(body).wifi_password, '********', path);
      assert.doesNotMatch(JSON.stringify(body), /s3cret/, path);
    }
    await s.post('/api/v1/settings/radio', { wifi_password: '********', wifi_username: 'ham2' });
    const file = JSON.parse(await import('node:fs').then((fs) => fs.readFileSync(join(s.dataDir, 'radio-settings.json'), 'utf8')));
    assert.equal(file.wifi_password, 's3cret', 'the mask never overwrites the stored secret');
    assert.equal(file.wifi_username, 'ham2');
    assert.equal(statSync(join(s.dataDir, 'radio-settings.json')).mode & 0o777, 0o600);
    const a = await s.post('/api/v1/settings/aprs', { wifi_password: 'aprs-pw' });
    assert.equal(a.body.state.wifi_password, '********');
    assert.doesNotMatch(JSON.stringify((await s.get('/api/v1/aprs/state')).body), /aprs-pw/);
  });

  it('refuses what cannot work: bad fields, Wi-Fi on rigB, no address', async () => {
    const bad = await s.post('/api/v1/settings/radio', { transport: 'bluetooth' });
    assert.equal(bad.status, 400);
    assert.equal((await s.post('/api/v1/settings/radio', { wifi_password: 'x'.repeat(17) })).status, 400);
    assert.equal((await s.post('/api/v1/settings/radio', { wifi_control_port: 70000 })).status, 400);
    await s.post('/api/v1/settings/radio', { enabled: true, rig_model: 'rigB', civ_address: '0xA2' });
    const b = await s.post('/api/v1/radio/connect');
    assert.equal(b.status, 400);
    assert.equal(b.body.error.code, 'transport_unsupported');
    await s.post('/api/v1/settings/radio', { rig_model: 'rigA', civ_address: '0xA4', wifi_host: '' });
    const n = await s.post('/api/v1/radio/connect');
    assert.equal(n.status, 400);
    assert.equal(n.body.error.code, 'no_wifi_host');
    await s.post('/api/v1/settings/aprs', { transport_mode: 'wifi', wifi_host: '', rig_model: 'rigA' });
    const an = await s.post('/api/v1/aprs/connect');
    assert.equal(an.status, 400);
    assert.equal(an.body.error.code, 'no_wifi_host');
  });
});
