// Packed BCD as CI-V uses it. Two byte orders exist on the wire:
// - frequencies (and the scope span) are little-endian: byte 0 holds the 10 Hz and 1 Hz digits,
//   byte 4 the 1 GHz and 100 MHz digits (Hamlib to_bcd/from_bcd, Icom "frequency data");
// - levels (0000..0255) and tone frequencies are big-endian, most significant digits first
//   (Hamlib to_bcd_be/from_bcd_be).
// Each byte is (high digit << 4) | low digit.

/** Frequencies are 5 bytes (10 digits) unless told otherwise; 6 covers the 10 GHz-class rigs. */
export const FREQ_BYTES = 5;

function checkCount(value: number, nBytes: number, what: string): void {
  if (!Number.isInteger(nBytes) || nBytes < 1 || nBytes > 7) throw new RangeError(`${what}: byte count ${nBytes} is not 1..7`);
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${what}: ${value} is not a non-negative integer`);
  // 7 bytes = 14 digits, still exact in a double.
  if (value >= 10 ** (2 * nBytes)) throw new RangeError(`${what}: ${value} needs more than ${2 * nBytes} BCD digits`);
}

function checkRoom(buf: { length: number }, off: number, nBytes: number, what: string): void {
  if (!Number.isInteger(off) || off < 0 || off + nBytes > buf.length) throw new RangeError(`${what}: ${nBytes} bytes at offset ${off} do not fit in ${buf.length}`);
}

/** Writes hz as nBytes of little-endian BCD at out[off]. Throws RangeError when it does not fit. */
export function encodeFreq(hz: number, out: Uint8Array, off: number, nBytes: number = FREQ_BYTES): void {
  checkCount(hz, nBytes, 'encodeFreq');
  checkRoom(out, off, nBytes, 'encodeFreq');
  let v = hz;
  for (let i = 0; i < nBytes; i++) {
    const lo = v % 10;
    v = (v - lo) / 10;
    const hi = v % 10;
    v = (v - hi) / 10;
    out[off + i] = (hi << 4) | lo;
  }
}

/** Reads nBytes of little-endian BCD; null when a nibble is not a decimal digit or the bytes are missing. */
export function decodeFreq(buf: Uint8Array, off: number, nBytes: number = FREQ_BYTES): number | null {
  if (off < 0 || off + nBytes > buf.length) return null;
  let v = 0;
  for (let i = nBytes - 1; i >= 0; i--) {
    const d = digits(buf[off + i]);
    if (d < 0) return null;
    v = v * 100 + d;
  }
  return v;
}

/** The two decimal digits of one BCD byte (0..99), or -1 when a nibble is not a digit. */
function digits(b: number): number {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi > 9 || lo > 9 ? -1 : hi * 10 + lo;
}

/** Writes value as nBytes of big-endian BCD at out[off] (squelch 128 -> 01 28, tone 885 -> 00 08 85). */
export function encodeBcdBE(value: number, nBytes: number, out: Uint8Array, off: number): void {
  checkCount(value, nBytes, 'encodeBcdBE');
  checkRoom(out, off, nBytes, 'encodeBcdBE');
  let v = value;
  for (let i = nBytes - 1; i >= 0; i--) {
    const lo = v % 10;
    v = (v - lo) / 10;
    const hi = v % 10;
    v = (v - hi) / 10;
    out[off + i] = (hi << 4) | lo;
  }
}

/** Reads nBytes of big-endian BCD; null when a nibble is not a decimal digit or the bytes are missing. */
export function decodeBcdBE(buf: Uint8Array, off: number, nBytes: number): number | null {
  if (off < 0 || nBytes < 1 || off + nBytes > buf.length) return null;
  let v = 0;
  for (let i = 0; i < nBytes; i++) {
    const d = digits(buf[off + i]);
    if (d < 0) return null;
    v = v * 100 + d;
  }
  return v;
}
