// The level of a stretch of 16-bit audio (pure), for the recorder's level meter: RMS in dBFS.

/** What silence reads: digital zero has no logarithm, and nothing a receiver gives is this quiet. */
export const SILENCE_DBFS = -120;

/**
 * RMS level of pcm[from, to) in dB relative to full scale (32768), rounded to 0.1 dB: a full-scale
 * square wave reads 0.0, a full-scale sine -3.0. No allocation: it runs on every block captured.
 */
export function rmsDbfs(pcm: Int16Array, from = 0, to = pcm.length): number {
  const a = Math.max(0, from);
  const b = Math.min(pcm.length, to);
  const n = b - a;
  if (n <= 0) return SILENCE_DBFS;
  let sum = 0;
  for (let i = a; i < b; i++) sum += pcm[i] * pcm[i];
  if (sum === 0) return SILENCE_DBFS;
  const db = 10 * Math.log10(sum / n / (32768 * 32768));
  return Math.max(SILENCE_DBFS, Math.round(db * 10) / 10 + 0); // + 0: never -0
}
