import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import dgram from 'node:dgram';
import { preflight } from '../../../src/radio/lan/preflight.js';

// The reachability probe against tiny raw UDP responders written here (the radio's "I am here"
// built byte by byte from wfview's control_packet layout), a closed port and an address nobody
// answers from.

const sockets: dgram.Socket[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => new Promise<void>((r) => s.close(() => r()))));
});

/** A radio's control port that answers "are you there" with "I am here" after `ignore` tries. */
async function responder(ignore = 0): Promise<{ port: number; got: Buffer[] }> {
  const s = dgram.createSocket('udp4');
  sockets.push(s);
  const got: Buffer[] = [];
  let seen = 0;
  s.on('message', (m, rinfo) => {
    got.push(m);
    if (m.length !== 16 || m.readUInt16LE(4) !== 0x03) return;
    if (seen++ < ignore) return;
    const r = Buffer.alloc(16);
    r.writeUInt32LE(16, 0);
    r.writeUInt16LE(0x04, 4); // I am here
    r.writeUInt32LE(0xabcd0001, 8); // the radio's id
    r.writeUInt32LE(m.readUInt32LE(8), 12); // ours, echoed
    s.send(r, rinfo.port, rinfo.address);
  });
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  return { port: s.address().port, got };
}

async function closedPort(): Promise<number> {
  const s = dgram.createSocket('udp4');
  await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
  const port = s.address().port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('preflight', () => {
  it('ok with the round trip when the radio answers "I am here", then says goodbye', async () => {
    const r = await responder();
    const res = await preflight('127.0.0.1', r.port);
    assert.equal(res.ok, true);
    assert.ok(res.ok && res.rtt_ms >= 0 && res.rtt_ms < 500);
    await new Promise((x) => setTimeout(x, 50));
    const ayt = r.got[0];
    assert.equal(ayt.length, 16);
    assert.equal(ayt.readUInt32LE(0), 16);
    assert.equal(ayt.readUInt16LE(4), 0x03, 'are you there');
    const bye = r.got.find((m) => m.length === 16 && m.readUInt16LE(4) === 0x05);
    assert.ok(bye, 'a disconnect follows');
    assert.equal(bye.readUInt32LE(12), 0xabcd0001, "addressed to the radio's id");
  });

  it('asks again when an "are you there" goes unanswered', async () => {
    const r = await responder(2);
    const res = await preflight('127.0.0.1', r.port, { timeoutMs: 1500 });
    assert.equal(res.ok, true);
    assert.ok(r.got.filter((m) => m.readUInt16LE(4) === 0x03).length >= 3);
  });

  it('a closed port (ICMP port unreachable) fails at once', async () => {
    const port = await closedPort();
    const t0 = performance.now();
    const res = await preflight('127.0.0.1', port, { timeoutMs: 3000 });
    assert.equal(res.ok, false);
    assert.ok(!res.ok && res.message.startsWith('host 127.0.0.1 did not respond'), !res.ok ? res.message : '');
    assert.match(!res.ok ? res.message : '', new RegExp(`UDP port ${port}`));
    assert.ok(performance.now() - t0 < 2000, 'did not wait for the timeout');
  });

  it('an address nobody answers from fails within the timeout', async () => {
    const t0 = performance.now();
    const res = await preflight('192.0.2.1', 50001, { timeoutMs: 400 });
    const took = performance.now() - t0;
    assert.equal(res.ok, false);
    assert.ok(!res.ok && res.message.startsWith('host 192.0.2.1 did not respond'), !res.ok ? res.message : '');
    assert.ok(took < 1200, `took ${took} ms`);
  });

  it('a silent port: "did not respond on UDP port … within …"', async () => {
    const s = dgram.createSocket('udp4');
    sockets.push(s);
    await new Promise<void>((r) => s.bind(0, '127.0.0.1', () => r()));
    const res = await preflight('127.0.0.1', s.address().port, { timeoutMs: 300 });
    assert.deepEqual(res, { ok: false, message: `host 127.0.0.1 did not respond on UDP port ${s.address().port} within 0.3 s` });
  });

  it('a name that does not resolve', async () => {
    const res = await preflight('no-such-radio.invalid', 50001, { timeoutMs: 2000 });
    assert.equal(res.ok, false);
    assert.ok(!res.ok && res.message.startsWith('host no-such-radio.invalid did not respond'), !res.ok ? res.message : '');
  });
});
