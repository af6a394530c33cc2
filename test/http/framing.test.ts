// Keep-alive framing on the real uWebSockets.js server, checked with exact bytes on raw sockets.
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { HttpServer, type StaticAsset } from '../../src/http/server.js';
import { route } from '../../src/http/route.js';
import { AppError } from '../../src/util/errors.js';
import { setLogLevel, setLogSink } from '../../src/util/logger.js';
import { parseResponses, rawExchange, suiteServer } from './raw.js';

const GET = (p: string, extra = '') => `GET ${p} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
const HEAD = (p: string, extra = '') => `HEAD ${p} HTTP/1.1\r\nHost: localhost\r\n${extra}\r\n`;
const POST = (p: string, body: string) =>
  `POST ${p} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

describe('HTTP framing: HEAD, pipelining (real app)', () => {
  const app = suiteServer();

  it('HEAD /health sends the GET headers and Content-Length, no body, and keep-alive goes on', async () => {
    const r = await rawExchange(app.port, HEAD('/health') + GET('/health'), { untilResponses: 2, heads: [true, false] });
    const [h, g] = parseResponses(r.text, [true, false]); // throws if a HEAD body shifted the framing
    assert.equal(h.status, 200);
    assert.equal(g.status, 200);
    assert.deepEqual(JSON.parse(g.body), { ok: true, timestamp: '2026-08-22T12:00:00.000Z' });
    assert.deepEqual(h.headers['content-length'], [String(Buffer.byteLength(g.body))]);
    assert.deepEqual(h.headers['content-type'], g.headers['content-type']);
    assert.equal(r.text.slice(r.text.indexOf('\r\n\r\n') + 4).startsWith('HTTP/1.1 200 OK\r\n'), true);
  });

  it('HEAD on an error (404, 405) has the error headers and no body', async () => {
    const payload = HEAD('/api/v1/nope') + GET('/api/v1/nope') + HEAD('/api/v1/snapshots/record') + GET('/health');
    const heads = [true, false, true, false];
    const r = await rawExchange(app.port, payload, { untilResponses: 4, heads });
    const [h404, g404, h405, g] = parseResponses(r.text, heads);
    assert.equal(h404.status, 404);
    assert.equal(g404.status, 404);
    assert.deepEqual(h404.headers['content-length'], [String(Buffer.byteLength(g404.body))]);
    assert.equal(h405.status, 405);
    assert.deepEqual(h405.headers.allow, ['POST']);
    assert.ok(Number(h405.headers['content-length'][0]) > 0);
    assert.equal(g.status, 200);
  });

  it("node's keep-alive client survives HEAD then GET on one socket", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const call = (method: string) =>
      new Promise<{ status: number; body: string; len: string | undefined }>((resolve, reject) => {
        const req = request(app.s.base + '/health', { method, agent }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c) => (body += c));
          res.on('end', () => resolve({ status: res.statusCode!, body, len: res.headers['content-length'] }));
        });
        req.on('error', reject);
        req.end();
      });
    try {
      const [h, g] = await Promise.all([call('HEAD'), call('GET')]);
      assert.equal(h.status, 200);
      assert.equal(h.body, '');
      assert.equal(g.status, 200);
      assert.equal(h.len, String(Buffer.byteLength(g.body)));
    } finally {
      agent.destroy();
    }
  });

  it('a writing POST pipelined with a GET: not applied and the connection closed at once (uWS 20.30 limit)', async () => {
    // uWS 20.30 closes a connection, unanswered, when it parses a request while an earlier answer is
    // still pending; the record answer waits on fsync. We cannot answer, so we must not record either:
    // then a client's retry records exactly once. (A uWS that queues answers would give both, in order.)
    const before = (await app.s.get('/api/v1/snapshots')).body.count;
    const r = await rawExchange(app.port, POST('/api/v1/snapshots/record', '{}') + GET('/health'), { maxMs: 3000 });
    assert.equal(r.closed, true, 'connection is closed, not held');
    assert.ok(r.ms < 1000, `closed after ${r.ms} ms`);
    assert.equal(r.text, '', 'no partial answer');
    await new Promise((res) => setTimeout(res, 300)); // an applied write would have landed by now
    assert.equal((await app.s.get('/api/v1/snapshots')).body.count, before, 'the unanswered POST was not applied');

    // The retry on a fresh connection records once and is answered.
    const retry = await rawExchange(app.port, POST('/api/v1/snapshots/record', '{}'), { untilResponses: 1 });
    assert.equal(parseResponses(retry.text)[0].status, 200);
    assert.equal((await app.s.get('/api/v1/snapshots')).body.count, before + 1);
  });

  it('a writing POST then a GET on one keep-alive connection, not pipelined: both answered', async () => {
    const before = (await app.s.get('/api/v1/snapshots')).body.count;
    const { connect } = await import('node:net');
    const sock = connect(app.port, '127.0.0.1');
    let text = '';
    sock.on('data', (d) => (text += d.toString('latin1')));
    const waitFor = async (n: number) => {
      for (let i = 0; i < 300 && parseResponses(text, [], true).length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    await new Promise((r) => sock.once('connect', r));
    sock.write(POST('/api/v1/snapshots/record', '{"source":"framing"}'));
    await waitFor(1);
    sock.write(GET('/health'));
    await waitFor(2);
    sock.destroy();
    const [p, g] = parseResponses(text);
    assert.equal(p.status, 200);
    assert.equal(JSON.parse(p.body).snapshot.source, 'framing');
    assert.equal(g.status, 200);
    assert.equal((await app.s.get('/api/v1/snapshots')).body.count, before + 1);
  });

  it('pipelined requests answered without waiting on I/O all get answers, in order', async () => {
    const payload = GET('/health') + POST('/health', '{}') + GET('/api/v1/nope') + HEAD('/health') + GET('/health');
    const heads = [false, false, false, true, false];
    const r = await rawExchange(app.port, payload, { untilResponses: 5, heads });
    assert.deepEqual(
      parseResponses(r.text, heads).map((x) => x.status),
      [200, 405, 404, 200, 200],
    );
  });
});

describe('HTTP framing: assets and errors (HttpServer)', () => {
  const js = Buffer.from('console.log("satstation");\n'.repeat(40));
  const asset: StaticAsset = { body: js, gzip: gzipSync(js), contentType: 'text/javascript; charset=utf-8', cacheControl: 'public, max-age=31536000, immutable' };
  const logged: string[] = [];
  let server: HttpServer;
  let port: number;
  before(async () => {
    setLogLevel('error');
    setLogSink((line) => logged.push(line));
    server = new HttpServer({
      routes: [
        route({ method: 'GET', path: '/leak', tag: 't', summary: 'throws', handler: () => { throw new Error("ENOENT: no such file or directory, open '/var/lib/satstation/secret.json'"); } }),
        route({ method: 'GET', path: '/async-leak', tag: 't', summary: 'rejects', handler: async () => { throw new TypeError('cannot read /opt/satstation/x'); } }),
        route({ method: 'GET', path: '/teapot', tag: 't', summary: 'app error', handler: () => { throw new AppError(507, 'disk_full', 'no space left', { free: 0 }); } }),
        route({ method: 'GET', path: '/big', tag: 't', summary: 'app error', handler: () => { throw new AppError(431, 'headers_too_large', 'too many headers'); } }),
      ],
      assets: new Map([['/assets/app.js', asset]]),
    });
    port = await server.listen('127.0.0.1', 0);
  });
  after(() => {
    server.close();
    setLogLevel('silent');
  });

  it('HEAD on a static asset: Content-Length of the variant the GET would send, no body', async () => {
    const gz = 'Accept-Encoding: gzip\r\n';
    const payload = HEAD('/assets/app.js') + HEAD('/assets/app.js', gz) + GET('/assets/app.js', gz) + GET('/assets/app.js');
    const heads = [true, true, false, false];
    const r = await rawExchange(port, payload, { untilResponses: 4, heads });
    const [h, hgz, ggz, g] = parseResponses(r.text, heads);
    assert.deepEqual(h.headers['content-length'], [String(js.byteLength)]);
    assert.equal(h.headers['content-encoding'], undefined);
    assert.deepEqual(hgz.headers['content-length'], [String(asset.gzip!.byteLength)]);
    assert.deepEqual(hgz.headers['content-encoding'], ['gzip']);
    assert.deepEqual(h.headers['cache-control'], [asset.cacheControl]);
    assert.equal(Buffer.from(ggz.body, 'latin1').equals(asset.gzip!), true);
    assert.equal(g.body, js.toString('latin1'));
  });

  it('an unknown error answers a generic 500 (no paths) and is logged in full', async () => {
    for (const p of ['/leak', '/async-leak']) {
      logged.length = 0;
      const res = await fetch(`http://127.0.0.1:${port}${p}`);
      assert.equal(res.status, 500);
      assert.equal(
        await res.text(),
        '{"error":{"code":"internal_error","message":"internal error; the server log has the details","details":null}}',
      );
      assert.equal(logged.length, 1);
      assert.match(logged[0], /ERROR \[http\] handler GET \/(async-)?leak failed .*\/(var\/lib|opt)\/satstation/);
    }
  });

  it('HEAD on a 500 has no body either', async () => {
    const r = await rawExchange(port, HEAD('/leak') + GET('/leak'), { untilResponses: 2, heads: [true, false] });
    const [h, g] = parseResponses(r.text, [true, false]);
    assert.equal(h.status, 500);
    assert.deepEqual(h.headers['content-length'], [String(Buffer.byteLength(g.body))]);
  });

  it('AppError keeps its status; 507 and 431 have their reason phrases', async () => {
    const r = await rawExchange(port, GET('/teapot') + GET('/big'), { untilResponses: 2 });
    assert.match(r.text, /^HTTP\/1\.1 507 Insufficient Storage\r\n/);
    assert.match(r.text, /\r\nHTTP\/1\.1 431 Request Header Fields Too Large\r\n|}HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    const [a, b] = parseResponses(r.text);
    assert.deepEqual(JSON.parse(a.body), { error: { code: 'disk_full', message: 'no space left', details: { free: 0 } } });
    assert.equal(JSON.parse(b.body).error.code, 'headers_too_large');
  });
});

describe('HTTP framing: Connection: close', () => {
  const app = suiteServer();

  it('a chunked body over 64 KiB gets one 413 with a single Connection: close, then the close', async () => {
    const chunk = 'x'.repeat(8 * 1024);
    let payload = 'POST /api/v1/settings/gps HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    for (let i = 0; i < 9; i++) payload += `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    payload += '0\r\n\r\n';
    const r = await rawExchange(app.port, payload, { maxMs: 3000 });
    const [res] = parseResponses(r.text);
    assert.equal(res.status, 413);
    assert.deepEqual(res.headers.connection, ['close']);
    assert.equal(r.closed, true);
  });
});
