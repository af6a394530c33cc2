import { decodeBcdBE } from '../civ/bcd.js';
import { ACK } from './commands.js';
import { readMode, type YaesuMode } from './modes.js';

// Decoders of what the radio sends back. They take the bytes as read (buf at off) and return a
// typed value or a Garbled naming what was wrong; they never throw on radio bytes, so a noisy
// line is a value the driver handles, not an exception. The Garbled answers are shared constants:
// the poll loop decodes several replies a tick and a bad line should not allocate either.

export interface Garbled {
  readonly garbled: string;
}
const garbled = (why: string): Garbled => Object.freeze({ garbled: why });
const SHORT = garbled('reply too short');
const NOT_BCD = garbled('frequency is not BCD');
const BAD_MODE = garbled('unknown mode byte');
const BAD_ACK = garbled('ACK byte is neither 00 nor F0');

export const isGarbled = (r: unknown): r is Garbled => typeof r === 'object' && r !== null && 'garbled' in r;

const has = (buf: ArrayLike<number>, off: number, n: number) => Number.isInteger(off) && off >= 0 && off + n <= buf.length;

export interface FreqMode {
  hz: number;
  mode: YaesuMode;
  /** The narrow filter is on (bit 7 of the mode byte). */
  narrow: boolean;
}

/** The 5-byte reply to 03: frequency (8 BCD digits of 10 Hz) and mode byte. */
export function decodeFreqMode(buf: Uint8Array, off = 0): FreqMode | Garbled {
  if (!has(buf, off, 5)) return SHORT;
  const tens = decodeBcdBE(buf, off, 4);
  if (tens === null) return NOT_BCD;
  const m = readMode(buf[off + 4]);
  if (m === null) return BAD_MODE;
  return { hz: tens * 10, mode: m.mode, narrow: m.narrow };
}

export interface TxStatus {
  /** Transmitting, by CAT or by the operator's microphone (bit 7 is 0 while keyed). */
  keyed: boolean;
  // The rest is valid only while keyed (at rest the radio answers FF): null then.
  /** Bit 6: the radio measures a high SWR. */
  highSwr: boolean | null;
  /** Bit 5 set: split is on (Hamlib's reading; see docs/decisions/yaesu.md). */
  split: boolean | null;
  /** Bits 0..3: the power meter, 0..15 bars. */
  powerMeter: number | null;
}

const AT_REST: TxStatus = Object.freeze({ keyed: false, highSwr: null, split: null, powerMeter: null });

/** The 1-byte reply to F7. */
export function decodeTxStatus(buf: Uint8Array, off = 0): TxStatus | Garbled {
  if (!has(buf, off, 1)) return SHORT;
  const b = buf[off];
  if (b & 0x80) return AT_REST;
  return { keyed: true, highSwr: (b & 0x40) !== 0, split: (b & 0x20) !== 0, powerMeter: b & 0x0f };
}

export interface RxStatus {
  /** Bit 7 clear: the squelch is open (a signal, or squelch off). */
  squelchOpen: boolean;
  /** Bit 6 clear: the received CTCSS/DCS code matches. */
  toneMatched: boolean;
  /** Bit 5 clear: the FM discriminator is centred. */
  centered: boolean;
  /** Bits 0..3: the S-meter, 0 (S0) .. 9 (S9) .. 15 (S9+60). */
  sMeter: number;
}

/** The 1-byte reply to E7. */
export function decodeRxStatus(buf: Uint8Array, off = 0): RxStatus | Garbled {
  if (!has(buf, off, 1)) return SHORT;
  const b = buf[off];
  return { squelchOpen: (b & 0x80) === 0, toneMatched: (b & 0x40) === 0, centered: (b & 0x20) === 0, sMeter: b & 0x0f };
}

/** The ACK byte of a command other than a read: 00 done, F0 refused. */
export function decodeAck(buf: Uint8Array, off = 0): 'ok' | 'rejected' | Garbled {
  if (!has(buf, off, 1)) return SHORT;
  const b = buf[off];
  return b === ACK.OK ? 'ok' : b === ACK.REJECTED ? 'rejected' : BAD_ACK;
}

/** The 2-byte reply to BB: the byte at the address asked for comes first. */
export function decodeEeprom(buf: Uint8Array, off = 0): number | Garbled {
  return has(buf, off, 2) ? buf[off] : SHORT;
}

/** The EEPROM VFO byte (models.ts eeprom.vfo): bit 0 clear is VFO A. */
export const vfoFromEeprom = (byte: number): 'A' | 'B' => ((byte & 0x01) === 0 ? 'A' : 'B');
/** The EEPROM split byte (models.ts eeprom.split): bit 7 set is split on; valid at rest, unlike F7's bit. */
export const splitFromEeprom = (byte: number): boolean => (byte & 0x80) !== 0;
