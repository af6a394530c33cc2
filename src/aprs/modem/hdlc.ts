// HDLC framing of AX.25 frames for the air (AX.25 2.2 §3: flags, FCS, bit stuffing; NRZI line
// coding as 1200 bd packet uses it). Input: raw AX.25 bytes without flags or FCS, what encodeAx25
// gives. Output: one byte per bit, written into a caller-provided buffer (no allocation per call).
//   flag      0x7E, never stuffed
//   FCS       CRC-16/X.25: reflected poly 0x8408, init 0xFFFF, final xor 0xFFFF, low byte first
//   bit order every byte least significant bit first, FCS included
//   stuffing  a 0 after five consecutive 1s between the opening and closing flag
//   NRZI      a 0 bit changes the tone, a 1 bit keeps it (tone 1 = mark, 0 = space)
// A transmission is: leadFlags flags (TXDELAY), frame, betweenFlags flags, frame, ..., tailFlags
// flags. Pure: no I/O, no dependencies.

export const HDLC_FLAG = 0x7e;
/** Tone values written by nrziInPlace / writeHdlcTones. */
export const TONE_MARK = 1;
export const TONE_SPACE = 0;

const FCS_TABLE = (() => {
  const t = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x8408 : c >>> 1;
    t[i] = c;
  }
  return t;
})();

/** CRC-16/X.25 of bytes[start, end): the AX.25 FCS ("123456789" → 0x906E). Sent low byte first. */
export function fcs16(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let crc = 0xffff;
  for (let i = start; i < end; i++) crc = (crc >>> 8) ^ FCS_TABLE[(crc ^ bytes[i]) & 0xff];
  return (crc ^ 0xffff) & 0xffff;
}

export interface HdlcLayout {
  /** Flags before the first frame (TXDELAY); at least 1, the opening flag. */
  leadFlags: number;
  /** Flags after the last frame (TXTAIL); at least 1, the closing flag. */
  tailFlags: number;
  /** Flags between two frames of one transmission; at least 1 (one flag closes one frame and opens the next). Default 1. */
  betweenFlags?: number;
}

function flagsOf(layout: HdlcLayout): [lead: number, between: number, tail: number] {
  const { leadFlags: lead, tailFlags: tail, betweenFlags: between = 1 } = layout;
  for (const [n, what] of [[lead, 'leadFlags'], [between, 'betweenFlags'], [tail, 'tailFlags']] as const) {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`HDLC ${what} must be an integer of at least 1, got ${n}`);
  }
  return [lead, between, tail];
}

/** Bits of one frame plus its FCS after stuffing (no flags). */
export function stuffedBitCount(frame: Uint8Array): number {
  const fcs = fcs16(frame);
  const len = frame.length;
  let n = 0;
  let ones = 0;
  for (let i = 0; i < len + 2; i++) {
    const b = i < len ? frame[i] : i === len ? fcs & 0xff : fcs >>> 8;
    for (let k = 0; k < 8; k++) {
      n++;
      if ((b >>> k) & 1) {
        if (++ones === 5) {
          n++;
          ones = 0;
        }
      } else ones = 0;
    }
  }
  return n;
}

/** Exact bit count of a transmission (flags, stuffed frames and FCS). */
export function hdlcBitCount(frames: readonly Uint8Array[], layout: HdlcLayout): number {
  const [lead, between, tail] = flagsOf(layout);
  let n = 8 * (lead + tail + between * Math.max(0, frames.length - 1));
  for (const f of frames) n += stuffedBitCount(f);
  return n;
}

/** An upper bound of hdlcBitCount without scanning the bytes (at most one stuffed bit per five): for sizing buffers. */
export function hdlcMaxBits(frames: readonly Uint8Array[], layout: HdlcLayout): number {
  const [lead, between, tail] = flagsOf(layout);
  let n = 8 * (lead + tail + between * Math.max(0, frames.length - 1));
  for (const f of frames) {
    const bits = (f.length + 2) * 8;
    n += bits + Math.floor(bits / 5);
  }
  return n;
}

function writeFlags(out: Uint8Array, at: number, count: number): number {
  // 0x7E least significant bit first: 0 1 1 1 1 1 1 0
  for (let i = 0; i < count; i++) {
    out[at] = 0;
    out[at + 1] = 1;
    out[at + 2] = 1;
    out[at + 3] = 1;
    out[at + 4] = 1;
    out[at + 5] = 1;
    out[at + 6] = 1;
    out[at + 7] = 0;
    at += 8;
  }
  return at;
}

function writeStuffed(out: Uint8Array, at: number, frame: Uint8Array): number {
  const fcs = fcs16(frame);
  const len = frame.length;
  let ones = 0;
  for (let i = 0; i < len + 2; i++) {
    const b = i < len ? frame[i] : i === len ? fcs & 0xff : fcs >>> 8;
    for (let k = 0; k < 8; k++) {
      const bit = (b >>> k) & 1;
      out[at++] = bit;
      if (bit) {
        if (++ones === 5) {
          out[at++] = 0;
          ones = 0;
        }
      } else ones = 0;
    }
  }
  return at;
}

/**
 * Writes the raw (pre-NRZI) bits of one transmission into `out`, one bit per byte (0 or 1), and
 * answers how many. `out` must hold hdlcMaxBits(frames, layout) bytes (RangeError otherwise), so
 * a caller can size it once without scanning. Frames are AX.25 bytes without FCS; each gets its FCS.
 */
export function writeHdlcBits(out: Uint8Array, frames: readonly Uint8Array[], layout: HdlcLayout): number {
  const need = hdlcMaxBits(frames, layout);
  if (out.length < need) throw new RangeError(`HDLC output buffer holds ${out.length} bits, needs up to ${need}`);
  const [lead, between, tail] = flagsOf(layout);
  let n = writeFlags(out, 0, lead);
  for (let i = 0; i < frames.length; i++) {
    if (i > 0) n = writeFlags(out, n, between);
    n = writeStuffed(out, n, frames[i]);
  }
  return writeFlags(out, n, tail);
}

/**
 * NRZI in place over buf[0, n): a 0 bit changes the tone, a 1 bit keeps it. `tone` is the tone
 * before the first bit (TONE_MARK or TONE_SPACE); answers the tone after the last one.
 */
export function nrziInPlace(buf: Uint8Array, n: number, tone: number = TONE_MARK): number {
  let t = tone & 1;
  for (let i = 0; i < n; i++) {
    if (buf[i] === 0) t ^= 1;
    buf[i] = t;
  }
  return t;
}

/**
 * The tone sequence of one transmission (writeHdlcBits then NRZI from `tone`): buf[i] is
 * TONE_MARK or TONE_SPACE for bit i. Answers the bit count.
 */
export function writeHdlcTones(out: Uint8Array, frames: readonly Uint8Array[], layout: HdlcLayout, tone: number = TONE_MARK): number {
  const n = writeHdlcBits(out, frames, layout);
  nrziInPlace(out, n, tone);
  return n;
}

/** writeHdlcBits into a new buffer of exactly the right length (tests, tools; not for the hot path). */
export function hdlcBits(frames: readonly Uint8Array[], layout: HdlcLayout): Uint8Array {
  const buf = new Uint8Array(hdlcMaxBits(frames, layout));
  return buf.slice(0, writeHdlcBits(buf, frames, layout));
}
