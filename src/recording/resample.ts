// Streaming sample-rate conversion of mono 16-bit audio (pure): the source's rate (a sound card's,
// the IC-705 LAN stream's 24 kHz) to the recording's. Linear interpolation, its position kept
// exactly as a whole number of 1/up steps of an input sample and carried with the last input
// sample across calls, so where the caller's blocks begin and end makes no difference to the
// output: no click, no drift over an hour.
//
// Downsampling first passes the input through a 2-pole Butterworth low-pass at 0.45 × the new
// rate, against aliasing. Cheap on purpose: a receiver's audio is already band-limited by its IF
// filter (SSB ~2.7 kHz, FM voice ~3 kHz), so what lies above the new Nyquist is mostly hiss, and
// hiss folded back stays hiss. Two poles take it down 12 dB an octave (more near the old Nyquist,
// where the bilinear transform puts a zero) for five multiplies a sample; a polyphase FIR with a
// real stop band would cost tens of taps per sample on the Pi for a few dB less hiss. Voice
// keeps its band: -1.7 dB at 3 kHz for an 8 kHz recording, less at the higher rates.

/** Where the low-pass sits, as a fraction of the output rate (its Nyquist is 0.5). */
const CUTOFF_OF_OUTPUT_RATE = 0.45;

export class Resampler {
  /** Input sample spacing in steps (an output rate's worth): positions are whole steps, so exact. */
  private readonly up: number;
  /** Output sample spacing in steps. */
  private readonly down: number;
  /** Where the next output falls, in steps after the last input sample (`last`). */
  private next = 0;
  /** The last input sample, filtered; null before the first. */
  private last: number | null = null;
  private out = new Int16Array(0);
  // Low-pass coefficients (normalised, transposed direct form II) and state; identity when not downsampling.
  private readonly b0: number = 1;
  private readonly b1: number = 0;
  private readonly b2: number = 0;
  private readonly a1: number = 0;
  private readonly a2: number = 0;
  private z1 = 0;
  private z2 = 0;

  constructor(
    readonly fromRate: number,
    readonly toRate: number,
  ) {
    if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) throw new RangeError(`rates must be whole Hz: ${fromRate} → ${toRate}`);
    const g = gcd(fromRate, toRate);
    this.up = toRate / g;
    this.down = fromRate / g;
    if (toRate < fromRate) {
      // RBJ cookbook low-pass, Q = 1/√2 (Butterworth: flat pass band, no peak).
      const w0 = (2 * Math.PI * CUTOFF_OF_OUTPUT_RATE * toRate) / fromRate;
      const cos = Math.cos(w0);
      const alpha = Math.sin(w0) / Math.SQRT2;
      const a0 = 1 + alpha;
      this.b0 = (1 - cos) / 2 / a0;
      this.b1 = (1 - cos) / a0;
      this.b2 = this.b0;
      this.a1 = (-2 * cos) / a0;
      this.a2 = (1 - alpha) / a0;
    }
  }

  /**
   * The output for the next block of input. Same rate: `input` itself. Otherwise a view of a buffer
   * this resampler owns, valid until the next call (it grows only when a larger block comes).
   * The last input sample waits for the next block (the one to interpolate towards), so the
   * output trails the input by up to one input sample's worth.
   */
  process(input: Int16Array): Int16Array {
    if (this.fromRate === this.toRate) return input;
    const { up, down, b0, b1, b2, a1, a2 } = this;
    const most = Math.ceil((input.length * up) / down) + 1;
    if (this.out.length < most) this.out = new Int16Array(most);
    const out = this.out;
    let { next, z1, z2 } = this;
    let k = 0;
    let j = 0;
    let a = this.last;
    if (a === null && input.length > 0) {
      a = b0 * input[0] + z1;
      z1 = b1 * input[0] - a1 * a + z2;
      z2 = b2 * input[0] - a2 * a;
      j = 1;
    }
    for (; j < input.length; j++) {
      const x = input[j];
      const b = b0 * x + z1;
      z1 = b1 * x - a1 * b + z2;
      z2 = b2 * x - a2 * b;
      // Outputs between the last sample (at 0) and this one (at `up`).
      for (; next < up; next += down) {
        const v = Math.round(a! + ((b - a!) * next) / up);
        out[k++] = v > 32767 ? 32767 : v < -32768 ? -32768 : v; // the filter can overshoot a step
      }
      next -= up;
      a = b;
    }
    this.next = next;
    this.last = a;
    this.z1 = z1;
    this.z2 = z2;
    return out.subarray(0, k);
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}
