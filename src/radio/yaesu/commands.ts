import { encodeBcdBE } from '../civ/bcd.js';
import { CTCSS_TONES_HZ } from '../civ/commands.js';
import { modelInfo, type YaesuModel } from './models.js';
import { setModeCode } from './modes.js';

// Yaesu's 5-byte CAT (FT-817/818/857/897): every command is P1 P2 P3 P4 OPCODE, parameters
// first, unused ones 00; 4800/9600/38400 baud, 8N2. There is no framing: the radio counts bytes.
// Numbers are big-endian packed BCD (the frequency in 10 Hz steps: 145.800.000 Hz is 14 58 00 00).
// What comes back:
// - 03 (frequency and mode): 5 bytes, the frequency as above and a mode byte (modes.ts);
// - E7 (RX status) and F7 (TX status): 1 byte (replies.ts);
// - BB (EEPROM read): 2 bytes, the byte at the address and the next one;
// - every other command: one ACK byte, 00 when done, F0 when refused (a PTT, lock or split
//   command that finds the radio already in that state, or any control but PTT off while the
//   radio transmits: Hamlib issue 1052 shows an FT-857 keyed by VOX answering F0 to 01).
// Hamlib (4.5.4, ft817_read_ack for all four models) reads that byte after every such command.
// Encoders write into the caller's buffer and return the offset after the command; they throw
// RangeError on a caller's bug (a value no radio takes), never on anything the radio sends.

export const CAT_LEN = 5;

export const OP = {
  LOCK_ON: 0x00,
  SET_FREQ: 0x01,
  SPLIT_ON: 0x02,
  READ_FREQ_MODE: 0x03,
  SET_MODE: 0x07,
  PTT_ON: 0x08,
  TONE_MODE: 0x0a,
  CTCSS_TONE: 0x0b,
  LOCK_OFF: 0x80,
  TOGGLE_VFO: 0x81,
  SPLIT_OFF: 0x82,
  PTT_OFF: 0x88,
  READ_EEPROM: 0xbb,
  READ_RX_STATUS: 0xe7,
  READ_TX_STATUS: 0xf7,
} as const;

export const ACK = { OK: 0x00, REJECTED: 0xf0 } as const;

/** Commands whose five bytes are fixed: no parameters. */
export type FixedOp =
  | typeof OP.LOCK_ON | typeof OP.LOCK_OFF | typeof OP.PTT_ON | typeof OP.PTT_OFF | typeof OP.TOGGLE_VFO
  | typeof OP.SPLIT_ON | typeof OP.SPLIT_OFF | typeof OP.READ_FREQ_MODE | typeof OP.READ_RX_STATUS | typeof OP.READ_TX_STATUS;
const FIXED = new Set<number>([OP.LOCK_ON, OP.LOCK_OFF, OP.PTT_ON, OP.PTT_OFF, OP.TOGGLE_VFO, OP.SPLIT_ON, OP.SPLIT_OFF, OP.READ_FREQ_MODE, OP.READ_RX_STATUS, OP.READ_TX_STATUS]);

/** How many bytes the radio answers to the opcode: the data of a read, else the one ACK byte. */
export function replyLength(opcode: number): number {
  if (opcode === OP.READ_FREQ_MODE) return 5;
  if (opcode === OP.READ_EEPROM) return 2;
  return 1; // E7, F7: their status byte; everything else: the ACK
}

/** Does the opcode's one-byte answer mean ACK (00 done / F0 refused)? False for the reads. */
export const answersAck = (opcode: number): boolean =>
  opcode !== OP.READ_FREQ_MODE && opcode !== OP.READ_EEPROM && opcode !== OP.READ_RX_STATUS && opcode !== OP.READ_TX_STATUS;

/** The highest frequency 8 BCD digits of 10 Hz hold (after rounding to 10 Hz). */
export const MAX_FREQ_HZ = 999_999_994;

export type ToneMode = 'off' | 'ctcss' | 'ctcss-enc' | 'ctcss-dec' | 'dcs' | 'dcs-enc' | 'dcs-dec';

// P1 of 0A. "ctcss" is tone squelch (encode and decode), "ctcss-enc" the repeater tone only.
// The FT-817/818 know only the first four.
const TONE_MODE_FT817: Readonly<Partial<Record<ToneMode, number>>> = Object.freeze({ off: 0x8a, dcs: 0x0a, ctcss: 0x2a, 'ctcss-enc': 0x4a });
const TONE_MODE_FT857: Readonly<Partial<Record<ToneMode, number>>> = Object.freeze({ ...TONE_MODE_FT817, 'ctcss-dec': 0x3a, 'dcs-dec': 0x0b, 'dcs-enc': 0x0c });

const TONE_TENTHS = new Set(CTCSS_TONES_HZ.map((t) => Math.round(t * 10)));

function put(out: Uint8Array, off: number, p1: number, p2: number, p3: number, p4: number, op: number): number {
  if (!Number.isInteger(off) || off < 0 || off + CAT_LEN > out.length) throw new RangeError(`CAT command: 5 bytes at offset ${off} do not fit in ${out.length}`);
  out[off] = p1;
  out[off + 1] = p2;
  out[off + 2] = p3;
  out[off + 3] = p4;
  out[off + 4] = op;
  return off + CAT_LEN;
}

/** A command without parameters: 00 00 00 00 <op>. */
export function writeFixed(out: Uint8Array, off: number, op: FixedOp): number {
  if (!FIXED.has(op)) throw new RangeError(`opcode ${op} is not a fixed CAT command`);
  return put(out, off, 0, 0, 0, 0, op);
}

/** 01: the current VFO's frequency, rounded to 10 Hz as Hamlib does ((hz + 5) / 10). */
export function writeSetFreq(out: Uint8Array, off: number, hz: number): number {
  if (typeof hz !== 'number' || !Number.isFinite(hz) || hz < 0 || hz > MAX_FREQ_HZ) throw new RangeError(`frequency ${hz} Hz is not in 0..${MAX_FREQ_HZ}`);
  const end = put(out, off, 0, 0, 0, 0, OP.SET_FREQ);
  encodeBcdBE(Math.floor((hz + 5) / 10), 4, out, off);
  return end;
}

/** 07: the current VFO's mode (modes.ts names and the station's USB-D / FM-D spellings). */
export function writeSetMode(out: Uint8Array, off: number, mode: string): number {
  const code = setModeCode(mode);
  if (code === null) throw new RangeError(`mode ${JSON.stringify(mode)} cannot be set by CAT on the FT-817/857 family`);
  return put(out, off, code, 0, 0, 0, OP.SET_MODE);
}

/** 0A: CTCSS/DCS mode of the current VFO; the decoder- and encoder-only DCS and CTCSS decoder exist on the FT-857/897 only. */
export function writeToneMode(out: Uint8Array, off: number, model: YaesuModel, mode: ToneMode): number {
  const table = modelInfo(model).family === 'FT-857' ? TONE_MODE_FT857 : TONE_MODE_FT817;
  const code = table[mode];
  if (code === undefined) throw new RangeError(`tone mode ${JSON.stringify(mode)} does not exist on the ${model}`);
  return put(out, off, code, 0, 0, 0, OP.TONE_MODE);
}

/**
 * 0B: the CTCSS tone, tenths of Hz in BCD (88.5 Hz is 08 85), written into both pairs: P1 P2 is
 * the transmit tone, P3 P4 the receive tone on the FT-857/897, which leave the tone unset when
 * P3 P4 is not a valid tone (SatPC32's FT-897 fix, AMSAT-BB 2009; Hamlib does the same for all
 * four). The FT-817/818 ignore P3 P4, so one encoding serves every model.
 */
export function writeCtcssTone(out: Uint8Array, off: number, hz: number): number {
  const tenths = Math.round(hz * 10);
  if (typeof hz !== 'number' || Math.abs(hz * 10 - tenths) > 1e-6 || !TONE_TENTHS.has(tenths)) throw new RangeError(`tone ${hz} Hz is not a standard CTCSS tone (67.0..254.1 Hz)`);
  const end = put(out, off, 0, 0, 0, 0, OP.CTCSS_TONE);
  encodeBcdBE(tenths, 2, out, off);
  encodeBcdBE(tenths, 2, out, off + 2);
  return end;
}

/** BB: read two EEPROM bytes starting at addr (P1 high byte, P2 low byte). */
export function writeReadEeprom(out: Uint8Array, off: number, addr: number): number {
  if (!Number.isInteger(addr) || addr < 0 || addr > 0xffff) throw new RangeError(`EEPROM address ${addr} is not in 0..0xFFFF`);
  return put(out, off, addr >> 8, addr & 0xff, 0, 0, OP.READ_EEPROM);
}

const fresh = (write: (out: Uint8Array) => number): Uint8Array => {
  const out = new Uint8Array(CAT_LEN);
  write(out);
  return out;
};

/** Each command as a new 5-byte array, for code off the hot path (tests, one-off reads). */
export const cat = {
  lock: (on: boolean) => fresh((o) => writeFixed(o, 0, on ? OP.LOCK_ON : OP.LOCK_OFF)),
  ptt: (on: boolean) => fresh((o) => writeFixed(o, 0, on ? OP.PTT_ON : OP.PTT_OFF)),
  split: (on: boolean) => fresh((o) => writeFixed(o, 0, on ? OP.SPLIT_ON : OP.SPLIT_OFF)),
  toggleVfo: () => fresh((o) => writeFixed(o, 0, OP.TOGGLE_VFO)),
  readFreqMode: () => fresh((o) => writeFixed(o, 0, OP.READ_FREQ_MODE)),
  readRxStatus: () => fresh((o) => writeFixed(o, 0, OP.READ_RX_STATUS)),
  readTxStatus: () => fresh((o) => writeFixed(o, 0, OP.READ_TX_STATUS)),
  setFreq: (hz: number) => fresh((o) => writeSetFreq(o, 0, hz)),
  setMode: (mode: string) => fresh((o) => writeSetMode(o, 0, mode)),
  toneMode: (model: YaesuModel, mode: ToneMode) => fresh((o) => writeToneMode(o, 0, model, mode)),
  ctcssTone: (hz: number) => fresh((o) => writeCtcssTone(o, 0, hz)),
  readEeprom: (addr: number) => fresh((o) => writeReadEeprom(o, 0, addr)),
};
