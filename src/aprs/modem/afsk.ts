// Bell 202 AFSK modulator (1200 bd, mark 1200 Hz, space 2200 Hz), what 1200 bd APRS sends on FM.
// AX.25 frames in (raw bytes without FCS, as encodeAx25 gives), 16-bit signed PCM mono out, for a
// radio with no TNC in its transmit path (the IC-705's LAN audio stream). Pure: no I/O.
//   - HDLC framing, FCS, bit stuffing and NRZI by hdlc.ts; TXDELAY and tail are runs of flags.
//   - Continuous phase: one 32-bit phase accumulator, carried across bit boundaries and across
//     modulate() calls; a tone change only changes the increment.
//   - The bit clock is exact at any integer sample rate: bit i covers the samples
//     [floor(i·rate/1200), floor((i+1)·rate/1200)), so 44100 Hz gives 36 or 37 samples a bit
//     (36.75 on average) and a transmission of N bits is exactly floor(N·rate/1200) samples.
//   - One precomputed sine table (already scaled to the amplitude); no Math.sin per sample.
//   - Buffers are reused and grow only when a longer transmission needs them.

import { hdlcBitCount, hdlcMaxBits, TONE_MARK, writeHdlcTones, type HdlcLayout } from './hdlc.js';

export const BELL202_BAUD = 1200;
export const BELL202_MARK_HZ = 1200;
export const BELL202_SPACE_HZ = 2200;
/** The IC-705's LAN audio stream rate (16-bit mono); 48000 Hz also works. */
export const RADIO_STREAM_RATE = 24000;

/** Peak 0.5 of full scale (−6 dBFS peak, −9 dBFS RMS): headroom for the radio's audio path. */
export const AFSK_DEFAULT_AMPLITUDE = 0.5;
export const AFSK_DEFAULT_TXDELAY_MS = 300;
export const AFSK_DEFAULT_TAIL_MS = 30;
export const AFSK_MIN_RATE = 8000;
export const AFSK_MAX_RATE = 96000;
export const AFSK_MAX_TXDELAY_MS = 1000;
export const AFSK_MAX_TAIL_MS = 500;

export interface AfskOptions {
  /** Samples per second, an integer 8000..96000. Default RADIO_STREAM_RATE (24000). */
  sampleRate?: number;
  /** Peak level as a fraction of full scale, (0, 1]. Default 0.5. */
  amplitude?: number;
  /** Flags before the first frame, in ms, 0..1000. Default 300. At least one flag is always sent. */
  txDelayMs?: number;
  /** Flags after the last frame, in ms, 0..500. Default 30. At least one flag is always sent. */
  tailMs?: number;
}

const TABLE_BITS = 12;
const TABLE_SIZE = 1 << TABLE_BITS;
const PHASE_SHIFT = 32 - TABLE_BITS;
const TWO_POW_32 = 2 ** 32;

/** Flags lasting at least `ms` at 1200 bd: ceil(ms·1200/8/1000), never fewer than 1 (HDLC needs an opening and a closing flag). */
export function flagsForMs(ms: number): number {
  // ms·1200/8000 = ms·3/20; the epsilon keeps 300 ms at exactly 45 flags despite float rounding.
  return Math.max(1, Math.ceil((ms * 3) / 20 - 1e-9));
}

/** Samples for `bits` bits at `sampleRate`: floor(bits·rate/1200), exact for integer rates. */
export function samplesForBits(bits: number, sampleRate: number): number {
  return Math.floor((bits * sampleRate) / BELL202_BAUD);
}

/** Duration of `samples` samples at `sampleRate`, in ms. */
export function samplesToMs(samples: number, sampleRate: number): number {
  return (samples * 1000) / sampleRate;
}

function checkRange(value: number, min: number, max: number, what: string, integer = false): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new RangeError(`AFSK ${what} must be ${integer ? 'an integer ' : ''}in ${min}..${max}, got ${String(value)}`);
  }
  return value;
}

/**
 * A reusable Bell 202 modulator. Not re-entrant: modulate() answers a view into an internal
 * buffer, valid until the next call (modulateCopy() for a copy of its own).
 */
export class AfskModulator {
  readonly sampleRate: number;
  readonly amplitude: number;
  readonly txDelayMs: number;
  readonly tailMs: number;
  /** HDLC flags sent for TXDELAY and tail (flagsForMs of the two). */
  readonly layout: Readonly<Required<HdlcLayout>>;
  /** Sine table scaled to the amplitude, sampled at bin centres (halves the truncation error). */
  private readonly table = new Int16Array(TABLE_SIZE);
  private readonly markInc: number;
  private readonly spaceInc: number;
  /** Phase as a uint32 fraction of a cycle. */
  private phase = 0;
  private tones = new Uint8Array(0);
  private samples = new Int16Array(0);

  constructor(opts: AfskOptions = {}) {
    this.sampleRate = checkRange(opts.sampleRate ?? RADIO_STREAM_RATE, AFSK_MIN_RATE, AFSK_MAX_RATE, 'sampleRate (Hz)', true);
    const amplitude = opts.amplitude ?? AFSK_DEFAULT_AMPLITUDE;
    if (typeof amplitude !== 'number' || !Number.isFinite(amplitude) || amplitude <= 0 || amplitude > 1) {
      throw new RangeError(`AFSK amplitude must be in (0, 1] of full scale, got ${String(amplitude)}`);
    }
    this.amplitude = amplitude;
    this.txDelayMs = checkRange(opts.txDelayMs ?? AFSK_DEFAULT_TXDELAY_MS, 0, AFSK_MAX_TXDELAY_MS, 'txDelayMs');
    this.tailMs = checkRange(opts.tailMs ?? AFSK_DEFAULT_TAIL_MS, 0, AFSK_MAX_TAIL_MS, 'tailMs');
    this.layout = Object.freeze({ leadFlags: flagsForMs(this.txDelayMs), tailFlags: flagsForMs(this.tailMs), betweenFlags: 1 });
    const peak = amplitude * 32767;
    for (let i = 0; i < TABLE_SIZE; i++) this.table[i] = Math.round(peak * Math.sin((2 * Math.PI * (i + 0.5)) / TABLE_SIZE));
    this.markInc = Math.round((BELL202_MARK_HZ / this.sampleRate) * TWO_POW_32);
    this.spaceInc = Math.round((BELL202_SPACE_HZ / this.sampleRate) * TWO_POW_32);
  }

  /** Exact bit count of the transmission for these frames. */
  bitsFor(frames: readonly Uint8Array[]): number {
    return hdlcBitCount(frames, this.layout);
  }

  /** Exact sample count modulate(frames) will answer: for pacing the audio stream. */
  samplesFor(frames: readonly Uint8Array[]): number {
    return samplesForBits(this.bitsFor(frames), this.sampleRate);
  }

  /** Duration of modulate(frames), in ms. */
  durationMs(frames: readonly Uint8Array[]): number {
    return samplesToMs(this.samplesFor(frames), this.sampleRate);
  }

  /** Back to phase 0 (the next transmission starts at a zero crossing). */
  reset(): void {
    this.phase = 0;
  }

  /**
   * One transmission: TXDELAY flags, the frames (each with its FCS, separated by one flag), tail
   * flags, as PCM. Answers a view into the modulator's buffer, overwritten by the next call.
   * Frames are raw AX.25 bytes without FCS (encodeAx25). RangeError when `frames` is empty.
   */
  modulate(frames: readonly Uint8Array[]): Int16Array {
    if (frames.length === 0) throw new RangeError('AFSK modulate needs at least one frame');
    const maxBits = hdlcMaxBits(frames, this.layout);
    if (this.tones.length < maxBits) this.tones = new Uint8Array(maxBits);
    const tones = this.tones;
    const nBits = writeHdlcTones(tones, frames, this.layout, TONE_MARK);
    const rate = this.sampleRate;
    const total = samplesForBits(nBits, rate);
    if (this.samples.length < total) this.samples = new Int16Array(total);
    const out = this.samples;
    const table = this.table;
    const markInc = this.markInc;
    const spaceInc = this.spaceInc;
    let phase = this.phase;
    let frac = 0; // (samples so far)·1200 − (bits so far)·rate, in [0, 1200): the exact fractional bit clock
    let s = 0;
    for (let i = 0; i < nBits; i++) {
      frac += rate;
      const k = Math.floor(frac / BELL202_BAUD);
      frac -= k * BELL202_BAUD;
      const inc = tones[i] === TONE_MARK ? markInc : spaceInc;
      for (let j = 0; j < k; j++) {
        out[s++] = table[phase >>> PHASE_SHIFT];
        phase = (phase + inc) >>> 0;
      }
    }
    this.phase = phase;
    return out.subarray(0, s);
  }

  /** modulate() into a new array of its own. */
  modulateCopy(frames: readonly Uint8Array[]): Int16Array {
    return this.modulate(frames).slice();
  }
}
