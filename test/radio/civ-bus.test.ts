import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CivBus, RigRejected } from '../../src/radio/civ-bus.js';
import { cmd } from '../../src/radio/civ/commands.js';
import { encodeFrame, type CivFrame } from '../../src/radio/civ/frame.js';
import type { SerialConnection } from '../../src/links/serial-driver.js';
import { TimeoutError } from '../../src/util/waitress.js';
import { FixedClock } from '../../src/util/clock.js';

// The request/reply layer over a scripted wire (the serial device is the process edge): echo,
// broadcasts, NG, timeouts with their retry rule, and a bus collision resent.

function wire(script: (frame: Uint8Array, n: number) => Uint8Array[]) {
  let onData: (c: Uint8Array) => void = () => {};
  const sent: Uint8Array[] = [];
  const conn: SerialConnection = {
    path: '/dev/test',
    async write(bytes) {
      sent.push(bytes);
      const replies = script(bytes, sent.length);
      setImmediate(() => replies.forEach((r) => onData(r)));
    },
    async close() {},
    onData: (fn) => (onData = fn),
    onClose: () => {},
  };
  return { conn, sent, push: (b: Uint8Array) => onData(b) };
}
const RIG = 0xa4;
const OK = encodeFrame(0xe0, RIG, 0xfb);
const timeouts = { reply_ms: 40, read_retries: 1, jam_retries: 2 };

describe('CI-V bus', () => {
  it('ignores its own echoed frame and resolves with the matching reply', async () => {
    const w = wire((f) => [f, encodeFrame(0xe0, RIG, 0x0f, [0x01])]);
    const bus = new CivBus(w.conn, { rigAddr: RIG, timeouts });
    const r = await bus.request(cmd.readSplit());
    assert.deepEqual([...r.data], [0x01]);
  });

  it('hands transceive broadcasts to listeners, not to the waiting request', async () => {
    const seen: CivFrame[] = [];
    const w = wire(() => [encodeFrame(0x00, RIG, 0x00, [0, 0, 0x80, 0x45, 0x01]), OK]);
    const bus = new CivBus(w.conn, { rigAddr: RIG, timeouts });
    bus.onBroadcast((f) => seen.push(f));
    await bus.request(cmd.setSplit(true));
    assert.equal(seen.length, 1);
  });

  it('NG rejects with the command named; a write that times out is not resent, a read is once', async () => {
    const ng = new CivBus(wire(() => [encodeFrame(0xe0, RIG, 0xfa)]).conn, { rigAddr: RIG, timeouts });
    await assert.rejects(ng.request(cmd.setSplit(true)), (e) => e instanceof RigRejected && /split/i.test(e.message));
    const silentW = wire(() => []);
    const silent = new CivBus(silentW.conn, { rigAddr: RIG, timeouts });
    await assert.rejects(silent.request(cmd.setVfoFreq(0, 145_800_000)), TimeoutError);
    assert.equal(silentW.sent.length, 1, 'a write is not retried blind');
    await assert.rejects(silent.request(cmd.readVfoFreq(0)), TimeoutError);
    assert.equal(silentW.sent.length, 3, 'a read is retried once');
    assert.equal(silent.stats.timeouts, 3);
  });

  it('a collision (FC jam) makes it send the command again', async () => {
    const w = wire((_, n) => (n === 1 ? [Uint8Array.from([0xfe, 0xfe, 0xfc, 0xfc, 0xfc, 0xfd])] : [OK]));
    const bus = new CivBus(w.conn, { rigAddr: RIG, timeouts });
    await bus.request(cmd.setSplit(false));
    assert.equal(w.sent.length, 2);
    assert.equal(bus.stats.jams, 1);
  });

  it('close() fails what waits and refuses what comes', async () => {
    const bus = new CivBus(wire(() => []).conn, { rigAddr: RIG, timeouts: { ...timeouts, reply_ms: 5000 } });
    const pending = bus.request(cmd.readSplit());
    bus.close(new Error('unplugged'));
    await assert.rejects(pending, /unplugged/);
    await assert.rejects(bus.request(cmd.readSplit()), /unplugged/);
  });

  it('waits for replies on the clock it is given, not the system clock', async () => {
    // A minute-long reply limit that a test clock runs out in no real time: on the system clock
    // this request would still be waiting when the real-time guard below gives up.
    const clock = new FixedClock(Date.parse('2025-03-01T12:00:00Z'));
    const w = wire(() => []);
    const bus = new CivBus(w.conn, { rigAddr: RIG, clock, timeouts: { reply_ms: 60_000, read_retries: 0, jam_retries: 0 } });
    const pending = bus.request(cmd.setSplit(true));
    await new Promise((r) => setImmediate(r)); // the write is out, the reply timer armed
    clock.advance(59_999);
    clock.advance(1);
    const guard = new Promise((_, reject) => setTimeout(() => reject(new Error('still waiting on the system clock')), 2000).unref());
    await assert.rejects(Promise.race([pending, guard]), TimeoutError);
    assert.equal(bus.stats.timeouts, 1);
  });
});
