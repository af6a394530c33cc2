import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startLineServer, type LineReply, type LineServer, type LineServerOptions } from '../../src/hamlib/line-server.js';

// The line server over real TCP sockets on 127.0.0.1.

const servers: LineServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

async function start(handle: LineServerOptions['handle'], more: Partial<LineServerOptions> = {}): Promise<LineServer> {
  const r = await startLineServer({ host: '127.0.0.1', port: 0, maxClients: 16, maxLineBytes: 1024, handle, ...more });
  assert.equal(r.kind, 'listening', JSON.stringify(r));
  const server = (r as { server: LineServer }).server;
  servers.push(server);
  return server;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => resolve(s));
    s.once('error', reject);
  });
}

/** Everything a socket receives until it closes, or until `until` matches. */
function received(s: net.Socket, until?: (text: string) => boolean, ms = 3000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    let text = '';
    const timer = setTimeout(() => resolve({ text, closed: false }), ms);
    s.on('data', (d) => {
      text += d.toString('latin1');
      if (until?.(text)) {
        clearTimeout(timer);
        resolve({ text, closed: false });
      }
    });
    s.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    s.on('error', () => {});
  });
}

const echo = async (line: string): Promise<LineReply> => `<${line}>\n`;

describe('line server', () => {
  it('answers each line in order, one at a time, with \\r\\n tolerated and split anywhere', async () => {
    let running = 0;
    let most = 0;
    const server = await start(async (line) => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, line === 'slow' ? 30 : 1));
      running--;
      return `<${line}>\n`;
    });
    const s = await connect(server.port);
    const got = received(s, (t) => t.split('\n').length > 4);
    s.write('slow\r\nf');
    await new Promise((r) => setTimeout(r, 10)); // the rest arrives while 'slow' is being handled
    s.write(Buffer.from('ast\nthird\n\x8b\n', 'latin1')); // gpredict's get_dcd is the single byte 0x8b
    const { text } = await got;
    assert.equal(text, '<slow>\n<fast>\n<third>\n<\x8b>\n', 'in order, the CR dropped, byte 0x8b kept as one character');
    assert.equal(most, 1, 'never two lines of one client at once');
    s.destroy();
  });

  it('disconnects a client whose line passes maxLineBytes, with or without a newline, and keeps serving others', async () => {
    const server = await start(echo);
    const a = await connect(server.port);
    const gotA = received(a);
    a.write('x'.repeat(1025));
    assert.equal((await gotA).closed, true);
    const b = await connect(server.port);
    const gotB = received(b);
    b.write(`${'y'.repeat(2000)}\n`);
    assert.deepEqual(await gotB, { text: '', closed: true });
    const c = await connect(server.port);
    const gotC = received(c, (t) => t.endsWith('\n'));
    c.write(`${'z'.repeat(1024)}\n`);
    assert.equal((await gotC).text.length, 1024 + 3, 'a line of exactly 1 KiB is served');
    c.destroy();
  });

  it('takes at most maxClients: the next one is closed at once, a freed place is taken again', async () => {
    const counts: number[] = [];
    const server = await start(echo, { maxClients: 16, onClientsChanged: (n) => counts.push(n) });
    const clients = await Promise.all(Array.from({ length: 16 }, () => connect(server.port)));
    await until(() => server.clients() === 16);
    const extra = await connect(server.port);
    const gotExtra = received(extra);
    extra.write('f\n');
    assert.deepEqual(await gotExtra, { text: '', closed: true });
    assert.equal(server.clients(), 16);
    clients[0].destroy();
    await until(() => server.clients() === 15);
    const again = await connect(server.port);
    const gotAgain = received(again, (t) => t === '<f>\n');
    again.write('f\n');
    assert.equal((await gotAgain).text, '<f>\n');
    assert.equal(Math.max(...counts), 16);
    for (const c of [...clients, again]) c.destroy();
  });

  it('closes on null, and sends { last } before closing', async () => {
    const server = await start(async (line) => (line === 'q' ? { last: 'RPRT 0\n' } : line === 'x' ? null : `<${line}>\n`));
    const a = await connect(server.port);
    const gotA = received(a);
    a.write('f\nq\nf\n');
    assert.deepEqual(await gotA, { text: '<f>\nRPRT 0\n', closed: true });
    const b = await connect(server.port);
    const gotB = received(b);
    b.write('x\n');
    assert.deepEqual(await gotB, { text: '', closed: true });
  });

  it('answers a client that half-closes after its last line', async () => {
    const server = await start(echo);
    const s = await connect(server.port);
    const got = received(s);
    s.end('f\n');
    assert.deepEqual(await got, { text: '<f>\n', closed: true });
  });

  it('disconnects a client that stops reading its replies, while another client keeps its answers', async () => {
    const big = 'v'.repeat(16 * 1024) + '\n';
    const server = await start(async (line) => (line === 'big' ? big : `<${line}>\n`), { maxUnsentBytes: 64 * 1024 });
    const stalled = await connect(server.port);
    stalled.pause(); // never reads: the kernel buffers fill, then the server's
    let closed = false;
    stalled.on('close', () => (closed = true));
    stalled.on('error', () => {});
    const other = await connect(server.port);
    const started = Date.now();
    for (let i = 0; i < 400 && !closed; i++) {
      stalled.write('big\n'.repeat(20));
      const reply = received(other, (t) => t === '<f>\n', 2000);
      other.write('f\n');
      assert.equal((await reply).text, '<f>\n', 'the other client is answered while one stalls');
      other.removeAllListeners('data');
      other.removeAllListeners('close');
    }
    await until(() => closed, 5000);
    assert.ok(closed, 'the stalled client was disconnected');
    assert.ok(Date.now() - started < 15000);
    other.destroy();
  });

  it('reports a port in use as a result, not a throw', async () => {
    const first = await start(echo);
    const r = await startLineServer({ host: '127.0.0.1', port: first.port, maxClients: 1, maxLineBytes: 64, handle: echo });
    assert.equal(r.kind, 'failed');
    assert.equal((r as { code: string }).code, 'EADDRINUSE');
  });
});

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}
