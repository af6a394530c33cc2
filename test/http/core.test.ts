import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { openRequests } from '../../src/util/loop-slices.js';
import { startServer, type TestServer } from '../helpers/server.js';

describe('HTTP core on uWebSockets.js', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.stop());

  it('GET /health answers ok with the injected clock', async () => {
    const r = await s.get('/health');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /application\/json/);
    assert.deepEqual(r.body, { ok: true, timestamp: '2026-08-22T12:00:00.000Z' });
  });

  it('unknown path → 404 JSON error body', async () => {
    const r = await s.get('/api/v1/nope');
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'not_found');
    assert.equal(typeof r.body.error.message, 'string');
    assert.ok('details' in r.body.error);
  });

  it('known path, wrong method → 405 with Allow', async () => {
    const r = await s.post('/health', {});
    assert.equal(r.status, 405);
    assert.equal(r.body.error.code, 'method_not_allowed');
    assert.equal(r.headers.get('allow'), 'GET');
  });

  it('trailing slash is tolerated', async () => {
    assert.equal((await s.get('/health/')).status, 200);
  });

  it('body over 64 KiB → 413', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(70 * 1024) });
    const r = await s.post('/api/v1/settings/gps', big);
    assert.equal(r.status, 413);
    assert.equal(r.body.error.code, 'payload_too_large');
  });

  it('chunked body over 64 KiB without content-length → 413', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(s.base + '/api/v1/settings/gps', { method: 'POST', headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      for (let i = 0; i < 20; i++) req.write('x'.repeat(8 * 1024));
      req.end();
    });
    assert.equal(status, 413);
    assert.equal((await s.get('/health')).status, 200);
  });

  it('non-JSON content → 415', async () => {
    const r = await s.post('/api/v1/settings/gps', 'baud_rate=4800', { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(r.status, 415);
    assert.equal(r.body.error.code, 'unsupported_media_type');
  });

  it('malformed JSON → 400', async () => {
    const r = await s.post('/api/v1/settings/gps', '{"baud_rate":', { 'content-type': 'application/json' });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'malformed_json');
  });

  it('validation failure names the field and why', async () => {
    const r = await s.post('/api/v1/settings/gps', { bluetooth_channel: 99 });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.code, 'validation_failed');
    assert.equal(r.body.error.details.fields[0].field, 'bluetooth_channel');
    assert.match(r.body.error.message, /bluetooth_channel/);
  });

  it('a body that is not a JSON object → 400 naming the root', async () => {
    for (const body of ['[1,2]', 'null', '42', '"text"']) {
      const r = await s.post('/api/v1/settings/gps', body, { 'content-type': 'application/json' });
      assert.equal(r.status, 400, body);
      assert.equal(r.body.error.details.fields[0].field, '(root)');
    }
  });

  it('a client that aborts mid-body does not crash or leak', async () => {
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const req = request(s.base + '/api/v1/settings/gps', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '5000' } });
        req.on('error', () => resolve());
        req.write('{"connection_mode":');
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 20);
      });
    }
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await s.get('/health')).status, 200);
    // Abandoned requests are not counted as open (background work waits while one is).
    assert.equal(openRequests(), 0);
  });
});
