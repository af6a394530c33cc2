import assert from 'node:assert/strict';
import { request } from 'node:http';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { parseResponses, portOf, rawExchange } from './raw.js';

// Cross-site requests and DNS rebinding against the real server: requests with the Host, Origin
// and Sec-Fetch-Site headers a hostile page's browser would send (node:http lets us set Host).

interface Answer {
  status: number;
  body: any;
  headers: Record<string, string | string[] | undefined>;
}

function send(base: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* a page or an empty body */
        }
        resolve({ status: res.statusCode!, body: parsed, headers: res.headers });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const EVIL = 'http://evil.example';
const snapshotCount = async (s: TestServer) => (await s.get('/api/v1/snapshots')).body.items.length as number;

describe('DNS rebinding: only names the station knows itself by are served', () => {
  let s: TestServer;
  let port: number;
  before(async () => {
    s = await startServer({ config: { allowedHosts: ['station.lan', '.hamclub.org'] } });
    port = portOf(s.base);
  });
  after(() => s.stop());

  it('another Host gets a JSON 403 that says how to allow it, on API reads, pages, assets and writes', async () => {
    const before = await snapshotCount(s);
    for (const [method, path] of [['GET', '/api/v1/location'], ['GET', '/health'], ['GET', '/'], ['GET', '/docs'], ['GET', '/favicon.ico'], ['POST', '/api/v1/snapshots/record'], ['GET', '/api/v1/nope']]) {
      const r = await send(s.base, method, path, { host: `attacker.example:${port}` }, method === 'POST' ? '{}' : undefined);
      assert.equal(r.status, 403, `${method} ${path}`);
      assert.match(String(r.headers['content-type']), /application\/json/);
      assert.equal(r.body.error.code, 'host_not_allowed', `${method} ${path}`);
      assert.match(r.body.error.message, /ALLOWED_HOSTS/);
      assert.match(r.body.error.message, /attacker\.example/);
      assert.deepEqual(r.body.error.details, { host: `attacker.example:${port}`, setting: 'ALLOWED_HOSTS' });
    }
    assert.equal(await snapshotCount(s), before, 'the refused POST recorded nothing');
  });

  it('IP literals, localhost, the machine name, <name>.local and ALLOWED_HOSTS names are served', async () => {
    const own = hostname().toLowerCase();
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`, own, `${own}.local:${port}`, `station.lan:${port}`, 'sat.hamclub.org']) {
      const r = await send(s.base, 'GET', '/health', { host });
      assert.equal(r.status, 200, host);
    }
  });

  it('HEAD with a refused Host: the 403 headers, no body', async () => {
    const payload = `HEAD /health HTTP/1.1\r\nHost: attacker.example\r\n\r\nGET /health HTTP/1.1\r\nHost: attacker.example\r\n\r\n`;
    const r = await rawExchange(port, payload, { untilResponses: 2, heads: [true, false] });
    const [h, g] = parseResponses(r.text, [true, false]);
    assert.equal(h.status, 403);
    assert.equal(h.body, '');
    assert.deepEqual(h.headers['content-length'], [String(Buffer.byteLength(g.body))]);
  });
});

describe('Cross-site requests: state changes only from the station’s own origin', () => {
  let s: TestServer;
  let port: number;
  before(async () => {
    s = await startServer();
    port = portOf(s.base);
  });
  after(() => s.stop());

  it('a bodiless no-cors POST from another site is refused with a JSON 403 and changes nothing', async () => {
    const before = await snapshotCount(s);
    const hostile: Record<string, string>[] = [{ origin: EVIL }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }, { origin: `http://localhost:${port}`, 'sec-fetch-site': 'cross-site' }];
    for (const headers of hostile) {
      const r = await send(s.base, 'POST', '/api/v1/snapshots/record', headers);
      assert.equal(r.status, 403, JSON.stringify(headers));
      assert.equal(r.body.error.code, 'cross_origin_refused');
      assert.match(r.body.error.message, /POST \/api\/v1\/snapshots\/record refused/);
    }
    for (const path of ['/api/v1/radio/connect', '/api/v1/radio/session/start', '/api/v1/aprs/connect', '/api/v1/datasets/refresh', '/api/v1/aprs/send/message', '/api/v1/access/login']) {
      const r = await send(s.base, 'POST', path, { origin: EVIL });
      assert.equal(r.status, 403, path);
      assert.equal(r.body.error.code, 'cross_origin_refused', path);
    }
    assert.equal(await snapshotCount(s), before);
  });

  it('the station’s own origin, and clients that send no Origin, go on', async () => {
    const before = await snapshotCount(s);
    const same = await send(s.base, 'POST', '/api/v1/snapshots/record', { origin: s.base, 'sec-fetch-site': 'same-origin' });
    assert.equal(same.status, 200, JSON.stringify(same.body));
    const local = await send(s.base, 'POST', '/api/v1/snapshots/record', { host: `localhost:${port}`, origin: `http://localhost:${port}` });
    assert.equal(local.status, 200, JSON.stringify(local.body));
    const curl = await send(s.base, 'POST', '/api/v1/snapshots/record', {});
    assert.equal(curl.status, 200);
    assert.equal(await snapshotCount(s), before + 3);
  });

  it('is refused before the body is read: the answer comes while the body is still owed', async () => {
    // Headers promise 1000 bytes that never come: only a refusal made from the headers can answer.
    const payload = `POST /api/v1/settings/gps HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${EVIL}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"baud`;
    const r = await rawExchange(port, payload, { untilResponses: 1, maxMs: 2000 });
    const [res] = parseResponses(r.text, [], true);
    assert.equal(res?.status, 403, r.text);
    assert.equal(JSON.parse(res.body).error.code, 'cross_origin_refused');
  });

  it('a refused POST with a body keeps the connection usable for the next request', async () => {
    const body = '{"baud_rate":4800}';
    const payload =
      `POST /api/v1/settings/gps HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${EVIL}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}` +
      `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;
    const r = await rawExchange(port, payload, { untilResponses: 2 });
    assert.deepEqual(parseResponses(r.text).map((x) => x.status), [403, 200]);
  });

  it('stops are accepted from anywhere: APRS emergency stop with a hostile Origin and Host', async () => {
    const r = await send(s.base, 'POST', '/api/v1/aprs/emergency-stop', { origin: EVIL, 'sec-fetch-site': 'cross-site', host: 'attacker.example' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.ok, true);
  });

  it('reads from another origin are not refused (the same-origin policy keeps their answers from the page)', async () => {
    const r = await send(s.base, 'GET', '/api/v1/location', { origin: EVIL, 'sec-fetch-site': 'cross-site' });
    assert.equal(r.status, 200);
  });

  it('the same gate holds on a locked station: a valid token does not make a cross-site POST acceptable', async () => {
    const TOKEN = 'correct-horse-battery';
    assert.equal((await s.post('/api/v1/access', { locked: true, token: TOKEN })).status, 200);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const refused = await send(s.base, 'POST', '/api/v1/snapshots/record', { ...auth, origin: EVIL });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'cross_origin_refused');
    const noToken = await send(s.base, 'POST', '/api/v1/snapshots/record', { origin: EVIL });
    assert.equal(noToken.body.error.code, 'cross_origin_refused', 'refused before the lock is even asked');
    assert.equal((await send(s.base, 'POST', '/api/v1/snapshots/record', { ...auth, origin: s.base })).status, 200);
    assert.equal((await send(s.base, 'POST', '/api/v1/snapshots/record', auth)).status, 200);
    assert.equal((await send(s.base, 'POST', '/api/v1/aprs/emergency-stop', { origin: EVIL })).status, 200, 'stop needs neither token nor origin');
    assert.equal((await send(s.base, 'POST', '/api/v1/access', { ...auth, origin: s.base }, '{"locked":false}')).status, 200);
  });
});
