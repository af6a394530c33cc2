import assert from 'node:assert/strict';
import net from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { AprsIsClient, type AprsIsClientOptions } from '../../src/aprs/igate/aprs-is-client.js';
import { gateToIs } from '../../src/aprs/igate/is-rules.js';
import { FixedClock, systemClock, type Clock } from '../../src/util/clock.js';
import type { Logger } from '../../src/util/logger.js';
import { FakeAprsIsServer, simPasscode } from '../sims/aprs-is-server.js';

// Real sockets on 127.0.0.1 against the fake server. Timers run on a FixedClock where the test
// steps time itself (backoff, deadlines, stop), on the system clock with small values where the
// server's own real-time keepalives must play against the client's watchdog.

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, enabled: () => false };
const T0 = Date.parse('2025-03-01T12:00:00Z');

let server: FakeAprsIsServer | null = null;
let client: AprsIsClient | null = null;
afterEach(async () => {
  await client?.stop();
  await server?.close();
  client = null;
  server = null;
});

function makeClient(srv: { host: string; port: number }, clock: Clock, over: Partial<AprsIsClientOptions> = {}): AprsIsClient {
  client = new AprsIsClient({
    host: srv.host,
    port: srv.port,
    callsign: 'N0CALL-10',
    passcode: 13023,
    filter: 'm/50',
    connectTimeoutMs: 5000,
    clock,
    software: 'satstation',
    version: '0.1.0',
    log: quiet,
    random: () => 0,
    ...over,
  });
  return client;
}

const until = async (pred: () => boolean, what: string, ms = 3000) => {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
};
const settle = (ms = 60) => new Promise((r) => setTimeout(r, ms));

describe('the fake server', () => {
  it('checks passcodes with its own hash (published vectors)', () => {
    assert.equal(simPasscode('N0CALL'), 13023);
    assert.equal(simPasscode('testcall-12'), 31742);
    assert.equal(simPasscode('WOW'), 29613);
  });
});

describe('AprsIsClient', () => {
  it('logs in verified: the login line as sent, status, and a gated line arriving exactly', async () => {
    server = await FakeAprsIsServer.start();
    const c = makeClient(server, new FixedClock(T0));
    assert.equal(c.status().status, 'stopped');
    assert.equal(c.send('N0CALL>APRS:>too early'), false, 'not connected yet');
    c.start();
    await until(() => c.status().connected, 'login');
    assert.equal(server.logins[0].raw, 'user N0CALL-10 pass 13023 vers satstation 0.1.0 filter m/50');
    assert.equal(server.logins[0].verified, true);
    const st = c.status();
    assert.equal(st.status, 'connected');
    assert.equal(st.verified, true);
    assert.equal(st.server, `127.0.0.1:${server.port} (T2TEST)`);
    assert.equal(st.last_connect_at, new Date(T0).toISOString());
    assert.equal(st.last_error, null);

    const g = gateToIs({ source: 'K1ABC-9', destination: 'T2SP0W', path: ['WIDE1*', 'WIDE2-1'], info: "`(_fn\"Oj/]\x1c\xb0 hi " }, 'N0CALL-10');
    assert.ok(g.gate);
    assert.equal(c.send(g.line), true);
    await until(() => server!.packets.length === 1, 'the gated line');
    assert.equal(server.packets[0], g.line, 'byte for byte, binary Mic-E bytes included');
    assert.equal(c.status().lines_sent, 1);
    assert.equal(c.status().lines_dropped, 1, 'the one sent before the login');
  });

  it('logs in unverified with passcode -1: send() refuses and says why', async () => {
    server = await FakeAprsIsServer.start();
    const c = makeClient(server, new FixedClock(T0), { passcode: -1 });
    c.start();
    await until(() => c.status().connected, 'login');
    assert.equal(server.logins[0].verified, false);
    const st = c.status();
    assert.equal(st.verified, false);
    assert.match(st.last_error ?? '', /unverified/);
    assert.equal(c.send('K1ABC>APRS,qAO,N0CALL-10:>x'), false);
    assert.equal(c.status().lines_dropped, 1);
    await settle();
    assert.deepEqual(server.packets, []);
  });

  it('a wrong passcode is unverified too (the server checks it independently)', async () => {
    server = await FakeAprsIsServer.start();
    const c = makeClient(server, new FixedClock(T0), { passcode: 13024 });
    c.start();
    await until(() => c.status().verified !== null, 'logresp');
    assert.equal(c.status().verified, false);
  });

  it('refuses lines with CR/LF inside or over 512 bytes; accepts one ending in CRLF', async () => {
    server = await FakeAprsIsServer.start();
    const c = makeClient(server, new FixedClock(T0));
    c.start();
    await until(() => c.status().connected, 'login');
    assert.equal(c.send('A>B:x\r\nC>D:injected'), false);
    assert.equal(c.send('A>B:' + 'x'.repeat(507)), false);
    assert.equal(c.send('A>B:' + 'x'.repeat(506)), true);
    assert.equal(c.send('A>B:ok\r\n'), true);
    await until(() => server!.packets.length === 2, 'two lines');
    assert.deepEqual(server.packets, ['A>B:' + 'x'.repeat(506), 'A>B:ok']);
    assert.equal(server.tooLong, 0);
    assert.equal(c.status().lines_dropped, 2);
  });

  it('hands server packet lines to onLine: split across reads, CRLF removed, over-long and comments not passed', async () => {
    server = await FakeAprsIsServer.start();
    const got: string[] = [];
    const c = makeClient(server, new FixedClock(T0), {
      onLine: (l) => {
        got.push(l);
        if (l.includes('boom')) throw new Error('handler bug');
      },
    });
    c.start();
    await until(() => c.status().connected, 'login');
    server.sendRaw('K1ABC>APRS,TCPIP*,qAC,T2TEST:>hel');
    await settle(20);
    server.sendRaw('lo\r\n# keepalive\r\nK2ABC>APRS:boom\r\n');
    server.sendRaw('K3ABC>APRS:' + 'y'.repeat(600) + '\r\n');
    server.sendRaw('K4ABC>APRS:' + 'z'.repeat(300));
    await settle(20);
    server.sendRaw('z'.repeat(300) + '\r\nK5ABC>APRS:\xb0after\r\n');
    await until(() => got.length === 3, 'three lines');
    assert.deepEqual(got, ['K1ABC>APRS,TCPIP*,qAC,T2TEST:>hello', 'K2ABC>APRS:boom', 'K5ABC>APRS:\xb0after']);
    assert.equal(c.status().lines_received, 3);
    assert.equal(c.status().connected, true, 'a throwing handler does not end the session');
  });

  it('server keepalives hold the link; 2 minutes of silence (scaled down) drop it and it reconnects', async () => {
    server = await FakeAprsIsServer.start({ keepaliveMs: 40 });
    const c = makeClient(server, systemClock, { silenceMs: 500, backoffBaseMs: 30, backoffMaxMs: 100 });
    c.start();
    await until(() => c.status().connected, 'login');
    await settle(900);
    assert.equal(server.accepted, 1, 'keepalives every 40 ms keep a 500 ms watchdog quiet');
    assert.equal(c.status().connected, true);

    server.faults.silent = true;
    await until(() => server!.accepted >= 2, 'a reconnect after the silence');
    assert.match(c.status().last_error ?? '', /no data from the server/);
    server.faults.silent = false;
    await until(() => c.status().connected, 'the new session');
    await until(() => server!.connections === 1, 'the silent connection closed');
  });

  it('the server closing: backoff 5 s, then 10 s; a good session resets it', async () => {
    server = await FakeAprsIsServer.start();
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock);
    c.start();
    await until(() => c.status().connected, 'login');

    const dropAndWait = async (backoff: number, accepted: number) => {
      server!.closeClients();
      await until(() => c.status().status === 'backoff', 'backoff');
      assert.match(c.status().last_error ?? '', /server closed the connection/);
      assert.equal(c.status().connected, false);
      clock.advance(backoff - 1);
      await settle();
      assert.equal(server!.accepted, accepted, `no reconnect before ${backoff} ms`);
      clock.advance(1);
      await until(() => c.status().connected, `reconnect after ${backoff} ms`);
      assert.equal(server!.accepted, accepted + 1);
    };
    await dropAndWait(5000, 1);
    await dropAndWait(10000, 2);
    clock.advance(60_000); // logged in for a minute: a good session
    await dropAndWait(5000, 3);
    assert.equal(c.send('A>B:after reconnect'), true);
    await until(() => server!.packets.includes('A>B:after reconnect'), 'line on the new session');
  });

  it('a server that is not there: refused, backoff with the error, then connects when it is back', async () => {
    server = await FakeAprsIsServer.start();
    await server.refuse();
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock);
    c.start();
    await until(() => c.status().status === 'backoff', 'backoff');
    const st = c.status();
    assert.equal(st.connected, false);
    assert.match(st.last_error ?? '', /ECONNREFUSED/);
    assert.equal(st.last_connect_at, null);
    assert.equal(c.send('A>B:x'), false);

    clock.advance(5000);
    await until(() => c.status().status === 'backoff' && clock.pendingTimers === 1 && server!.accepted === 0, 'second refusal');
    await server.listen();
    clock.advance(10_000);
    await until(() => c.status().connected, 'connected once the server is back');
  });

  it('a connect that never completes times out', async () => {
    const clock = new FixedClock(T0);
    let sock: net.Socket | null = null;
    const c = makeClient({ host: '127.0.0.1', port: 9 }, clock, {
      connectTimeoutMs: 3000,
      connect: () => (sock = new net.Socket()), // never connected: a black-holed SYN
    });
    c.start();
    assert.equal(c.status().status, 'connecting');
    clock.advance(3000);
    assert.equal(c.status().status, 'backoff');
    assert.match(c.status().last_error ?? '', /no connection to 127\.0\.0\.1:9 within 3000 ms/);
    assert.equal(sock!.destroyed, true);
  });

  it('a connect seam that throws is an error, not an exception', () => {
    const c = makeClient({ host: '127.0.0.1', port: 1 }, new FixedClock(T0), {
      connect: () => {
        throw new RangeError('bad port');
      },
    });
    c.start();
    assert.equal(c.status().status, 'backoff');
    assert.match(c.status().last_error ?? '', /bad port/);
  });

  it('no logresp within the timeout: error and backoff', async () => {
    server = await FakeAprsIsServer.start();
    server.faults.noLogresp = true;
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock, { connectTimeoutMs: 4000 });
    c.start();
    await until(() => server!.logins.length === 1, 'login sent on the banner');
    assert.equal(c.status().status, 'logging_in');
    clock.advance(4000);
    assert.equal(c.status().status, 'backoff');
    assert.match(c.status().last_error ?? '', /no login response within 4000 ms/);
    await until(() => server!.connections === 0, 'socket closed');
  });

  it('logs in without a banner after a short wait; a slow logresp within the limit is fine', async () => {
    server = await FakeAprsIsServer.start();
    server.faults.silent = true;
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock);
    c.start();
    await until(() => c.status().status === 'logging_in', 'tcp connect');
    await settle();
    assert.equal(server.logins.length, 0, 'waits for the banner');
    server.faults.silent = false;
    server.faults.logrespDelayMs = 100;
    clock.advance(2000);
    await until(() => server!.logins.length === 1, 'login without a banner');
    await until(() => c.status().connected, 'delayed logresp');
  });

  it('sends a # keepalive after 10 minutes without sending, not while lines flow', async () => {
    server = await FakeAprsIsServer.start();
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock, { silenceMs: 3_600_000 });
    c.start();
    await until(() => c.status().connected, 'login');
    const comments = () => server!.received.filter((r) => r.line.startsWith('#'));
    clock.advance(300_000);
    assert.equal(c.send('A>B:x'), true);
    clock.advance(300_000);
    await settle();
    assert.equal(comments().length, 0, 'a line 5 min ago: not quiet long enough');
    clock.advance(300_000);
    await until(() => comments().length === 1, 'keepalive');
    assert.equal(comments()[0].line, '# satstation 0.1.0 keepalive');
    clock.advance(600_000);
    await until(() => comments().length === 2, 'second keepalive');
  });

  it('stop() closes the socket, cancels every timer and stops reconnecting', async () => {
    server = await FakeAprsIsServer.start();
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock);
    c.start();
    await until(() => c.status().connected, 'login');
    assert.ok(clock.pendingTimers > 0);
    await c.stop();
    assert.equal(clock.pendingTimers, 0);
    assert.equal(c.status().status, 'stopped');
    assert.equal(c.status().connected, false);
    await until(() => server!.connections === 0, 'server sees the close');
    clock.advance(3_600_000);
    await settle();
    assert.equal(server.accepted, 1, 'no reconnect after stop');
    assert.equal(c.send('A>B:x'), false);
  });

  it('stop() during backoff and while connecting leaves nothing behind; start() again works', async () => {
    server = await FakeAprsIsServer.start();
    await server.refuse();
    const clock = new FixedClock(T0);
    const c = makeClient(server, clock);
    c.start();
    await until(() => c.status().status === 'backoff', 'backoff');
    await c.stop();
    assert.equal(clock.pendingTimers, 0);

    const never = new net.Socket();
    const c2 = makeClient({ host: '127.0.0.1', port: 9 }, clock, { connect: () => never });
    c2.start();
    await c2.stop();
    assert.equal(never.destroyed, true);
    assert.equal(clock.pendingTimers, 0);

    await server.listen();
    c.start();
    client = c;
    await until(() => c.status().connected, 'connected after a restart');
  });
});
