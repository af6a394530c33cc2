import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { PtyKissConnection, TcpKissConnection, type KissConnection } from '../../src/aprs/kiss/kiss-connection.js';
import type { KissFrame } from '../../src/aprs/codec/kiss.js';
import { KissTncSim } from '../sims/kiss-tnc.js';
import { openPtyPair, type PtyPair } from '../sims/pty-pair.js';
import { setLogLevel } from '../../src/util/logger.js';

setLogLevel('silent');

// An AX.25 UI frame, by hand: APZ001 <- N0CALL-7, UI, no layer 3, an APRS message. The info part
// carries C0 and DB so escaping is exercised both ways.
const addr = (call: string, ssid: number, last: boolean) => [...call.padEnd(6, ' ')].map((c) => c.charCodeAt(0) << 1).concat(0x60 | (ssid << 1) | (last ? 1 : 0));
const UI = Uint8Array.from([...addr('APZ001', 0, false), ...addr('N0CALL', 7, true), 0x03, 0xf0, ...Buffer.from(':N0CALL   :hello{1'), 0xc0, 0xdb, 0xc0]);
const UI2 = Uint8Array.from([...UI.subarray(0, 16), ...Buffer.from('>status')]);

function collect(link: KissConnection) {
  const frames: KissFrame[] = [];
  const closes: Array<string | null> = [];
  link.onFrame((f) => frames.push(f));
  link.onClose((e) => closes.push(e));
  return { frames, closes };
}

async function until(cond: () => boolean, ms = 3000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Every pair of cut points of an encoded frame that are odd offsets. */
const oddSplits = (len: number) => {
  const out: number[][] = [];
  for (let i = 1; i < len; i += 2) for (let j = i + 2; j < len; j += 6) out.push([i, j]);
  return out;
};

describe('TcpKissConnection against the fake TNC', () => {
  const sim = new KissTncSim();
  let port = 0;
  before(async () => {
    port = await sim.listenTcp();
  });
  after(() => sim.close());

  it('sends an AX.25 frame as one KISS data frame, escaped on the wire', async () => {
    const link = new TcpKissConnection('127.0.0.1', port);
    assert.deepEqual(await link.open(), { ok: true });
    assert.equal(link.connected, true);
    assert.equal(link.endpoint, `127.0.0.1:${port}`);
    const before = sim.received.length;
    assert.equal(link.send(UI), true);
    const got = await sim.waitFrames(before + 1);
    assert.deepEqual(got.at(-1)!.data, UI);
    assert.equal(got.at(-1)!.port, 0);
    assert.equal(got.at(-1)!.command, 0);
    const wire = Buffer.from(sim.rawIn.slice(-8)).toString('hex');
    assert.equal(wire.slice(-14), 'dbdcdbdddbdcc0');
    assert.equal(link.sendCommand('txdelay', 30), true);
    const cmd = (await sim.waitFrames(before + 2)).at(-1)!;
    assert.deepEqual({ command: cmd.command, data: [...cmd.data] }, { command: 1, data: [30] });
    await link.close();
  });

  it('decodes frames the TNC pushes, split at odd offsets, back to back', async () => {
    const link = new TcpKissConnection('127.0.0.1', port);
    const { frames } = collect(link);
    await link.open();
    await sim.waitClient();
    const splits = oddSplits(UI.length + 5).slice(0, 12);
    for (const s of splits) await sim.push(UI, { splits: s, pauseMs: 2 });
    await sim.push(UI2, { port: 1 });
    await until(() => frames.length === splits.length + 1, 3000, 'frames');
    for (const f of frames.slice(0, -1)) assert.deepEqual(f.data, UI);
    assert.deepEqual(frames.at(-1)!.data, UI2);
    assert.equal(frames.at(-1)!.port, 1);
    assert.equal(link.stats().frames, splits.length + 1);
    await link.close();
  });

  it('survives a listener that throws, and garbage on the line', async () => {
    const link = new TcpKissConnection('127.0.0.1', port);
    const frames: KissFrame[] = [];
    link.onFrame(() => {
      throw new Error('listener bug');
    });
    link.onFrame((f) => frames.push(f));
    await link.open();
    await sim.waitClient();
    sim.pushRaw(Uint8Array.of(0x41, 0x42, 0xc0, 0x00, 0xdb, 0x55, 0xc0)); // noise, then a bad escape
    await sim.push(UI);
    await until(() => frames.length === 1, 3000, 'frame');
    assert.deepEqual(frames[0].data, UI);
    assert.equal(link.stats().badEscapes, 1);
    assert.equal(link.connected, true);
    await link.close();
  });

  it('reports the TNC dropping the connection, refuses sends while down, and opens again', async () => {
    const link = new TcpKissConnection('127.0.0.1', port);
    const { frames, closes } = collect(link);
    await link.open();
    await sim.waitClient();
    sim.drop();
    await until(() => closes.length === 1, 3000, 'close');
    assert.match(closes[0] ?? '', /closed the connection|ECONNRESET/);
    assert.equal(link.connected, false);
    assert.equal(link.send(UI), false);
    assert.deepEqual(await link.open(), { ok: true });
    await sim.waitClient();
    await sim.push(UI2);
    await until(() => frames.length === 1, 3000, 'frame after reconnect');
    await link.close();
    assert.deepEqual(closes, [closes[0], null]);
  });

  it('answers a refused connection with an error, without throwing', async () => {
    const srv = createServer();
    const free = await new Promise<number>((r) => srv.listen(0, '127.0.0.1', () => r((srv.address() as { port: number }).port)));
    await new Promise((r) => srv.close(r));
    const link = new TcpKissConnection('127.0.0.1', free);
    const r = await link.open();
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /ECONNREFUSED/);
    assert.equal(link.send(UI), false);
    await link.close();
  });

  it('refuses empty, oversize and out-of-range frames', async () => {
    const link = new TcpKissConnection('127.0.0.1', port, { maxFrameBytes: 64 });
    await link.open();
    assert.equal(link.send(new Uint8Array(0)), false);
    assert.equal(link.send(new Uint8Array(65)), false);
    assert.equal(link.send(UI, 16), false);
    assert.equal(link.sendCommand('persist', 300), false);
    assert.equal(link.stats().sendRefused, 4);
    await link.close();
  });
});

describe('PtyKissConnection against the fake TNC on a pseudo-terminal pair', () => {
  let pair: PtyPair;
  const sim = new KissTncSim();
  before(async () => {
    pair = await openPtyPair();
    await sim.openPty(pair.rigPath);
  });
  after(async () => {
    await sim.close();
    await pair.close();
  });

  it('carries frames both ways, split at odd offsets', async () => {
    const link = new PtyKissConnection(pair.ctlPath, { presenceCheckMs: 50 });
    const { frames } = collect(link);
    assert.deepEqual(await link.open(), { ok: true });
    assert.equal(link.kind, 'pty');
    assert.equal(link.send(UI), true);
    assert.equal(link.send(UI2, 2), true);
    const got = await sim.waitFrames(2);
    assert.deepEqual(got[0].data, UI);
    assert.deepEqual({ port: got[1].port, data: got[1].data }, { port: 2, data: UI2 });
    for (const s of oddSplits(UI.length + 5).slice(0, 6)) await sim.push(UI, { splits: s, pauseMs: 2 });
    await until(() => frames.length === 6, 3000, 'frames');
    for (const f of frames) assert.deepEqual(f.data, UI);
    await link.close();
  });

  it('notices the pseudo-terminal going away (the TNC exited)', async () => {
    const link = new PtyKissConnection(pair.ctlPath, { presenceCheckMs: 50 });
    const { closes } = collect(link);
    await link.open();
    await pair.unplug();
    await until(() => closes.length === 1, 3000, 'close');
    assert.ok(closes[0], 'closed with a reason');
    assert.equal(link.connected, false);
    assert.equal(link.send(UI), false);
    const r = await link.open();
    assert.equal(r.ok, false);
    await pair.replug();
  });

  it('answers a missing device with an error', async () => {
    const link = new PtyKissConnection('/dev/shm/satstation-no-such-pty');
    const r = await link.open();
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.error, /cannot open/);
  });
});
