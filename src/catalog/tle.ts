// Three-line TLE text → OMM mean elements, exactly (pure).
// Column layout: CelesTrak "NORAD Two-Line Element Set Format"; checksum is mod 10 over columns
// 1–68 with digits counting their value and '-' counting 1. Alpha-5 catalogue numbers (a letter
// for the leading digit, I and O skipped) carry NORAD ids 100000–339999.
import type { OmmElements } from './types.js';

export interface TleSet {
  name: string;
  line1: string;
  line2: string;
}

export interface RecordFailure {
  norad_id: number | null;
  name: string;
  reason: string;
}

const ALPHA5 = 'ABCDEFGHJKLMNPQRSTUVWXYZ'; // A=10 … Z=33, no I or O

/** '25544' → 25544, 'A0001' → 100001; null for anything else. */
export function parseCatalogNumber(field: string): number | null {
  const s = field.trim();
  if (/^\d{1,5}$/.test(s)) return Number(s);
  if (/^[A-HJ-NP-Z]\d{4}$/.test(s)) return (ALPHA5.indexOf(s[0]) + 10) * 10000 + Number(s.slice(1));
  return null;
}

export function tleChecksum(line: string): number {
  let sum = 0;
  for (let i = 0; i < 68; i++) {
    const c = line.charCodeAt(i);
    if (c >= 48 && c <= 57) sum += c - 48;
    else if (c === 45) sum += 1;
  }
  return sum % 10;
}

export function tleChecksumOk(line: string): boolean {
  return line.length === 69 && tleChecksum(line) === line.charCodeAt(68) - 48;
}

/** "-11606-4" style implied-decimal exponent fields (nddot, bstar). */
function impliedExp(field: string): number {
  const f = field.trim();
  if (f === '') return 0;
  const m = /^([+-]?)(\d{1,5})([+-]\d)$/.exec(f);
  if (!m) return NaN;
  return parseFloat(`${m[1]}0.${m[2]}e${m[3]}`);
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/**
 * TLE epoch (2-digit year, day of year with 8 decimals) → CelesTrak's EPOCH text with microseconds.
 * 1e-8 day = 864 µs exactly, so the conversion is exact in integers.
 */
export function tleEpochToIso(yy: number, dayField: string): string | null {
  const m = /^\s*(\d{1,3})\.(\d+)\s*$/.exec(dayField);
  if (!m) return null;
  const day = Number(m[1]);
  if (day < 1 || day > 367) return null;
  const digits = m[2];
  const micros =
    digits.length <= 8 ? Number(digits.padEnd(8, '0')) * 864 : Math.round(Number('0.' + digits) * 86_400_000_000);
  const year = yy < 57 ? 2000 + yy : 1900 + yy;
  const baseMs = Date.UTC(year, 0, 1) + (day - 1) * 86_400_000 + Math.floor(micros / 1000);
  const d = new Date(baseMs);
  if (Number.isNaN(d.getTime())) return null;
  const ymd = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)}`;
  const hms = `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`;
  return `${ymd}T${hms}.${pad(d.getUTCMilliseconds() * 1000 + (micros % 1000), 6)}`;
}

function objectId(intl: string): string | undefined {
  const m = /^(\d{2})(\d{3})([A-Z]{0,3})\s*$/.exec(intl);
  if (!m) return undefined;
  const yy = Number(m[1]);
  return `${yy < 57 ? 2000 + yy : 1900 + yy}-${m[2]}${m[3]}`;
}

// Module-level, not closures made per record: under tsx (tests, benches) every closure made also
// pays esbuild's __name, and a 16k catalogue makes them by the tens of thousands.
const failure = (norad_id: number | null, name: string, reason: string): RecordFailure => ({ norad_id, name, reason });

/** A TLE number field; blank is NaN (".00009133" and "-.0000004" are valid Number() text). */
const num = (s: string) => (s.trim() === '' ? NaN : Number(s.trim()));

const NUMERIC_FIELDS = ['MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;

/** One set → elements, or the reason it cannot be used. Number ranges are checked later (validate.ts). */
export function tleToElements(set: TleSet): OmmElements | RecordFailure {
  const { name, line1: l1, line2: l2 } = set;
  const norad = parseCatalogNumber(l1.slice(2, 7));
  if (l1.length !== 69 || l2.length !== 69) return failure(norad, name, `TLE line length ${l1.length}/${l2.length}, expected 69`);
  if (!tleChecksumOk(l1)) return failure(norad, name, 'line 1 checksum mismatch');
  if (!tleChecksumOk(l2)) return failure(norad, name, 'line 2 checksum mismatch');
  if (norad === null) return failure(norad, name, `bad catalogue number "${l1.slice(2, 7)}"`);
  if (parseCatalogNumber(l2.slice(2, 7)) !== norad) return failure(norad, name, 'lines 1 and 2 carry different catalogue numbers');
  const epoch = tleEpochToIso(Number(l1.slice(18, 20)), l1.slice(20, 32));
  if (!epoch || !/^\d{2}$/.test(l1.slice(18, 20))) return failure(norad, name, 'bad epoch');
  const el: OmmElements = {
    OBJECT_NAME: name || String(norad),
    OBJECT_ID: objectId(l1.slice(9, 17)),
    EPOCH: epoch,
    MEAN_MOTION: num(l2.slice(52, 63)),
    ECCENTRICITY: num('0.' + l2.slice(26, 33).trim()),
    INCLINATION: num(l2.slice(8, 16)),
    RA_OF_ASC_NODE: num(l2.slice(17, 25)),
    ARG_OF_PERICENTER: num(l2.slice(34, 42)),
    MEAN_ANOMALY: num(l2.slice(43, 51)),
    EPHEMERIS_TYPE: Number(l1[62]) || 0,
    CLASSIFICATION_TYPE: l1[7] === ' ' ? 'U' : l1[7],
    NORAD_CAT_ID: norad,
    ELEMENT_SET_NO: Number(l1.slice(64, 68).trim()) || 0,
    REV_AT_EPOCH: Number(l2.slice(63, 68).trim()) || 0,
    BSTAR: impliedExp(l1.slice(53, 61)),
    MEAN_MOTION_DOT: num(l1.slice(33, 43)), // ".00009133" and "-.0000004" are valid Number() text
    MEAN_MOTION_DDOT: impliedExp(l1.slice(44, 52)),
  };
  if (el.OBJECT_ID === undefined) delete el.OBJECT_ID;
  for (const k of NUMERIC_FIELDS) {
    if (!Number.isFinite(el[k])) return failure(norad, name, `unreadable ${k}`);
  }
  return el;
}

/**
 * Text lines → sets, a line at a time: a "1 " line followed by a "2 " line, named by the line
 * before it (a leading "0 " of the 3LE variant is dropped). Anything else is reported, never fatal.
 */
export class TleSplitter {
  private pendingName: string | null = null;
  private line1: { raw: string; name: string } | null = null;

  /** The next line; returns a complete set, a failure, or null while a set is still open. */
  push(line: string): TleSet | RecordFailure | null {
    const raw = line.replace(/\s+$/, '');
    if (this.line1) {
      const { raw: l1, name } = this.line1;
      this.line1 = null;
      if (raw.startsWith('2 ')) return { name, line1: l1, line2: raw };
      // Not part of the set: read on its own (with no line 1 or name pending it cannot report).
      const lost: RecordFailure = { norad_id: parseCatalogNumber(l1.slice(2, 7)), name, reason: 'line 1 without a following line 2' };
      this.push(line);
      return lost;
    }
    if (raw === '') return null;
    if (raw.startsWith('1 ') && raw.length >= 60) {
      this.line1 = { raw, name: (this.pendingName ?? '').trim() };
      this.pendingName = null;
      return null;
    }
    if (raw.startsWith('2 ') && raw.length >= 60) {
      const name = (this.pendingName ?? '').trim();
      this.pendingName = null;
      return { norad_id: parseCatalogNumber(raw.slice(2, 7)), name, reason: 'line 2 without a line 1' };
    }
    const prev = this.pendingName;
    this.pendingName = raw.startsWith('0 ') ? raw.slice(2) : raw;
    return prev !== null ? { norad_id: null, name: prev.trim().slice(0, 40), reason: 'unrecognised line' } : null;
  }

  /** End of text: what is left open is reported. */
  end(): RecordFailure | null {
    if (this.line1) {
      const { raw, name } = this.line1;
      this.line1 = null;
      return { norad_id: parseCatalogNumber(raw.slice(2, 7)), name, reason: 'line 1 without a following line 2' };
    }
    const prev = this.pendingName;
    this.pendingName = null;
    return prev !== null ? { norad_id: null, name: prev.trim().slice(0, 40), reason: 'trailing line without elements' } : null;
  }
}

/** A whole text → sets and failures (small inputs: tools and tests). */
export function splitTle(text: string): { sets: TleSet[]; failures: RecordFailure[] } {
  const sets: TleSet[] = [];
  const failures: RecordFailure[] = [];
  const splitter = new TleSplitter();
  const take = (out: TleSet | RecordFailure | null) => {
    if (out) ('reason' in out ? failures : sets).push(out as never);
  };
  for (const line of text.split(/\r\n|\r|\n/)) take(splitter.push(line));
  take(splitter.end());
  return { sets, failures };
}
