// Numbers in rigctld/rotctld lines. Hamlib reads them with sscanf("%lf"/"%f"/"%d"), so clients
// send what printf makes: "145800000", "145800000.000000" (netrigctl's "%lf"), "120.00" (gpredict),
// and some locales' "120,00" (rotctld turns the comma into a point before reading; so do we).
// Unlike sscanf, trailing junk is refused rather than silently dropped.

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** A decimal number as a client wrote it, or null. */
export function parseNumber(word: string): number | null {
  const text = word.replace(',', '.');
  return NUMBER.test(text) ? Number(text) : null;
}

/** A frequency argument in Hz (a whole number of Hz; Hamlib's freq_t is a double it rounds on use). */
export function parseFreqHz(word: string): number | null {
  const n = parseNumber(word);
  return n === null || n < 0 ? null : Math.round(n);
}

/** An integer argument ("%d": PTT, split, passband, vfo_opt). */
export function parseInteger(word: string): number | null {
  return /^[+-]?\d+$/.test(word) ? Number(word) : null;
}

/** A frequency as rigctld prints it ("%"PRIll of the rounded value). */
export const formatFreqHz = (hz: number): string => String(Math.round(hz));

/** An angle as rotctld prints a position ("%.2f"). */
export const formatDeg = (deg: number): string => deg.toFixed(2);
