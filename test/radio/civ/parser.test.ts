import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cmd, isTransceive, matchReply } from '../../../src/radio/civ/commands.js';
import { encodeFrame, formatFrame, type CivFrame } from '../../../src/radio/civ/frame.js';
import { CivParser } from '../../../src/radio/civ/parser.js';

const RIG = 0xa4;
const CTL = 0xe0;
const hex = (s: string) => Uint8Array.from(s.split(/\s+/).filter(Boolean).map((b) => parseInt(b, 16)));
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

function collect(opts: { maxFrameBytes?: number } = {}) {
  const frames: string[] = [];
  let jams = 0;
  const p = new CivParser((f) => frames.push(formatFrame(f)), { ...opts, onJam: () => jams++ });
  return { p, frames, jams: () => jams };
}

const A = encodeFrame(CTL, RIG, 0x25, hex('00 00 00 80 45 01')); // reply: selected VFO freq
const B = encodeFrame(CTL, RIG, 0xfb); // OK
const C = encodeFrame(0x00, RIG, 0x00, hex('00 00 10 32 04')); // transceive broadcast

describe('CI-V parser', () => {
  it('delivers frames whatever the chunking: every split point, byte by byte', () => {
    const stream = cat(A, B, C);
    const want = [A, B, C].map((x) => formatFrame(x));
    for (let k = 0; k <= stream.length; k++) {
      const { p, frames } = collect();
      p.push(stream.subarray(0, k));
      p.push(stream.subarray(k));
      assert.deepEqual(frames, want, `split at ${k}`);
    }
    const { p, frames } = collect();
    for (const b of stream) p.push(Uint8Array.of(b));
    assert.deepEqual(frames, want);
    assert.deepEqual(p.stats, { frames: 3, jams: 0, discardedBytes: 0 });
  });

  it('decodes to/from/cmd/data', () => {
    const got: CivFrame[] = [];
    new CivParser((f) => got.push(f)).push(A);
    assert.equal(got.length, 1);
    assert.equal(got[0].to, CTL);
    assert.equal(got[0].from, RIG);
    assert.equal(got[0].cmd, 0x25);
    assert.deepEqual(got[0].data, hex('00 00 00 80 45 01'));
  });

  it('skips garbage between frames and counts it', () => {
    const { p, frames } = collect();
    p.push(cat(hex('00 13 FD 77'), A, hex('FD FD 42'), B));
    assert.deepEqual(frames, [formatFrame(A), formatFrame(B)]);
    assert.equal(p.stats.discardedBytes, 7);
  });

  it('takes a longer FE run as the preamble (radio waking up)', () => {
    const { p, frames } = collect();
    p.push(cat(hex('FE FE FE FE FE'), A.subarray(2)));
    assert.deepEqual(frames, [formatFrame(A)]);
  });

  it('delivers our own echoed frame, which matchReply then ignores', () => {
    const req = cmd.readVfoFreq(0);
    const echo = encodeFrame(RIG, CTL, req.cmd, req.data);
    const got: CivFrame[] = [];
    const p = new CivParser((f) => got.push(f));
    p.push(cat(echo, A));
    assert.equal(got.length, 2);
    assert.equal(matchReply(req, got[0], RIG, CTL), null);
    assert.equal(matchReply(req, got[1], RIG, CTL), 'reply');
  });

  it('delivers transceive broadcasts', () => {
    const got: CivFrame[] = [];
    new CivParser((f) => got.push(f)).push(C);
    assert.equal(got.length, 1);
    assert.ok(isTransceive(got[0]));
    assert.equal(matchReply(cmd.readFreq(), got[0], RIG, CTL), null);
  });

  it('reports a jam once per FC run and drops the frame it hit', () => {
    const { p, frames, jams } = collect();
    p.push(hex('FE FE FC FC FC FD'));
    assert.equal(jams(), 1);
    p.push(cat(hex('FE FE E0 A4 25 00 FC FC'), hex('FD'), A));
    assert.equal(jams(), 2);
    p.push(hex('FC FC FC'));
    p.push(hex('FC'));
    assert.equal(jams(), 3);
    assert.deepEqual(frames, [formatFrame(A)]);
    assert.equal(p.stats.jams, 3);
    assert.equal(p.stats.discardedBytes, 6 + 9 + 4);
  });

  it('drops an overlong frame and keeps the next one', () => {
    const { p, frames } = collect({ maxFrameBytes: 16 });
    const long = encodeFrame(CTL, RIG, 0x27, new Uint8Array(11)); // 17 bytes
    const fits = encodeFrame(CTL, RIG, 0x27, new Uint8Array(10)); // 16 bytes
    p.push(cat(long, A, fits));
    assert.deepEqual(frames, [formatFrame(A), formatFrame(fits)]);
    assert.equal(p.stats.discardedBytes, long.length);
  });

  it('an overlong frame whose FD is lost still gives way to the next FE FE', () => {
    const { p, frames } = collect({ maxFrameBytes: 12 }); // A is exactly 12
    p.push(cat(hex('FE FE E0 A4 27 00 01 02 03 04 05 06'), A));
    assert.deepEqual(frames, [formatFrame(A)]);
  });

  it('a frame missing its FD is abandoned at the next FE FE', () => {
    const { p, frames } = collect();
    p.push(cat(hex('FE FE E0 A4 25 00 00 00'), A, hex('FE FE E0 A4'), B));
    assert.deepEqual(frames, [formatFrame(A), formatFrame(B)]);
    assert.equal(p.stats.discardedBytes, 8 + 4);
  });

  it('drops empty and too-short frames, and lone FE', () => {
    const { p, frames } = collect();
    p.push(hex('FE FE FD FE FE E0 A4 FD FE 01 FE FE E0 FD'));
    assert.deepEqual(frames, []);
    assert.equal(p.stats.discardedBytes, 14);
    p.push(A);
    assert.deepEqual(frames, [formatFrame(A)]);
  });

  it('reset forgets a frame in progress', () => {
    const { p, frames } = collect();
    p.push(A.subarray(0, 7));
    p.reset();
    p.push(A.subarray(7));
    p.push(B);
    assert.deepEqual(frames, [formatFrame(B)]);
    assert.equal(p.stats.discardedBytes, A.length);
  });

  it('finishes the chunk when a callback throws, then rethrows the first error', () => {
    const seen: number[] = [];
    const p = new CivParser((f) => {
      seen.push(f.cmd);
      throw new Error(`boom ${f.cmd}`);
    });
    assert.throws(() => p.push(cat(A, B)), /boom 37/);
    assert.deepEqual(seen, [0x25, 0xfb]);
    assert.throws(() => p.push(C), /boom 0/); // still parsing
    assert.equal(seen.length, 3);
  });

  it('refuses a maxFrameBytes that cannot hold a frame', () => {
    assert.throws(() => new CivParser(() => {}, { maxFrameBytes: 5 }), RangeError);
  });
});

// xorshift32: deterministic, no dependencies.
function rng(seed: number) {
  let s = seed >>> 0 || 1;
  const next = () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
  return { next, int: (n: number) => next() % n, chance: (p: number) => next() / 2 ** 32 < p };
}

// The guarantee under test (see parser.ts): every well-formed frame (FE FE, 3..max-3 body bytes
// none FE/FD/FC, FD) is delivered exactly once, by the end of the push that carried its FD,
// whatever precedes it. Garbage is built to hit the hard cases: truncated frames right before a
// good one, FE runs, jams, overlong frames, bare FD, random bytes rich in FE/FD/FC.
describe('CI-V parser fuzz', () => {
  for (const seed of [1, 0x9e3779b9, 20260101]) {
    it(`seed ${seed}: 20k random chunks, every good frame delivered in order at its FD, never throws`, () => {
      const r = rng(seed);
      const MAX = 64;
      const SPECIAL = [0xfe, 0xfd, 0xfc];
      const anyByte = () => (r.chance(0.25) ? SPECIAL[r.int(3)] : r.int(256));
      const bodyByte = () => {
        const b = r.int(253); // 0x00..0xFC
        return b === 0xfc ? 0xfb : b;
      };
      const bytes: number[] = [];
      const good: { end: number; text: string }[] = [];
      const cases = { truncated: 0, jam: 0, overlong: 0, feRun: 0, random: 0, none: 0 };
      let seq = 0;
      while (bytes.length < 20_000 * 9) {
        switch (r.int(6)) {
          case 0: // a frame cut short (no FD), right before the next good frame
            cases.truncated++;
            bytes.push(0xfe, 0xfe);
            for (let n = r.int(12); n > 0; n--) bytes.push(bodyByte());
            break;
          case 1: // collision, with or without preamble and FD
            cases.jam++;
            if (r.chance(0.5)) bytes.push(0xfe, 0xfe, ...(r.chance(0.5) ? [0xe0, 0xa4] : []));
            for (let n = 1 + r.int(4); n > 0; n--) bytes.push(0xfc);
            if (r.chance(0.5)) bytes.push(0xfd);
            break;
          case 2: // overlong, sometimes without its FD
            cases.overlong++;
            bytes.push(0xfe, 0xfe);
            for (let n = MAX + r.int(20); n > 0; n--) bytes.push(bodyByte());
            if (r.chance(0.5)) bytes.push(0xfd);
            break;
          case 3: // FE runs
            cases.feRun++;
            for (let n = 1 + r.int(4); n > 0; n--) bytes.push(0xfe);
            break;
          case 4:
            cases.random++;
            for (let n = r.int(24); n > 0; n--) bytes.push(anyByte());
            break;
          default:
            cases.none++;
        }
        // A tagged good frame: 7A 7B 7C + sequence (BCD) + random payload that can't break framing.
        const payload = [0x7a, 0x7b, 0x7c, (seq / 10000) % 100, (seq / 100) % 100, seq % 100].map((v, i) => (i < 3 ? v : Math.floor(v / 10) * 16 + (Math.floor(v) % 10)));
        for (let n = r.int(40); n > 0; n--) payload.push(bodyByte());
        const frame = encodeFrame(CTL, RIG, 0x1a, payload);
        bytes.push(...frame);
        good.push({ end: bytes.length, text: formatFrame(frame) });
        seq++;
      }
      for (const [k, v] of Object.entries(cases)) assert.ok(v > 100, `fuzz exercised ${k} (${v})`);

      const stream = Uint8Array.from(bytes);
      const delivered: string[] = [];
      const all: CivFrame[] = [];
      const p = new CivParser(
        (f) => {
          all.push(f);
          if (f.data[0] === 0x7a && f.data[1] === 0x7b && f.data[2] === 0x7c) delivered.push(formatFrame(f));
        },
        { maxFrameBytes: MAX, onJam: () => {} },
      );
      let off = 0;
      let chunks = 0;
      let due = 0; // good frames whose FD has been pushed
      while (off < stream.length) {
        const n = 1 + r.int(15);
        p.push(stream.subarray(off, off + n));
        off = Math.min(stream.length, off + n);
        chunks++;
        while (due < good.length && good[due].end <= off) due++;
        if (delivered.length !== due) assert.fail(`after ${off} bytes: ${delivered.length} good frames delivered, ${due} due`);
      }
      assert.ok(chunks >= 20_000, `${chunks} chunks`);
      assert.deepEqual(delivered, good.map((g) => g.text));
      for (const f of all) {
        assert.ok(f.data.length + 3 <= MAX - 3 + 3);
        for (const b of [f.to, f.from, f.cmd, ...f.data]) assert.ok(b !== 0xfe && b !== 0xfd && b !== 0xfc);
      }
      assert.equal(p.stats.frames, all.length);
      assert.ok(p.stats.jams >= cases.jam);
      assert.ok(p.stats.discardedBytes < stream.length);
    });
  }
});
