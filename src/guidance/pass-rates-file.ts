import { readTextCapped, writeFileAtomic } from '../store/atomic-file.js';

// The phase range rates of each pass (rule 4: five propagations a pass, at 10/30/50/70/90 % of
// it) kept across restarts in <dataDir>/pass-rates.json. They are what the /passes items cost:
// at a tenth of a core, ~0.6 s of CPU for the ~1000 items the server warms after each boot,
// competing with the first requests (the lite snapshot's p99 read 100+ ms while it ran). A pass is
// named by satellite, AOS and LOS to the millisecond, which a new location or new elements move,
// and the file also names the catalog it was computed from: an entry read back is the rate a
// fresh computation would give, byte for byte.

export const PASS_RATES_FILE = 'pass-rates.json';

/** A day or two of passes for every satellite with a profile is ~100 KB; anything far larger is not ours. */
const MAX_BYTES = 1 << 20;

/** `sat_id|aos_ms|los_ms` → the five phase rates (km/s), or null: the path gave none. */
export type PassRateEntry = readonly [key: string, rates: readonly number[] | null];

export function encodePassRates(catalogVersion: string, entries: Iterable<PassRateEntry>): string {
  return JSON.stringify({ format: 1, catalog_version: catalogVersion, entries: [...entries] });
}

/**
 * The same text as `encodePassRates`, in parts of `perPart` entries each, for a writer that gives
 * the loop a turn between them: ~1000 entries of five doubles in one stringify were one turn of
 * ~100 ms at a tenth of a core, in the background of a running station.
 */
export function* encodePassRatesParts(catalogVersion: string, entries: readonly PassRateEntry[], perPart = 200): Generator<string, void, undefined> {
  const head = JSON.stringify({ format: 1, catalog_version: catalogVersion, entries: [] });
  // `head` ends with `[]}`: the entries go between the brackets, comma-separated.
  yield head.slice(0, -2);
  for (let i = 0; i < entries.length; i += perPart) {
    const part = JSON.stringify(entries.slice(i, i + perPart));
    yield (i === 0 ? '' : ',') + part.slice(1, -1);
  }
  yield ']}';
}

const isRates = (r: unknown): r is number[] | null => r === null || (Array.isArray(r) && r.length === 5 && r.every((x) => typeof x === 'number' && Number.isFinite(x)));

/** The entries of `text` when it is a rates file for `catalogVersion`; else why not. */
export function decodePassRates(text: string, catalogVersion: string): { kind: 'entries'; entries: PassRateEntry[] } | { kind: 'unusable'; why: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { kind: 'unusable', why: 'not JSON' };
  }
  const d = doc as { format?: unknown; catalog_version?: unknown; entries?: unknown };
  if (d?.format !== 1 || !Array.isArray(d.entries)) return { kind: 'unusable', why: 'not a pass rates file' };
  if (d.catalog_version !== catalogVersion) return { kind: 'unusable', why: `for catalog ${String(d.catalog_version)}` };
  const entries: PassRateEntry[] = [];
  for (const e of d.entries) {
    if (Array.isArray(e) && e.length === 2 && typeof e[0] === 'string' && isRates(e[1])) entries.push([e[0], e[1]]);
  }
  return { kind: 'entries', entries };
}

/** Reads the file (never throws): the entries, or null with why in `note`. */
export function readPassRates(path: string, catalogVersion: string): { entries: PassRateEntry[] | null; note: string } {
  const r = readTextCapped(path, MAX_BYTES);
  if (r.kind === 'missing') return { entries: null, note: 'no file yet' };
  if (r.kind !== 'text') return { entries: null, note: r.kind === 'error' ? r.code : r.kind };
  const d = decodePassRates(r.text, catalogVersion);
  return d.kind === 'entries' ? { entries: d.entries, note: `${d.entries.length} passes` } : { entries: null, note: d.why };
}

export const writePassRates = (path: string, text: string): Promise<void> => writeFileAtomic(path, text);
