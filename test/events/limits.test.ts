import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { WsClient, clientFrame, portOf, type WsRefused } from '../helpers/ws-client.js';
import type { FixedClock } from '../../src/util/clock.js';
import { eventsServer, subscribed } from './fixture.js';

// The live-events socket's gate and limits (issue 35), with raw handshakes and frames: the Host
// and Origin rules of a POST (cross-site WebSocket hijacking), the operator lock not gating it,
// 64 sockets, 4 KiB frames, and a client that stops reading.

const settle = (ms = 100) => new Promise((r) => setTimeout(r, ms));

describe('live events: the gate', () => {
  const env = eventsServer({ config: { allowedHosts: ['station.lan'] } });

  const refused = async (headers: Record<string, string>, code: string) => {
    const r = (await WsClient.open(portOf(env.s), { headers })) as WsRefused;
    assert.ok(!(r instanceof WsClient), `${JSON.stringify(headers)} got a socket`);
    assert.equal(r.status, 403, JSON.stringify(headers));
    assert.equal(JSON.parse(r.body).error.code, code, JSON.stringify(headers));
  };

  it('a foreign Origin, Origin null or a cross-site fetch gets 403 cross_origin_refused and no socket', async () => {
    await refused({ Origin: 'http://attacker.example' }, 'cross_origin_refused');
    await refused({ Origin: `http://127.0.0.1:${portOf(env.s) + 1}` }, 'cross_origin_refused');
    await refused({ Origin: 'null' }, 'cross_origin_refused');
    await refused({ Origin: `http://127.0.0.1:${portOf(env.s)}`, 'Sec-Fetch-Site': 'cross-site' }, 'cross_origin_refused');
    assert.equal(env.s.app.events.size, 0);
  });

  it('a Host the station does not answer to gets 403 host_not_allowed (DNS rebinding), whatever the Origin', async () => {
    await refused({ Host: 'attacker.example' }, 'host_not_allowed');
    await refused({ Host: 'attacker.example', Origin: 'http://attacker.example' }, 'host_not_allowed');
    assert.equal(env.s.app.events.size, 0);
  });

  it('its own pages (Origin = Host), an allowed name and clients without Origin get a socket', async () => {
    for (const headers of [{ Origin: `http://127.0.0.1:${portOf(env.s)}` }, { Host: 'station.lan', Origin: 'http://station.lan' }, { Host: 'localhost:1234' }, {}] as Record<string, string>[]) {
      const c = await WsClient.connect(portOf(env.s), { headers });
      assert.equal((await c.next()).type, 'hello', JSON.stringify(headers));
      c.destroy();
    }
  });

  it('agrees to no subprotocol: a client that offers some gets none back', async () => {
    const c = await WsClient.connect(portOf(env.s), { headers: { 'Sec-WebSocket-Protocol': 'chat, superchat' } });
    assert.match(c.handshake, /^HTTP\/1\.1 101 /);
    assert.doesNotMatch(c.handshake, /sec-websocket-protocol/i);
    c.destroy();
  });

  it('a GET without Upgrade is 426 upgrade_required, as JSON', async () => {
    const r = await env.s.get('/api/v1/events');
    assert.equal(r.status, 426);
    assert.equal(r.body.error.code, 'upgrade_required');
  });

  it('the operator lock does not gate reading: a locked station still opens the socket and pushes events', async () => {
    const lock = await env.s.post('/api/v1/access', { locked: true, token: 'correct horse battery' });
    assert.equal(lock.status, 200, JSON.stringify(lock.body));
    const c = await WsClient.connect(portOf(env.s));
    await c.next();
    assert.deepEqual(await c.request({ id: 1, type: 'subscribe', topics: ['system'] }), { id: 1, type: 'result', ok: true });
    const e = await c.next((m) => m.topic === 'system');
    assert.deepEqual(e.data, (await env.s.get('/api/v1/system/state')).body);
    c.destroy();
  });
});

describe('live events: limits', () => {
  const env = eventsServer();

  it('at most 64 sockets: the 65th is closed with 1013; one closing makes room', async () => {
    const open: WsClient[] = [];
    try {
      for (let i = 0; i < 64; i++) open.push(await WsClient.connect(portOf(env.s)));
      for (const c of open) assert.equal((await c.next()).type, 'hello');
      assert.equal(env.s.app.events.size, 64);
      const extra = await WsClient.connect(portOf(env.s));
      assert.equal((await extra.whenClosed()).code, 1013);
      assert.equal(extra.messages.length, 0, 'no hello for the 65th');
      open.shift()!.close();
      for (let i = 0; i < 50 && env.s.app.events.size > 63; i++) await settle(20);
      const again = await WsClient.connect(portOf(env.s));
      assert.equal((await again.next()).type, 'hello');
      open.push(again);
    } finally {
      for (const c of open) c.destroy();
    }
  });

  it('a frame of 4096 bytes is read; one of 4097 closes the socket with 1009', async () => {
    const c = await WsClient.connect(portOf(env.s));
    await c.next();
    const at = c.messages.length;
    c.sendText(JSON.stringify({ id: 1, type: 'ping', pad: 'x'.repeat(4096 - 35) }));
    assert.deepEqual(await c.next((m) => m.type === 'pong', 5000, at), { id: 1, type: 'pong' });
    c.sendBytes(4097);
    assert.equal((await c.whenClosed()).code, 1009);
  });

  it('a binary frame is a bad_request result; the socket stays open', async () => {
    const c = await WsClient.connect(portOf(env.s));
    await c.next();
    c.socket.write(clientFrame(0x2, Buffer.from('{"id":1,"type":"ping"}')));
    const r = await c.next((m) => m.type === 'result');
    assert.deepEqual([r.id, r.ok, r.error.code], [null, false, 'bad_request']);
    assert.deepEqual(await c.request({ id: 2, type: 'ping' }), { id: 2, type: 'pong' });
    c.destroy();
  });
});

describe('live events: a client that stops reading', () => {
  const env = eventsServer();

  /** A subscriber to live and lite that stops reading, then changes until the server's own buffer holds its data. */
  async function stalled(): Promise<WsClient> {
    const c = await subscribed(env.s, ['live', 'lite', 'radio']);
    await c.next((m) => m.topic === 'live');
    c.pause();
    const me = () => env.s.app.events.stats().clients.at(-1)!;
    // The kernel's buffers take a few MiB first (live is ~19 KiB a second here).
    for (let i = 0; i < 2000 && !me().blocked; i++) {
      env.clock.advance(1000);
      env.s.app.services.invalidateLite();
      await settle(2);
    }
    assert.equal(me().blocked, true, 'the server saw the client stop reading');
    return c;
  }

  it('keeps only the newest event per topic waiting, never a backlog, and closes it with 1008 30 s after it stopped', async () => {
    const c = await stalled();
    const me = () => env.s.app.events.stats().clients.at(-1)!;
    const blockedAt = env.clock.now();
    for (let i = 0; i < 25; i++) {
      env.clock.advance(1000);
      env.s.app.services.invalidateLite();
      assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 1000 + i * 10 })).status, 200);
      await settle(5);
      const st = me();
      assert.ok(st.pendingTopics.length <= 3, `one waiting entry per topic at most: ${JSON.stringify(st)}`);
    }
    assert.deepEqual(me().pendingTopics.sort(), ['lite', 'live', 'radio']);
    assert.ok(me().buffered < 64 * 1024, `the server's buffer holds at most the frame in flight: ${me().buffered}`);
    // 25 s of events so far since it was seen to stop; at 30 s it is closed.
    assert.equal(env.s.app.events.size, 1);
    env.clock.advance(5000);
    await settle(50);
    assert.equal(env.s.app.events.size, 0, 'closed 30 s after it stopped reading');
    c.resume();
    const closed = await c.whenClosed(10_000);
    assert.equal(closed.code, 1008);
    // It reads what the kernel held when it stopped, then the close: nothing of the 25 s after.
    const late = c.events('live').filter((e) => Date.parse(e.ts) > blockedAt);
    assert.deepEqual(late, [], 'no event held for it was sent after it stopped reading');
  });

  it('a client that reads again gets the newest of each waiting topic, once, and carries on', async () => {
    const c = await stalled();
    for (let i = 0; i < 5; i++) {
      env.clock.advance(1000);
      assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 2000 + i * 10 })).status, 200);
      await settle(5);
    }
    c.resume();
    const radio = await c.next((m) => m.topic === 'radio' && m.data.settings.poll_interval_ms === 2040, 10_000);
    const radios = c.events('radio');
    assert.equal(radios.at(-1), radio, 'the newest radio state');
    assert.ok(radios.every((e) => [1000, 2040].includes(e.data.settings.poll_interval_ms) || e.data.settings.poll_interval_ms < 2000), 'none of the states in between');
    for (let i = 0; i < 50 && env.s.app.events.stats().clients.at(-1)!.blocked; i++) await settle(20);
    assert.equal(env.s.app.events.stats().clients.at(-1)!.blocked, false);
    env.clock.advance(1000);
    await c.next((m) => m.topic === 'live' && m.ts === new Date(env.clock.now()).toISOString());
    env.clock.advance(30_000);
    await settle(50);
    assert.equal(env.s.app.events.size, 1, 'a client that reads is never closed');
    c.destroy();
  });
});

describe('live events: a client that leaves more than 256 KiB unread', () => {
  let s: TestServer;
  let clock: FixedClock;
  const dataDir = tmpDataDir();
  before(async () => {
    // A logbook of 9000 QSOs: one event of its topic (~6 MB) is more than the kernel's buffers
    // take from a client that reads nothing (~4 MB here), so the rest stays in the server's.
    const first = await startServer({ dataDir });
    assert.equal((await first.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
    assert.equal((await first.post('/api/v1/logbook/qso', { call: 'W1AW', mode: 'FM', comment: 'x'.repeat(200) })).status, 200);
    await first.stop({ keepData: true });
    const file = join(dataDir, 'logbook.jsonl');
    const line = JSON.parse(readFileSync(file, 'utf8').trim().split('\n').at(-1)!);
    const lines = Array.from({ length: 9000 }, (_, i) => JSON.stringify({ ...line, q: { ...line.q, id: `${line.q.id}-${i}` } }));
    writeFileSync(file, lines.join('\n') + '\n');
    s = await startServer({ dataDir });
    clock = s.clock as FixedClock;
  });
  after(async () => {
    await s?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is closed with 1008 once over 256 KiB has stayed in the server\'s buffer for 10 s', async () => {
    const c = await WsClient.connect(portOf(s));
    await c.next();
    c.send({ id: 1, type: 'subscribe', topics: ['logbook'] });
    c.pause(); // reads nothing from now on: not even the result
    const me = () => s.app.events.stats().clients.at(-1)!;
    for (let i = 0; i < 300 && me().buffered <= 256 * 1024; i++) await settle(20);
    assert.ok(me().buffered > 256 * 1024, `over 256 KiB buffered: ${JSON.stringify(me())}`);
    clock.advance(9_999);
    await settle(20);
    assert.equal(s.app.events.size, 1, 'not before 10 s');
    clock.advance(1);
    await settle(20);
    assert.equal(s.app.events.size, 0, 'closed at 10 s');
    c.resume();
    assert.equal((await c.whenClosed(20_000)).code, 1008);
  });
});
