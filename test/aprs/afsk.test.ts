import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { encodeAx25, type Ax25Frame } from '../../src/aprs/codec/ax25.js';
import { parseTnc2 } from '../../src/aprs/codec/tnc2.js';
import {
  fcs16,
  hdlcBitCount,
  hdlcBits,
  hdlcMaxBits,
  nrziInPlace,
  stuffedBitCount,
  TONE_MARK,
  TONE_SPACE,
  writeHdlcBits,
  writeHdlcTones,
} from '../../src/aprs/modem/hdlc.js';
import {
  AfskModulator,
  BELL202_BAUD,
  BELL202_MARK_HZ,
  BELL202_SPACE_HZ,
  flagsForMs,
  RADIO_STREAM_RATE,
  samplesForBits,
  samplesToMs,
} from '../../src/aprs/modem/afsk.js';
import { WAV_HEADER_BYTES, wavBytes } from '../../src/aprs/modem/wav.js';
import { toneMagnitude } from '../helpers/tone.js';

// The transmit modem on its own: HDLC framing checked bit by bit, the audio checked against the
// bits it should carry (tone per bit, continuous phase, exact length), all without a demodulator.
// Dire Wolf decoding the audio is afsk-atest.test.ts.

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
function tnc2Frame(line: string): Ax25Frame {
  const r = parseTnc2(line);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frame;
}
const POSITION = encodeAx25(tnc2Frame('N0CALL-7>APZ001,WIDE1-1,WIDE2-1:!4903.50N/07201.75W-Test 001234'));
const MESSAGE = encodeAx25(tnc2Frame('N0CALL>APRS::WU2Z     :Testing{003'));
/** Info full of 1-runs (0xFF, 0x7E, 0x7C...): the worst case for stuffing. */
const ONES = encodeAx25({ ...tnc2Frame('N0CALL>APRS:x'), info: Uint8Array.from([0xff, 0xff, 0x7e, 0x7c, 0x3f, 0xfe, 0x7e, 0x7e, 0xff]) });
const FLAG_BITS = [0, 1, 1, 1, 1, 1, 1, 0];
const lsbBits = (bytes: ArrayLike<number>) => Array.from(bytes).flatMap((b) => [0, 1, 2, 3, 4, 5, 6, 7].map((k) => (b >> k) & 1));
/** Reference stuffing on a bit list: a 0 after every fifth consecutive 1. */
function stuff(bits: number[]): number[] {
  const out: number[] = [];
  let ones = 0;
  for (const b of bits) {
    out.push(b);
    ones = b ? ones + 1 : 0;
    if (ones === 5) (out.push(0), (ones = 0));
  }
  return out;
}

/** Raw bits back to frames (FCS checked and stripped) the way a receiver does: flags, unstuffing, FCS. */
function hdlcDecode(bits: ArrayLike<number>): { frames: Uint8Array[]; badFcs: number } {
  const frames: Uint8Array[] = [];
  let badFcs = 0;
  let ones = 0;
  let inFrame = false;
  let data: number[] = []; // unstuffed bits since the last flag, the next flag's first seven included
  for (let i = 0; i < bits.length; i++) {
    const b = bits[i];
    if (b === 1) {
      if (++ones > 6) throw new Error(`seven 1s at bit ${i}: abort`);
      data.push(1);
      continue;
    }
    if (ones === 6) {
      // A flag: its 0 and six 1s are the last seven bits taken as data.
      const n = data.length - 7;
      if (inFrame && n >= 3 * 8 && n % 8 === 0) {
        const bytes = Uint8Array.from({ length: n / 8 }, (_, k) => data.slice(k * 8, k * 8 + 8).reduce((a, bit, j) => a | (bit << j), 0));
        const body = bytes.subarray(0, bytes.length - 2);
        if (fcs16(body) === (bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8))) frames.push(body.slice());
        else badFcs++;
      }
      inFrame = true;
      data = [];
    } else if (ones !== 5) data.push(0); // after five 1s a 0 is a stuffed bit: dropped
    ones = 0;
  }
  return { frames, badFcs };
}

/** Inverse NRZI: same tone → 1, change → 0. */
function deNrzi(tones: ArrayLike<number>, start = TONE_MARK): number[] {
  const out: number[] = [];
  let prev = start;
  for (let i = 0; i < tones.length; i++) {
    out.push(tones[i] === prev ? 1 : 0);
    prev = tones[i];
  }
  return out;
}

/** Tones per bit as the modulator should send them (independent of its buffers). */
function tonesOf(frames: Uint8Array[], mod: AfskModulator): Uint8Array {
  const buf = new Uint8Array(hdlcMaxBits(frames, mod.layout));
  return buf.slice(0, writeHdlcTones(buf, frames, mod.layout));
}

const bitStart = (i: number, rate: number) => Math.floor((i * rate) / BELL202_BAUD);

describe('HDLC framing', () => {
  it('FCS is CRC-16/X.25: "123456789" → 0x906E, and the frame FCS goes out low byte first', () => {
    assert.equal(fcs16(ascii('123456789')), 0x906e);
    assert.equal(fcs16(new Uint8Array(0)), 0x0000);
    assert.equal(fcs16(ascii('x123456789y'), 1, 10), 0x906e);
    // A frame followed by its FCS (low byte first) has the CRC-16/X.25 residue 0xF0B8 before the
    // final xor, i.e. fcs16 over frame+FCS = 0x0F47.
    const f = fcs16(MESSAGE);
    const withFcs = Uint8Array.from([...MESSAGE, f & 0xff, f >> 8]);
    assert.equal(fcs16(withFcs), 0x0f47);
    const bits = Array.from(hdlcBits([MESSAGE], { leadFlags: 1, tailFlags: 1 }));
    assert.deepEqual(bits, [...FLAG_BITS, ...stuff(lsbBits(withFcs)), ...FLAG_BITS]);
  });

  it('sends flags unstuffed and bytes least significant bit first', () => {
    const frame = Uint8Array.from([0x01, 0x80]); // no 1-runs: bits go out as they are
    const bits = Array.from(hdlcBits([frame], { leadFlags: 2, tailFlags: 3 }));
    const fcs = fcs16(frame);
    const expected = [...FLAG_BITS, ...FLAG_BITS, ...stuff(lsbBits([...frame, fcs & 0xff, fcs >> 8])), ...FLAG_BITS, ...FLAG_BITS, ...FLAG_BITS];
    assert.deepEqual(bits, expected);
    assert.deepEqual(bits.slice(16, 32), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]); // 0x01 0x80, LSB first
  });

  it('stuffs a 0 after five 1s inside the frame, and only there', () => {
    // 0xFF: eight 1s → 11111 0 111; then 0x00.
    const frame = Uint8Array.from([0xff, 0x00, 0x1f, 0x3e]);
    const bits = Array.from(hdlcBits([frame], { leadFlags: 1, tailFlags: 1 }));
    const body = bits.slice(8, bits.length - 8);
    assert.deepEqual(body.slice(0, 9), [1, 1, 1, 1, 1, 0, 1, 1, 1]);
    assert.deepEqual(body.slice(9, 17), [0, 0, 0, 0, 0, 0, 0, 0]);
    // 0x1F, LSB first 11111000: five 1s, a stuffed 0, then 000
    assert.deepEqual(body.slice(17, 26), [1, 1, 1, 1, 1, 0, 0, 0, 0]);
    // 0x3E, LSB first 01111100: 0, five 1s, a stuffed 0, then 00
    assert.deepEqual(body.slice(26, 35), [0, 1, 1, 1, 1, 1, 0, 0, 0]);
    // Never six 1s in a row inside the frame; flags keep theirs.
    let run = 0;
    for (const b of body) {
      run = b ? run + 1 : 0;
      assert.ok(run <= 5);
    }
    assert.deepEqual(bits.slice(0, 8), FLAG_BITS);
    assert.deepEqual(bits.slice(-8), FLAG_BITS);
    // The 1-run worst case: the count matches hdlcBitCount and stays within hdlcMaxBits.
    const layout = { leadFlags: 3, tailFlags: 2 };
    const n = hdlcBits([ONES], layout).length;
    assert.equal(n, hdlcBitCount([ONES], layout));
    assert.ok(n > 8 * 5 + (ONES.length + 2) * 8, 'some bits were stuffed');
    assert.ok(n <= hdlcMaxBits([ONES], layout));
    assert.ok(stuffedBitCount(new Uint8Array(10).fill(0xff)) >= 12 * 8 + 16, 'eighty 1s in a row: at least sixteen stuffed bits');
    // The bit writer agrees with an independent stuffing of the same bits.
    const f = fcs16(ONES);
    assert.deepEqual(Array.from(hdlcBits([ONES], { leadFlags: 1, tailFlags: 1 })), [...FLAG_BITS, ...stuff(lsbBits([...ONES, f & 0xff, f >> 8])), ...FLAG_BITS]);
  });

  it('NRZI: a 0 changes the tone, a 1 keeps it', () => {
    const buf = Uint8Array.from([0, 1, 1, 0, 0, 1, 0]);
    const last = nrziInPlace(buf, buf.length, TONE_MARK);
    assert.deepEqual(Array.from(buf), [TONE_SPACE, TONE_SPACE, TONE_SPACE, TONE_MARK, TONE_SPACE, TONE_SPACE, TONE_MARK]);
    assert.equal(last, TONE_MARK);
    const flag = Uint8Array.from(FLAG_BITS);
    nrziInPlace(flag, 8, TONE_SPACE);
    assert.deepEqual(Array.from(flag), [1, 1, 1, 1, 1, 1, 1, 0]); // one change at each end of a flag
    // deNrzi inverts it on a whole transmission.
    const raw = hdlcBits([POSITION, MESSAGE], { leadFlags: 4, tailFlags: 2 });
    const tones = raw.slice();
    nrziInPlace(tones, tones.length);
    assert.deepEqual(deNrzi(tones), Array.from(raw));
  });

  it('round trip: tones → de-NRZI → unstuff → FCS gives the frames back, several per transmission', () => {
    const frames = [POSITION, MESSAGE, ONES];
    const layout = { leadFlags: 45, tailFlags: 5 };
    const buf = new Uint8Array(hdlcMaxBits(frames, layout));
    const n = writeHdlcTones(buf, frames, layout);
    const { frames: back, badFcs } = hdlcDecode(deNrzi(buf.subarray(0, n)));
    assert.equal(badFcs, 0);
    assert.deepEqual(back, frames);
    assert.throws(() => writeHdlcBits(new Uint8Array(10), frames, layout), RangeError);
    assert.throws(() => hdlcBits(frames, { leadFlags: 0, tailFlags: 1 }), /leadFlags/);
    // A flipped bit fails the FCS.
    const raw = hdlcBits([MESSAGE], { leadFlags: 1, tailFlags: 1 });
    raw[100] ^= 1;
    assert.equal(hdlcDecode(raw).frames.length, 0);
  });
});

describe('Bell 202 modulator', () => {
  it('counts flags from ms: ceil(ms·1200/8/1000), at least 1', () => {
    assert.equal(flagsForMs(300), 45);
    assert.equal(flagsForMs(30), 5);
    assert.equal(flagsForMs(0), 1);
    assert.equal(flagsForMs(1000), 150);
    assert.equal(flagsForMs(6.66), 1);
    assert.equal(flagsForMs(6.67), 2);
    const mod = new AfskModulator();
    assert.equal(mod.sampleRate, RADIO_STREAM_RATE);
    assert.equal(RADIO_STREAM_RATE, 24000);
    assert.deepEqual({ ...mod.layout }, { leadFlags: 45, tailFlags: 5, betweenFlags: 1 });
  });

  for (const rate of [24000, 48000, 44100, 8000]) {
    it(`sends mark for 1 and space for 0 tones, bit by bit, at ${rate} Hz`, () => {
      const mod = new AfskModulator({ sampleRate: rate, txDelayMs: 20, tailMs: 10 });
      const frames = [POSITION, ONES];
      const tones = tonesOf(frames, mod);
      const pcm = mod.modulate(frames);
      assert.equal(pcm.length, samplesForBits(tones.length, rate));
      let wrong = 0;
      for (let i = 0; i < tones.length; i++) {
        const a = bitStart(i, rate);
        const b = bitStart(i + 1, rate);
        const mark = toneMagnitude(pcm, rate, BELL202_MARK_HZ, a, b);
        const space = toneMagnitude(pcm, rate, BELL202_SPACE_HZ, a, b);
        const heard = mark > space ? TONE_MARK : TONE_SPACE;
        if (heard !== tones[i]) wrong++;
        // Clear margin, not a coin toss (a bit at 8000 Hz is under 7 samples: a wider main lobe).
        // Amplitudes: the power ratios 2 and 4 (rate < 16 kHz: a bit is only a few cycles long).
        assert.ok(Math.max(mark, space) > (rate < 16000 ? Math.SQRT2 : 2) * Math.min(mark, space), `bit ${i}: mark ${mark.toExponential(2)} space ${space.toExponential(2)}`);
      }
      assert.equal(wrong, 0);
    });
  }

  for (const rate of [24000, 48000, 44100]) {
    it(`keeps the phase continuous across bit boundaries and calls at ${rate} Hz`, () => {
      const amplitude = 0.5;
      const mod = new AfskModulator({ sampleRate: rate, amplitude, txDelayMs: 50, tailMs: 10 });
      const peak = amplitude * 32767;
      // Steepest step a 2200 Hz sine takes between samples, plus table and rounding error.
      const maxStep = peak * 2 * Math.sin((Math.PI * BELL202_SPACE_HZ) / rate) + peak * ((2 * Math.PI) / 4096) + 2;
      // Reference: an ideal continuous-phase FSK signal integrated in floating point.
      let refPhase = 0;
      let prev: number | null = null;
      let worstStep = 0;
      let worstRef = 0;
      for (const frames of [[POSITION], [MESSAGE, ONES], [ONES]]) {
        const tones = tonesOf(frames, mod);
        const pcm = mod.modulate(frames);
        let s = 0;
        for (let i = 0; i < tones.length; i++) {
          const f = tones[i] === TONE_MARK ? BELL202_MARK_HZ : BELL202_SPACE_HZ;
          for (let end = bitStart(i + 1, rate); s < end; s++) {
            const ref = peak * Math.sin(refPhase);
            refPhase += (2 * Math.PI * f) / rate;
            worstRef = Math.max(worstRef, Math.abs(pcm[s] - ref));
            if (prev !== null) worstStep = Math.max(worstStep, Math.abs(pcm[s] - prev));
            prev = pcm[s];
          }
        }
        assert.equal(s, pcm.length);
      }
      assert.ok(worstStep <= maxStep, `largest step ${worstStep} > ${maxStep.toFixed(1)}`);
      assert.ok(worstStep > 0.8 * peak * 2 * Math.sin((Math.PI * BELL202_SPACE_HZ) / rate), 'the 2200 Hz slope is there');
      // Within the table's resolution of the ideal signal: no phase slip anywhere, calls included.
      assert.ok(worstRef <= peak * ((2 * Math.PI) / 4096) + 2, `drift from the ideal signal: ${worstRef.toFixed(1)}`);
    });
  }

  for (const [rate, perBit] of [
    [24000, 20],
    [48000, 40],
    [44100, 36.75],
  ] as const) {
    it(`answers exactly floor(bits·rate/1200) samples at ${rate} Hz, without drift`, () => {
      const mod = new AfskModulator({ sampleRate: rate });
      const frames = [POSITION, MESSAGE, ONES, POSITION, MESSAGE, POSITION, MESSAGE, ONES];
      const bits = mod.bitsFor(frames);
      const pcm = mod.modulate(frames);
      assert.equal(pcm.length, Math.floor(bits * perBit));
      assert.equal(mod.samplesFor(frames), pcm.length);
      assert.equal(mod.durationMs(frames), (pcm.length * 1000) / rate);
      assert.ok(Math.abs(mod.durationMs(frames) - (bits * 1000) / 1200) < 1000 / rate, 'duration = bits/1200 s to within a sample');
      // Bit lengths are floor or ceil of rate/1200, never anything else.
      const lens = new Set<number>();
      for (let i = 0; i < bits; i++) lens.add(bitStart(i + 1, rate) - bitStart(i, rate));
      assert.deepEqual([...lens].sort(), [...new Set([Math.floor(perBit), Math.ceil(perBit)])].sort());
      // Default TXDELAY of 45 flags: 300 ms of flags at the start.
      assert.ok(mod.durationMs([MESSAGE]) >= 300 + 30);
    });
  }

  it('reuses its buffer and copies on request', () => {
    const mod = new AfskModulator({ sampleRate: 24000 });
    const a = mod.modulate([POSITION]);
    const copy = mod.modulateCopy([POSITION]);
    assert.notEqual(copy.buffer, a.buffer);
    const b = mod.modulate([MESSAGE]); // shorter: same buffer
    assert.equal(b.buffer, a.buffer);
    mod.reset();
    const c1 = mod.modulateCopy([MESSAGE]);
    mod.reset();
    const c2 = mod.modulateCopy([MESSAGE]);
    assert.deepEqual(c1, c2);
    assert.equal(c1[0], Math.round(0.5 * 32767 * Math.sin((Math.PI * 2 * 0.5) / 4096)), 'a transmission after reset starts at phase 0');
    const peak = c1.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    assert.ok(peak <= Math.round(0.5 * 32767) && peak > 0.49 * 32767, `peak ${peak}`);
    assert.throws(() => mod.modulate([]), RangeError);
  });

  it('samplesToMs converts sample counts to milliseconds', () => {
    assert.equal(samplesToMs(24000, 24000), 1000);
    assert.equal(samplesToMs(441, 44100), 10);
  });

  it('validates its options with RangeError', () => {
    const bad: Array<[Record<string, unknown>, RegExp]> = [
      [{ sampleRate: 7999 }, /sampleRate.*8000\.\.96000/],
      [{ sampleRate: 96001 }, /sampleRate/],
      [{ sampleRate: 44100.5 }, /sampleRate.*integer/],
      [{ sampleRate: NaN }, /sampleRate/],
      [{ txDelayMs: -1 }, /txDelayMs.*0\.\.1000/],
      [{ txDelayMs: 1001 }, /txDelayMs/],
      [{ tailMs: 501 }, /tailMs.*0\.\.500/],
      [{ tailMs: Infinity }, /tailMs/],
      [{ amplitude: 0 }, /amplitude/],
      [{ amplitude: 1.01 }, /amplitude/],
      [{ sampleRate: '24000' }, /sampleRate/],
    ];
    for (const [opts, re] of bad) assert.throws(() => new AfskModulator(opts as never), (e: unknown) => e instanceof RangeError && re.test(e.message), JSON.stringify(opts));
    for (const sampleRate of [8000, 96000, 44100]) assert.equal(new AfskModulator({ sampleRate, txDelayMs: 0, tailMs: 500, amplitude: 1 }).sampleRate, sampleRate);
  });
});

describe('WAV', () => {
  it('writes a canonical 44-byte RIFF/WAVE PCM 16-bit mono header', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768]);
    const wav = wavBytes(samples, 48000);
    const v = new DataView(wav.buffer, wav.byteOffset, wav.byteLength);
    const str = (at: number, n: number) => String.fromCharCode(...wav.subarray(at, at + n));
    assert.equal(wav.length, WAV_HEADER_BYTES + 10);
    assert.equal(str(0, 4), 'RIFF');
    assert.equal(v.getUint32(4, true), 36 + 10);
    assert.equal(str(8, 4), 'WAVE');
    assert.equal(str(12, 4), 'fmt ');
    assert.equal(v.getUint32(16, true), 16);
    assert.equal(v.getUint16(20, true), 1); // PCM
    assert.equal(v.getUint16(22, true), 1); // mono
    assert.equal(v.getUint32(24, true), 48000);
    assert.equal(v.getUint32(28, true), 96000);
    assert.equal(v.getUint16(32, true), 2);
    assert.equal(v.getUint16(34, true), 16);
    assert.equal(str(36, 4), 'data');
    assert.equal(v.getUint32(40, true), 10);
    assert.deepEqual([0, 1, 2, 3, 4].map((i) => v.getInt16(44 + 2 * i, true)), [0, 1, -1, 32767, -32768]);
    assert.deepEqual(Array.from(wav.subarray(44)), [0, 0, 1, 0, 0xff, 0xff, 0xff, 0x7f, 0x00, 0x80]);
    // A view into a larger buffer writes only its own samples.
    const big = Int16Array.from([9, 9, 5, -5, 9]);
    assert.deepEqual(Array.from(wavBytes(big.subarray(2, 4), 24000).subarray(44)), [5, 0, 0xfb, 0xff]);
    assert.throws(() => wavBytes(samples, 0), RangeError);
  });
});

describe('afsk CLI', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'src/aprs/modem/afsk-cli.ts', ...args], { encoding: 'utf8' });
  it('exits 2 with a clear message on a bad packet or option', () => {
    const badPacket = cli('--out', '/nonexistent/x.wav', 'N0CALL>APRS:ok', 'N0CALL>APRS,qAR,FOO:bad');
    assert.equal(badPacket.status, 2, badPacket.stderr);
    assert.match(badPacket.stderr, /packet 2 .*q-construct/);
    const badRate = cli('--rate', '100', '--out', 'x.wav', 'N0CALL>APRS:ok');
    assert.equal(badRate.status, 2);
    assert.match(badRate.stderr, /--rate must be an integer in 8000\.\.96000/);
    const noOut = cli('N0CALL>APRS:ok');
    assert.equal(noOut.status, 2);
    assert.match(noOut.stderr, /--out FILE\.wav is required/);
    assert.equal(cli('--help').status, 0);
  });
});
