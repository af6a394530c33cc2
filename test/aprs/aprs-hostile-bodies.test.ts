import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// Nothing a client can send to an APRS route answers 500: every POST under /api/v1/aprs (listed
// from the live /docs, so a new route is swept too) gets bodies of the wrong JSON type and nested
// junk, over HTTP to the real server. An incomplete station configuration is a 409 that names the
// setting, not an internal error.

const HOSTILE: string[] = [
  '[]',
  'null',
  '"a string"',
  '42',
  'true',
  '1e999',
  '[{"sat_id":"iss"}]',
  '{"a":{"b":[null,{"c":"\\u0000"}]}}',
  '{"to":[],"text":{}}',
  '{"text":["x"],"comment":{"y":1}}',
  '{"sat_id":null,"channel_id":[]}',
  '{"operating_mode":{"x":1},"sat_id":7}',
  '{"callsign":{"x":1},"ssid":"7"}',
  '{"callsign":"G4ABC","ssid":1e999}',
  '{"age_bucket":5}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  JSON.stringify({ deep: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) }),
];

describe('APRS routes with hostile bodies', () => {
  let s: TestServer;
  let paths: string[];
  before(async () => {
    // tnc_binary points nowhere, so no route can start a real program; the settings are otherwise an
    // operator's first try at transmitting: PTT over CAT with no serial device chosen.
    s = await startServer();
    const set = await s.post('/api/v1/settings/aprs', { callsign: 'G4ABC', ssid: 7, listen_only: false, ptt_method: 'cat', serial_device: '', tnc_binary: 'no-such-tnc-binary' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const docs = await s.get('/docs', { accept: 'application/json' });
    paths = Object.entries(docs.body.paths as Record<string, Record<string, unknown>>)
      .filter(([p, ops]) => p.startsWith('/api/v1/aprs/') && 'post' in ops)
      .map(([p]) => p);
  });
  after(() => s?.stop());

  it('lists the APRS POST routes', () => {
    for (const p of ['/api/v1/aprs/connect', '/api/v1/aprs/disconnect', '/api/v1/aprs/emergency-stop', '/api/v1/aprs/send/message', '/api/v1/aprs/select-target'])
      assert.ok(paths.includes(p), `${p} in /docs`);
  });

  it('answers every hostile body with a JSON 4xx (or a harmless 200), never 500', async () => {
    const bad: string[] = [];
    for (const p of paths) {
      for (const body of HOSTILE) {
        const r = await s.post(p, body);
        const short = body.length > 60 ? body.slice(0, 60) + '…' : body;
        if (r.status >= 500) bad.push(`${p} ${short} → ${r.status} ${JSON.stringify(r.body)}`);
        else if (r.status >= 400 && typeof r.body?.error?.code !== 'string') bad.push(`${p} ${short} → ${r.status} without a JSON error`);
        // Only the emergency stop may act on a body it ignores: stopping is always allowed.
        else if (r.status === 200 && p !== '/api/v1/aprs/emergency-stop' && p !== '/api/v1/aprs/disconnect') bad.push(`${p} ${short} → 200`);
      }
    }
    assert.deepEqual(bad, []);
    const health = await s.get('/health');
    assert.equal(health.status, 200, 'the service keeps serving');
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('a body that is not an object is a 400 naming the root', async () => {
    for (const body of ['[]', 'null', '"x"', '5']) {
      const r = await s.post('/api/v1/aprs/connect', body);
      assert.equal(r.status, 400, `${body}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'validation_failed');
      assert.equal(r.body.error.details.fields[0].field, '(root)');
    }
  });

  it('connect with PTT over CAT and no serial device: 409 aprs_config_incomplete naming serial_device', async () => {
    const r = await s.post('/api/v1/aprs/connect', {});
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'aprs_config_incomplete');
    assert.equal(r.body.error.details.field, 'serial_device');
    assert.match(r.body.error.message, /serial device/i);
    assert.match(r.body.error.message, /\/settings/);
    const st = await s.get('/api/v1/aprs/state');
    assert.equal(st.body.runtime.connected, false);
    assert.match(st.body.runtime.last_error, /serial device/i);
  });

  it('connect with PTT on RTS and no PTT device: 409 naming ptt_device', async () => {
    const set = await s.post('/api/v1/settings/aprs', { ptt_method: 'rts', ptt_device: '' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const r = await s.post('/api/v1/aprs/connect', {});
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'aprs_config_incomplete');
    assert.equal(r.body.error.details.field, 'ptt_device');
    await s.post('/api/v1/settings/aprs', { ptt_method: 'cat' });
  });
});
