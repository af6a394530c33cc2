// A transmitters dump (SatNOGS DB's JSON) as the catalog side sees it: checked for shape before
// anything is rebuilt from it, and reduced to the records guidance could ever use, so what is
// persisted (and parsed again at every boot) is a few hundred KiB rather than the whole dump.
// Pure: no I/O. The records are validated field by field where profiles are built (guidance).

/** Bands a transmitter must touch to matter for guidance (the spec's eligible bands). */
export const ELIGIBLE_BANDS_HZ: readonly (readonly [number, number])[] = [
  [144_000_000, 148_000_000],
  [420_000_000, 450_000_000],
];

const FREQ_FIELDS = ['uplink_low', 'uplink_high', 'downlink_low', 'downlink_high'] as const;

type RawRecord = Record<string, unknown>;

const isRecord = (x: unknown): x is RawRecord => typeof x === 'object' && x !== null && !Array.isArray(x);

const inEligibleBand = (hz: unknown) => typeof hz === 'number' && ELIGIBLE_BANDS_HZ.some(([lo, hi]) => hz >= lo && hz <= hi);

/**
 * Worth keeping: a transmitter in an eligible band (a satellite a later catalog refresh adds is
 * covered too), or any transmitter of a satellite the catalog tracks.
 */
export function usefulRecord(r: unknown, inCatalog: (norad: number) => boolean): r is RawRecord {
  if (!isRecord(r) || typeof r.uuid !== 'string') return false;
  if (FREQ_FIELDS.some((f) => inEligibleBand(r[f]))) return true;
  return typeof r.norad_cat_id === 'number' && inCatalog(r.norad_cat_id);
}

export type ReducedDump = { kind: 'records'; records: RawRecord[]; total: number } | { kind: 'unusable'; reason: string };

/**
 * The dump's text → the records worth keeping, or why it is unusable (not JSON, not an array,
 * empty, nothing in band): an unusable dump must change nothing.
 */
export function reduceDump(text: string, inCatalog: (norad: number) => boolean): ReducedDump {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    const head = text.slice(0, 40).replace(/\s+/g, ' ').trim();
    return { kind: 'unusable', reason: `not JSON (${(err as Error).message})${head ? `; starts with "${head}"` : ''}` };
  }
  if (!Array.isArray(raw)) return { kind: 'unusable', reason: `not a JSON array of transmitters (got ${raw === null ? 'null' : typeof raw})` };
  if (raw.length === 0) return { kind: 'unusable', reason: 'an empty array: no transmitters' };
  const records = raw.filter((r): r is RawRecord => usefulRecord(r, inCatalog));
  if (records.length === 0) {
    return { kind: 'unusable', reason: `${raw.length} records, none a transmitter in 144–148/420–450 MHz or of a catalog satellite` };
  }
  return { kind: 'records', records, total: raw.length };
}

/** A dump keeping less than this share of the last good one's useful records is truncated or the wrong query. */
export const MIN_SHARE_OF_LAST = 0.5;
const MIN_COUNT_FOR_SHARE_CHECK = 20;

export function shrunkTooMuch(now: number, last: number): boolean {
  return last >= MIN_COUNT_FOR_SHARE_CHECK && now < last * MIN_SHARE_OF_LAST;
}

/** The persisted last good dump: self-describing, so the file alone says what it is. */
export interface PersistedDump {
  source: string;
  /** When the dump was taken from the source (ISO UTC): the data's date. */
  date: string;
  /** Records in the whole dump (before the reduction). */
  total: number;
  records: RawRecord[];
}

/** The file's text → the dump, or null when it is damaged or not ours. */
export function readPersistedDump(text: string): PersistedDump | null {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(doc) || typeof doc.source !== 'string' || typeof doc.date !== 'string' || !Number.isFinite(Date.parse(doc.date))) return null;
  if (!Array.isArray(doc.records) || doc.records.length === 0 || typeof doc.total !== 'number') return null;
  return { source: doc.source, date: doc.date, total: doc.total, records: doc.records.filter(isRecord) };
}
