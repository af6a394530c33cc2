import { decodeBcdBE, decodeFreq, encodeBcdBE, encodeFreq } from './bcd.js';
import { CIV, type CivFrame } from './frame.js';
import { modeByte, modeName, type Filter } from './modes.js';

// The CI-V commands the station uses, as the IC-705 / IC-9700 CI-V references define them
// (cross-checked against Hamlib rigs/icom/icom.c + icom_defs.h and flrig's IC705.cxx).
// A builder returns the request bytes plus how to recognise its answer; decoders read a
// matched reply and return null (never throw) when it is malformed.

export type VfoSlot = 0 | 1; // 0 = selected, 1 = unselected (0x25/0x26)

export interface CivRequest {
  cmd: number;
  data: Uint8Array;
  kind: 'set' | 'read';
  name: string;
  /** Leading bytes of data that are sub-command, not value; a read's reply repeats them. */
  subLen: number;
}

export const C = {
  XCV_FREQ: 0x00, XCV_MODE: 0x01, READ_FREQ: 0x03, READ_MODE: 0x04, SET_FREQ: 0x05, SET_MODE: 0x06,
  VFO: 0x07, SPLIT: 0x0f, LEVEL: 0x14, FUNC: 0x16, TONE: 0x1b, PTT: 0x1c, SEL_FREQ: 0x25, SEL_MODE: 0x26, SCOPE: 0x27,
} as const;
const S = { SQL: 0x03, TONE: 0x42, TSQL: 0x43, SATMODE: 0x5a, SCP_ON: 0x10, SCP_MODE: 0x14, SCP_SPAN: 0x15, MAIN_SCOPE: 0x00 } as const;

export const MAX_FREQ_HZ = 9_999_999_999; // 10 BCD digits in 5 bytes

/** The 50 standard CTCSS tones the IC-705/IC-9700 offer, 67.0..254.1 Hz. */
export const CTCSS_TONES_HZ: readonly number[] = Object.freeze([
  67.0, 69.3, 71.9, 74.4, 77.0, 79.7, 82.5, 85.4, 88.5, 91.5, 94.8, 97.4, 100.0, 103.5, 107.2, 110.9, 114.8, 118.8, 123.0, 127.3,
  131.8, 136.5, 141.3, 146.2, 151.4, 156.7, 159.8, 162.2, 165.5, 167.9, 171.3, 173.8, 177.3, 179.9, 183.5, 186.2, 189.9, 192.8, 196.6, 199.5,
  203.5, 206.5, 210.7, 218.1, 225.7, 229.1, 233.6, 241.8, 250.3, 254.1,
]);
const TONE_TENTHS = new Set(CTCSS_TONES_HZ.map((t) => Math.round(t * 10)));

/** Total scope spans (Hz) in centre mode; the radio's own ±2.5k..±500k are half of these. */
export const SCOPE_SPANS_HZ: readonly number[] = Object.freeze([5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000]);

export const SCOPE_MODES = ['center', 'fixed', 'scroll-center', 'scroll-fixed'] as const; // 00..03
export type ScopeMode = (typeof SCOPE_MODES)[number];

const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');
// Builders write straight into the request's own Uint8Array: they run several times per
// tracking step, so no intermediate arrays.
const set = (c: number, data: Uint8Array, subLen: number, name: string): CivRequest => ({ cmd: c, data, kind: 'set', name, subLen });
const read = (c: number, sub: number[], name: string): CivRequest => ({ cmd: c, data: Uint8Array.from(sub), kind: 'read', name, subLen: sub.length });
const set1 = (c: number, sub: number, v: number, name: string) => set(c, Uint8Array.of(sub, v), 1, name);
const slotName = (s: VfoSlot) => (s === 0 ? 'selected' : 'unselected');
const bool = (on: boolean) => (on ? 0x01 : 0x00);

function checkSlot(slot: VfoSlot): void {
  if (slot !== 0 && slot !== 1) throw new RangeError(`VFO slot ${String(slot)} is not 0 (selected) or 1 (unselected)`);
}

function checkOn(on: boolean, what: string): void {
  if (typeof on !== 'boolean') throw new RangeError(`${what}: ${String(on)} is not a boolean`);
}

/** [prefix...] + 5 frequency bytes. */
function withFreq(prefix: number[], hz: number): Uint8Array {
  if (!Number.isInteger(hz) || hz < 0 || hz > MAX_FREQ_HZ) throw new RangeError(`frequency ${hz} Hz is not an integer in 0..${MAX_FREQ_HZ}`);
  const b = new Uint8Array(prefix.length + 5);
  b.set(prefix);
  encodeFreq(hz, b, prefix.length, 5);
  return b;
}

function modeFor(mode: string, filter: Filter): { code: number; data: boolean } {
  const m = modeByte(mode);
  if (!m) throw new RangeError(`unknown operating mode ${JSON.stringify(mode)}`);
  if (filter !== 1 && filter !== 2 && filter !== 3) throw new RangeError(`filter ${String(filter)} is not 1, 2 or 3`);
  return m;
}

/** 1B <which> + tone in tenths of Hz, 6 digits big-endian: 88.5 -> 00 08 85. */
function tone(which: 0 | 1, hz: number, name: string): CivRequest {
  const tenths = Math.round(hz * 10);
  if (typeof hz !== 'number' || Math.abs(hz * 10 - tenths) > 1e-6 || !TONE_TENTHS.has(tenths)) {
    throw new RangeError(`tone ${hz} Hz is not a standard CTCSS tone (67.0..254.1 Hz)`);
  }
  const b = new Uint8Array(4);
  b[0] = which;
  encodeBcdBE(tenths, 3, b, 1);
  return set(C.TONE, b, 1, `${name} ${hz} Hz`);
}

/** The 5 span bytes for a TOTAL span: the radio takes the half-span (±value), LE BCD. 1 MHz -> 00 00 50 00 00. */
export function scopeSpan(totalHz: number): Uint8Array {
  if (!SCOPE_SPANS_HZ.includes(totalHz)) throw new RangeError(`scope span ${totalHz} Hz is not one of ${SCOPE_SPANS_HZ.join(', ')} (total width)`);
  const b = new Uint8Array(5);
  encodeFreq(totalHz / 2, b, 0, 5);
  return b;
}

export const cmd = {
  selectVfo(v: 'A' | 'B'): CivRequest {
    if (v !== 'A' && v !== 'B') throw new RangeError(`VFO ${String(v)} is not A or B`);
    return set(C.VFO, Uint8Array.of(v === 'A' ? 0x00 : 0x01), 1, `select VFO ${v}`);
  },
  /** IC-9700: 07 D0 MAIN band, 07 D1 SUB band. */
  selectBand(b: 'MAIN' | 'SUB'): CivRequest {
    if (b !== 'MAIN' && b !== 'SUB') throw new RangeError(`band ${String(b)} is not MAIN or SUB`);
    return set(C.VFO, Uint8Array.of(b === 'MAIN' ? 0xd0 : 0xd1), 1, `select ${b} band`);
  },
  /** 07 B0: IC-705 exchanges VFO A and B; IC-9700 exchanges the MAIN and SUB bands. */
  exchange: (): CivRequest => set(C.VFO, Uint8Array.of(0xb0), 1, 'exchange A/B (MAIN/SUB)'),
  setSplit(on: boolean): CivRequest {
    checkOn(on, 'split');
    return set(C.SPLIT, Uint8Array.of(bool(on)), 1, on ? 'split on' : 'split off');
  },
  readSplit: (): CivRequest => read(C.SPLIT, [], 'read split'),
  /** 1C 00 00/01: transmit off/on (PTT over CI-V). */
  setTransmit(on: boolean): CivRequest {
    checkOn(on, 'transmit');
    return set1(C.PTT, 0x00, bool(on), on ? 'transmit on' : 'transmit off');
  },
  /** 1C 00: is the rig transmitting? (reply 1C 00 00/01). */
  readTransmit: (): CivRequest => read(C.PTT, [0x00], 'read transmit'),
  setVfoFreq(slot: VfoSlot, hz: number): CivRequest {
    checkSlot(slot);
    return set(C.SEL_FREQ, withFreq([slot], hz), 1, `set ${slotName(slot)} VFO frequency ${hz} Hz`);
  },
  readVfoFreq(slot: VfoSlot): CivRequest {
    checkSlot(slot);
    return read(C.SEL_FREQ, [slot], `read ${slotName(slot)} VFO frequency`);
  },
  /** 26 <slot> <mode> <data mode 00/01> <filter>. */
  setVfoMode(slot: VfoSlot, mode: string, filter: Filter = 1): CivRequest {
    checkSlot(slot);
    const m = modeFor(mode, filter);
    return set(C.SEL_MODE, Uint8Array.of(slot, m.code, bool(m.data), filter), 1, `set ${slotName(slot)} VFO mode ${mode} FIL${filter}`);
  },
  readVfoMode(slot: VfoSlot): CivRequest {
    checkSlot(slot);
    return read(C.SEL_MODE, [slot], `read ${slotName(slot)} VFO mode`);
  },
  setFreq: (hz: number): CivRequest => set(C.SET_FREQ, withFreq([], hz), 0, `set frequency ${hz} Hz`),
  readFreq: (): CivRequest => read(C.READ_FREQ, [], 'read frequency'),
  /** 06 <mode> <filter>. 06 has no data-mode field: "-D" modes go through setVfoMode. */
  setMode(mode: string, filter: Filter = 1): CivRequest {
    const m = modeFor(mode, filter);
    if (m.data) throw new RangeError(`mode ${mode}: command 06 cannot set data mode, use setVfoMode`);
    return set(C.SET_MODE, Uint8Array.of(m.code, filter), 0, `set mode ${mode} FIL${filter}`);
  },
  readMode: (): CivRequest => read(C.READ_MODE, [], 'read mode'),
  /** 14 03 <0000..0255 big-endian BCD>. */
  setSquelch(level: number): CivRequest {
    if (!Number.isInteger(level) || level < 0 || level > 255) throw new RangeError(`squelch level ${level} is not an integer in 0..255`);
    const b = Uint8Array.of(S.SQL, 0, 0);
    encodeBcdBE(level, 2, b, 1);
    return set(C.LEVEL, b, 1, `set squelch ${level}`);
  },
  readSquelch: (): CivRequest => read(C.LEVEL, [S.SQL], 'read squelch'),
  setScopeOn(on: boolean): CivRequest {
    checkOn(on, 'scope');
    return set1(C.SCOPE, S.SCP_ON, bool(on), on ? 'scope on' : 'scope off');
  },
  readScopeOn: (): CivRequest => read(C.SCOPE, [S.SCP_ON], 'read scope on/off'),
  /** 27 14 00 <00 center | 01 fixed | 02 scroll-C | 03 scroll-F> (00 = main scope). */
  setScopeMode(mode: ScopeMode): CivRequest {
    const i = SCOPE_MODES.indexOf(mode);
    if (i < 0) throw new RangeError(`scope mode ${JSON.stringify(mode)} is not one of ${SCOPE_MODES.join(', ')}`);
    return set(C.SCOPE, Uint8Array.of(S.SCP_MODE, S.MAIN_SCOPE, i), 2, `scope mode ${mode}`);
  },
  readScopeMode: (): CivRequest => read(C.SCOPE, [S.SCP_MODE, S.MAIN_SCOPE], 'read scope mode'),
  /** 27 15 00 <half of totalHz, 5-byte LE BCD>. */
  setScopeSpan(totalHz: number): CivRequest {
    const b = Uint8Array.of(S.SCP_SPAN, S.MAIN_SCOPE, 0, 0, 0, 0, 0);
    b.set(scopeSpan(totalHz), 2);
    return set(C.SCOPE, b, 2, `scope span ${totalHz} Hz`);
  },
  readScopeSpan: (): CivRequest => read(C.SCOPE, [S.SCP_SPAN, S.MAIN_SCOPE], 'read scope span'),
  /** 1B 00 <tone in 0.1 Hz, 3-byte BE BCD>: repeater (transmit) tone. */
  setToneFreq: (hz: number): CivRequest => tone(0x00, hz, 'set repeater tone'),
  readToneFreq: (): CivRequest => read(C.TONE, [0x00], 'read repeater tone'),
  /** 1B 01: tone-squelch tone. */
  setTsqlFreq: (hz: number): CivRequest => tone(0x01, hz, 'set TSQL tone'),
  readTsqlFreq: (): CivRequest => read(C.TONE, [0x01], 'read TSQL tone'),
  setToneOn(on: boolean): CivRequest {
    checkOn(on, 'tone');
    return set1(C.FUNC, S.TONE, bool(on), on ? 'repeater tone on' : 'repeater tone off');
  },
  readToneOn: (): CivRequest => read(C.FUNC, [S.TONE], 'read repeater tone on/off'),
  setTsqlOn(on: boolean): CivRequest {
    checkOn(on, 'tone squelch');
    return set1(C.FUNC, S.TSQL, bool(on), on ? 'tone squelch on' : 'tone squelch off');
  },
  readTsqlOn: (): CivRequest => read(C.FUNC, [S.TSQL], 'read tone squelch on/off'),
  /** IC-9700 satellite mode: 16 5A 00/01. */
  setSatMode(on: boolean): CivRequest {
    checkOn(on, 'satellite mode');
    return set1(C.FUNC, S.SATMODE, bool(on), on ? 'satellite mode on' : 'satellite mode off');
  },
  readSatMode: (): CivRequest => read(C.FUNC, [S.SATMODE], 'read satellite mode'),
};

/**
 * Is f the answer to req? 'reply' = a read's data frame (rig -> controller, same command and
 * sub-command bytes, plus a value); 'ok' = FB to a set; 'ng' = FA to anything; null = not
 * ours (our own echo, a broadcast, another command's reply, an OK where data was due).
 */
export function matchReply(req: CivRequest, f: CivFrame, rigAddr: number, ctlAddr: number = CIV.CONTROLLER): 'reply' | 'ok' | 'ng' | null {
  if (f.from !== rigAddr || f.to !== ctlAddr) return null;
  if (f.cmd === CIV.NG) return f.data.length === 0 ? 'ng' : null;
  if (f.cmd === CIV.OK) return req.kind === 'set' && f.data.length === 0 ? 'ok' : null;
  if (req.kind !== 'read' || f.cmd !== req.cmd || f.data.length <= req.subLen) return null;
  for (let i = 0; i < req.subLen; i++) if (f.data[i] !== req.data[i]) return null;
  return 'reply';
}

/** A transceive broadcast: the operator changed frequency (00) or mode (01) on the radio. */
export function isTransceive(f: CivFrame): boolean {
  return f.to === CIV.BROADCAST && (f.cmd === C.XCV_FREQ || f.cmd === C.XCV_MODE);
}

const freqAt = (d: Uint8Array, off: number): number | null => (d.length - off === 5 || d.length - off === 6 ? decodeFreq(d, off, d.length - off) : null);
const flag = (v: number): boolean | null => (v === 0 ? false : v === 1 ? true : null);
const isSlot = (v: number) => v === 0 || v === 1;

export const decode = {
  /** 00 broadcast, 03 reply, 05 (as sent): 5 or 6 bytes; 25: slot byte then 5 or 6 bytes. */
  freq(f: CivFrame): number | null {
    const d = f.data;
    if (f.cmd === C.XCV_FREQ || f.cmd === C.READ_FREQ || f.cmd === C.SET_FREQ) return freqAt(d, 0);
    if (f.cmd === C.SEL_FREQ && d.length > 0 && isSlot(d[0])) return freqAt(d, 1);
    return null;
  },
  /** 01/04/06: mode [filter] (filter 0 when absent); 26: slot mode data-mode [filter]. */
  mode(f: CivFrame): { mode: string; filter: number } | null {
    const d = f.data;
    let code: number, data: boolean | null = false, filter: number | undefined;
    if (f.cmd === C.XCV_MODE || f.cmd === C.READ_MODE || f.cmd === C.SET_MODE) {
      if (d.length < 1 || d.length > 2) return null;
      [code, filter] = [d[0], d[1]];
    } else if (f.cmd === C.SEL_MODE) {
      if ((d.length !== 3 && d.length !== 4) || !isSlot(d[0])) return null;
      [code, data, filter] = [d[1], flag(d[2]), d[3]];
      if (data === null) return null;
    } else return null;
    if (filter !== undefined && (filter < 1 || filter > 3)) return null;
    const mode = modeName(code, data);
    return mode === null ? null : { mode, filter: filter ?? 0 };
  },
  /** 0F (split: 00 off, 01 on; 10..13 are simplex/duplex states, i.e. split off), 27 10 xx, 16 xx yy, 1C 00 xx (transmitting). */
  onOff(f: CivFrame): boolean | null {
    const d = f.data;
    if (f.cmd === C.SPLIT) return d.length !== 1 ? null : d[0] >= 0x10 && d[0] <= 0x13 ? false : flag(d[0]);
    if (f.cmd === C.SCOPE) return d.length === 2 && d[0] === S.SCP_ON ? flag(d[1]) : null;
    if (f.cmd === C.FUNC) return d.length === 2 ? flag(d[1]) : null;
    if (f.cmd === C.PTT) return d.length === 2 && d[0] === 0x00 ? flag(d[1]) : null;
    return null;
  },
  /** 14 03 hh ll -> 0..255. */
  squelch(f: CivFrame): number | null {
    const d = f.data;
    if (f.cmd !== C.LEVEL || d.length !== 3 || d[0] !== S.SQL) return null;
    const v = decodeBcdBE(d, 1, 2);
    return v !== null && v <= 255 ? v : null;
  },
  /** 27 14 ss mm -> 'center' | 'fixed' | 'scroll-center' | 'scroll-fixed'. */
  scopeMode(f: CivFrame): ScopeMode | null {
    const d = f.data;
    if (f.cmd !== C.SCOPE || d.length !== 3 || d[0] !== S.SCP_MODE || !isSlot(d[1])) return null;
    return SCOPE_MODES[d[2]] ?? null;
  },
  /** 27 15 ss <5-byte LE BCD half-span> -> TOTAL span in Hz. */
  scopeSpan(f: CivFrame): number | null {
    const d = f.data;
    if (f.cmd !== C.SCOPE || d.length !== 7 || d[0] !== S.SCP_SPAN || !isSlot(d[1])) return null;
    const half = decodeFreq(d, 2, 5);
    return half === null ? null : half * 2;
  },
  /** 1B 00|01 <3-byte BE BCD, 0.1 Hz> -> Hz (88.5). */
  tone(f: CivFrame): number | null {
    const d = f.data;
    if (f.cmd !== C.TONE || d.length !== 4 || (d[0] !== 0x00 && d[0] !== 0x01)) return null;
    const tenths = decodeBcdBE(d, 1, 3);
    return tenths === null ? null : tenths / 10;
  },
};

/** For logs: "25 00" style label of a request's command and sub-command. */
export const requestLabel = (r: CivRequest): string => [r.cmd, ...r.data.subarray(0, r.subLen)].map(hex).join(' ');
