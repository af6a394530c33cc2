import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { encodeKiss, kissCommand, KissDecoder, FEND, FESC, TFEND, TFESC, type KissFrame } from '../../src/aprs/codec/kiss.js';

const collect = (max?: number) => {
  const frames: KissFrame[] = [];
  const d = new KissDecoder((f) => frames.push(f), max);
  return { frames, d };
};
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** xorshift32: a seeded generator, so a failing fuzz case can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 2 ** 32;
  };
}

describe('encodeKiss', () => {
  it('frames data with FEND, the type byte, and escapes FEND and FESC', () => {
    assert.equal(hex(encodeKiss(Uint8Array.of(1, 2, 3))), 'c000010203c0');
    assert.equal(hex(encodeKiss(Uint8Array.of(FEND))), 'c000dbdcc0');
    assert.equal(hex(encodeKiss(Uint8Array.of(FESC))), 'c000dbddc0');
    assert.equal(hex(encodeKiss(Uint8Array.of(FESC, FEND, TFEND, TFESC))), 'c000dbdddbdcdcddc0');
    assert.equal(hex(encodeKiss(new Uint8Array(0))), 'c000c0');
  });

  it('puts the port in the high nibble and the command in the low one', () => {
    assert.equal(hex(encodeKiss(Uint8Array.of(9), 1)), 'c01009c0');
    assert.equal(hex(encodeKiss(Uint8Array.of(9), 15, 0)), 'c0f009c0');
    assert.equal(hex(encodeKiss(Uint8Array.of(9), 3, 5)), 'c03509c0');
    assert.throws(() => encodeKiss(Uint8Array.of(1), 16), RangeError);
    assert.throws(() => encodeKiss(Uint8Array.of(1), -1), RangeError);
    assert.throws(() => encodeKiss(Uint8Array.of(1), 0, 16), RangeError);
  });

  it('builds parameter commands', () => {
    assert.equal(hex(kissCommand('txdelay', 30)), 'c0011ec0');
    assert.equal(hex(kissCommand('persist', 63)), 'c0023fc0');
    assert.equal(hex(kissCommand('slottime', 10)), 'c0030ac0');
    assert.equal(hex(kissCommand('txtail', 1, 2)), 'c02401c0');
    assert.equal(hex(kissCommand('fullduplex', 0)), 'c00500c0');
    assert.equal(hex(kissCommand('persist', 0xc0)), 'c002dbdcc0'); // the value is escaped too
    assert.throws(() => kissCommand('txdelay', 256), RangeError);
  });
});

describe('KissDecoder', () => {
  it('round-trips every one of the 256 byte values, alone and all together', () => {
    for (let b = 0; b < 256; b++) {
      const { frames, d } = collect();
      const wire = encodeKiss(Uint8Array.of(b, b, 0x41));
      // no raw FEND inside the frame, and FESC only as an escape
      assert.equal(wire.subarray(1, -1).indexOf(FEND), -1, `byte ${b} leaked a FEND`);
      d.push(wire);
      assert.equal(frames.length, 1, `byte ${b}`);
      assert.deepEqual([...frames[0].data], [b, b, 0x41]);
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const { frames, d } = collect();
    d.push(encodeKiss(all, 7));
    assert.equal(frames.length, 1);
    assert.equal(frames[0].port, 7);
    assert.equal(frames[0].command, 0);
    assert.deepEqual(frames[0].data, all);
  });

  it('decodes every port nibble and command', () => {
    for (let port = 0; port < 16; port++) {
      for (let cmd = 0; cmd < 16; cmd++) {
        const { frames, d } = collect();
        d.push(encodeKiss(Uint8Array.of(0xaa), port, cmd));
        assert.deepEqual({ port: frames[0].port, command: frames[0].command }, { port, command: cmd });
      }
    }
  });

  it('reassembles a frame split at every offset, and two frames split at every pair of offsets', () => {
    const a = encodeKiss(Uint8Array.from([0x82, FEND, 0x40, FESC, 0x03, 0xf0, 0x3a, FESC, FEND]));
    const b = encodeKiss(Uint8Array.of(1, 2, FEND), 1);
    const wire = new Uint8Array([...a, ...b]);
    for (let i = 0; i <= wire.length; i++) {
      for (let j = i; j <= wire.length; j++) {
        const { frames, d } = collect();
        d.push(wire.subarray(0, i));
        d.push(wire.subarray(i, j));
        d.push(wire.subarray(j));
        assert.equal(frames.length, 2, `split ${i}/${j}`);
        assert.deepEqual([...frames[0].data], [0x82, FEND, 0x40, FESC, 0x03, 0xf0, 0x3a, FESC, FEND]);
        assert.deepEqual([...frames[1].data], [1, 2, FEND]);
        assert.equal(frames[1].port, 1);
      }
    }
  });

  it('accepts back-to-back FENDs and a shared FEND between frames, and skips noise before the first FEND', () => {
    const { frames, d } = collect();
    d.push(Uint8Array.of(0x41, 0x42, FEND, FEND, FEND, 0x00, 0x01, FEND, 0x00, 0x02, FEND, FEND));
    assert.deepEqual(
      frames.map((f) => [...f.data]),
      [[1], [2]],
    );
    assert.equal(d.stats.frames, 2);
    assert.equal(d.stats.discardedBytes, 2);
  });

  it('drops a frame with a bad escape, counts it, and decodes the next one', () => {
    const { frames, d } = collect();
    d.push(Uint8Array.of(FEND, 0x00, 0x01, FESC, 0x55, 0x02, FEND, 0x00, 0x09, FEND));
    assert.deepEqual(
      frames.map((f) => [...f.data]),
      [[9]],
    );
    assert.equal(d.stats.badEscapes, 1);
    assert.equal(d.stats.discardedBytes, 5);
    // FESC right before FEND cuts the frame short: dropped too
    d.push(Uint8Array.of(0x00, 0x07, FESC, FEND, 0x00, 0x08, FEND));
    assert.deepEqual(
      frames.map((f) => [...f.data]),
      [[9], [8]],
    );
    assert.equal(d.stats.badEscapes, 2);
  });

  it('drops an oversize frame without growing memory and resynchronises on the next FEND', () => {
    const { frames, d } = collect(16);
    d.push(encodeKiss(new Uint8Array(16).fill(0x11))); // exactly the cap: fine
    d.push(encodeKiss(new Uint8Array(17).fill(0x22))); // one over
    d.push(Uint8Array.of(FEND, 0x00));
    for (let i = 0; i < 100_000; i++) d.push(Uint8Array.of(0x33)); // a runaway frame
    d.push(Uint8Array.of(FEND));
    d.push(encodeKiss(Uint8Array.of(0x44)));
    assert.deepEqual(
      frames.map((f) => f.data.length),
      [16, 1],
    );
    assert.equal(d.stats.oversize, 2);
    assert.equal(d.stats.discardedBytes, 18 + 100_001);
    assert.equal((d as unknown as { buf: Uint8Array }).buf.length, 17);
  });

  it('reset() drops a partial frame', () => {
    const { frames, d } = collect();
    d.push(Uint8Array.of(FEND, 0x00, 0x01));
    d.reset();
    d.push(Uint8Array.of(0x02, FEND, 0x00, 0x03, FEND));
    assert.deepEqual(
      frames.map((f) => [...f.data]),
      [[3]],
    );
  });

  it('fuzz: random bytes and random splits never throw, and valid frames between them survive', () => {
    const rand = rng(0x4b155);
    for (let round = 0; round < 300; round++) {
      const { frames, d } = collect(64);
      const expected: number[][] = [];
      const parts: number[] = [];
      for (let k = 0; k < 8; k++) {
        // garbage, possibly with FEND/FESC, then a FEND so the next valid frame starts clean
        const junk = Array.from({ length: Math.floor(rand() * 40) }, () => (rand() < 0.2 ? [FEND, FESC, TFEND, TFESC][Math.floor(rand() * 4)] : Math.floor(rand() * 256)));
        parts.push(...junk, FEND);
        const data = Array.from({ length: 1 + Math.floor(rand() * 60) }, () => Math.floor(rand() * 256));
        parts.push(...encodeKiss(Uint8Array.from(data), Math.floor(rand() * 16)));
        expected.push(data);
      }
      const wire = Uint8Array.from(parts);
      let at = 0;
      assert.doesNotThrow(() => {
        while (at < wire.length) {
          const n = Math.floor(rand() * 9);
          d.push(wire.subarray(at, at + n));
          at += n;
        }
      });
      // every valid frame comes out, in order, among whatever the junk happened to form
      let e = 0;
      for (const f of frames) if (e < expected.length && Buffer.from(f.data).equals(Buffer.from(expected[e]))) e++;
      assert.equal(e, expected.length, `round ${round}`);
    }
    // pure noise
    const { d } = collect(32);
    const rand2 = rng(7);
    assert.doesNotThrow(() => {
      for (let i = 0; i < 2000; i++) d.push(Uint8Array.from({ length: Math.floor(rand2() * 50) }, () => Math.floor(rand2() * 256)));
    });
  });
});
