// Test tones: a sine to feed the recording path, and a Goertzel detector to find it again at the
// other end (after a resampler, a sound card plugin, an Opus round trip).

/** `seconds` of a sine of `hz` at `rate`, peak `amplitude`. */
export function makeTone(rate: number, hz: number, seconds: number, amplitude = 8000): Int16Array {
  const n = Math.round(rate * seconds);
  const pcm = new Int16Array(n);
  for (let i = 0; i < n; i++) pcm[i] = Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / rate));
  return pcm;
}

/**
 * The amplitude (peak, in sample units) of the `hz` component of pcm[from, to) (Goertzel): a
 * sine of peak A reads ≈ A, a tone elsewhere or silence reads near 0. Whole periods in the range
 * give the sharpest reading.
 */
export function toneMagnitude(pcm: ArrayLike<number>, rate: number, hz: number, from = 0, to = pcm.length): number {
  const n = to - from;
  if (n <= 0) return 0;
  const w = (2 * Math.PI * hz) / rate;
  const coeff = 2 * Math.cos(w);
  let s1 = 0;
  let s2 = 0;
  for (let i = from; i < to; i++) {
    const s = pcm[i] + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  const power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
  return (2 * Math.sqrt(Math.max(0, power))) / n;
}
