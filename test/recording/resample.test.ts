import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Resampler } from '../../src/recording/resample.js';
import { mulberry32 } from '../helpers/prng.js';
import { makeTone, toneMagnitude } from '../helpers/tone.js';

// The recorder's rate conversion: a tone survives every pair of rates, blocks of any size give
// the same samples as one block (nothing happens at a block's edge), and its buffer is reused.

const RATES = [8000, 16000, 24000, 48000];
const AMP = 8000;

/** Runs `input` through `r` in blocks of random odd sizes; the output joined. */
function inBlocks(r: Resampler, input: Int16Array, seed: number): Int16Array {
  const rnd = mulberry32(seed);
  const parts: Int16Array[] = [];
  for (let i = 0; i < input.length; ) {
    const n = Math.min(input.length - i, 1 + 2 * Math.floor(rnd() * 400));
    parts.push(r.process(input.subarray(i, i + n)).slice());
    i += n;
  }
  const out = new Int16Array(parts.reduce((s, p) => s + p.length, 0));
  let k = 0;
  for (const p of parts) {
    out.set(p, k);
    k += p.length;
  }
  return out;
}

describe('resampler', () => {
  it('24 kHz → 16 kHz: a 1 kHz tone in odd-sized blocks comes out whole, with no step at any edge', () => {
    const input = makeTone(24000, 1000, 0.5, AMP);
    const whole = new Resampler(24000, 16000).process(input).slice();
    const blocks = inBlocks(new Resampler(24000, 16000), input, 37);
    assert.deepEqual(blocks, whole, 'block edges change nothing');
    assert.ok(Math.abs(blocks.length - (input.length * 2) / 3) <= 1, `length ${blocks.length}`);
    // A 1 kHz sine at 16 kHz moves at most 2π·1000/16000·A a sample: anything more is a click.
    let maxStep = 0;
    for (let i = 1; i < blocks.length; i++) maxStep = Math.max(maxStep, Math.abs(blocks[i] - blocks[i - 1]));
    assert.ok(maxStep <= (2 * Math.PI * 1000 * AMP) / 16000 + 2, `largest step ${maxStep}`);
    const mag = toneMagnitude(blocks, 16000, 1000, 1600, 8000); // skip the filter's settling
    assert.ok(Math.abs(mag - AMP) < AMP * 0.02, `1 kHz at ${mag}`);
    assert.ok(toneMagnitude(blocks, 16000, 2000, 1600, 8000) < AMP * 0.01, 'no energy elsewhere');
  });

  it('every pair of rates keeps a 1 kHz tone and the length', () => {
    for (const from of RATES) {
      for (const to of RATES) {
        const input = makeTone(from, 1000, 0.2, AMP);
        const out = inBlocks(new Resampler(from, to), input, from + to);
        // Up to one input sample is held back (the next one is needed to interpolate towards).
        const held = Math.ceil(to / from);
        assert.ok(Math.abs(out.length - (input.length * to) / from) <= held, `${from}→${to}: ${out.length} samples`);
        const mag = toneMagnitude(out, to, 1000, to / 50, to / 50 + to / 10); // 100 ms, past the settling
        assert.ok(Math.abs(mag - AMP) < AMP * 0.05, `${from}→${to}: 1 kHz at ${mag.toFixed(0)}`);
      }
    }
  });

  it('downsampling holds back what would alias: 10 kHz at 24 kHz is weak at 6 kHz after 16 kHz', () => {
    const out = new Resampler(24000, 16000).process(makeTone(24000, 10000, 0.2, AMP));
    const alias = toneMagnitude(out, 16000, 6000, 400, 3200);
    assert.ok(alias < AMP * 0.2, `alias at ${alias.toFixed(0)} (${(20 * Math.log10(alias / AMP)).toFixed(1)} dB)`);
  });

  it("a full-scale step clamps the low-pass's overshoot rather than wrapping round", () => {
    const step = Int16Array.from({ length: 4800 }, (_, i) => (i < 2400 ? -32768 : 32767));
    const out = new Resampler(48000, 8000).process(step);
    const after = out.subarray(402); // from just past the step (sample 400 at 8 kHz)
    assert.equal(Math.min(...after) > 30000, true, `lowest after the step ${Math.min(...after)}`);
    assert.equal(Math.max(...after), 32767, 'the overshoot is clamped');
  });

  it('same rate is the input itself; otherwise one buffer, grown only for a larger block', () => {
    const input = makeTone(16000, 1000, 0.01);
    assert.equal(new Resampler(16000, 16000).process(input), input);
    const r = new Resampler(48000, 16000);
    const a = r.process(new Int16Array(960));
    const b = r.process(new Int16Array(960));
    assert.equal(a.buffer, b.buffer);
    assert.equal(r.process(new Int16Array(100)).buffer, a.buffer, 'a smaller block fits');
    assert.notEqual(r.process(new Int16Array(9600)).buffer, a.buffer, 'a larger one grows it');
    assert.equal(r.process(new Int16Array(0)).length, 0);
  });

  it('refuses a rate that is not whole Hz', () => {
    assert.throws(() => new Resampler(0, 16000), RangeError);
    assert.throws(() => new Resampler(16000, 11025.5), RangeError);
  });
});
