// Catalog text (CelesTrak OMM/GP JSON or three-line TLE) → validated element sets (pure).
// The format is detected from the content, never from a file name or content type. Bad records
// are returned in `skipped` with a reason; only a text with no usable shape at all is an error.
import { parseOmmJson } from './omm.js';
import { splitTle, tleToElements, type RecordFailure } from './tle.js';
import type { OmmElements } from './types.js';
import { elementProblem, epochMs } from './validate.js';

export type CatalogFormat = 'omm-json' | 'tle' | 'html' | 'empty' | 'unknown';

export interface ParseOptions {
  /** When given, objects SGP4 reports as decayed at this instant are skipped. */
  nowMs?: number;
}

export interface ParseResult {
  format: CatalogFormat;
  /** Valid records, one per NORAD id (newest epoch kept), in input order. */
  records: OmmElements[];
  skipped: RecordFailure[];
  /** Set when the text as a whole is not a catalog (HTML page, garbage, truncated JSON). */
  error: string | null;
}

export function detectFormat(text: string): CatalogFormat {
  const head = text.slice(0, 2048).replace(/^\uFEFF/, '').trimStart();
  if (head === '') return 'empty';
  if (head[0] === '[' || head[0] === '{') return 'omm-json';
  if (head[0] === '<' || /<html|<!doctype/i.test(head)) return 'html';
  if (/^1 [0-9A-Z ]{5}[A-Z ] /m.test(head) && /^2 [0-9A-Z ]{5} /m.test(text.slice(0, 4096))) return 'tle';
  return 'unknown';
}

export function parseCatalogText(text: string, opts: ParseOptions = {}): ParseResult {
  const format = detectFormat(text);
  const skipped: RecordFailure[] = [];
  let candidates: (OmmElements & { DECAY_DATE?: string | null })[] = [];
  if (format === 'omm-json') {
    const r = parseOmmJson(text.replace(/^\uFEFF/, ''));
    if (r.error) return { format, records: [], skipped: [], error: r.error };
    candidates = r.records;
    skipped.push(...r.failures);
  } else if (format === 'tle') {
    const { sets, failures } = splitTle(text);
    skipped.push(...failures);
    for (const set of sets) {
      const r = tleToElements(set);
      if ('reason' in r) skipped.push(r);
      else candidates.push(r);
    }
  } else {
    const what = format === 'html' ? 'an HTML page' : format === 'empty' ? 'empty' : 'neither OMM JSON nor TLE text';
    return { format, records: [], skipped: [], error: `content is ${what}` };
  }
  const byNorad = new Map<number, { el: OmmElements; t: number }>();
  for (const el of candidates) {
    const t = epochMs(el);
    const reason = elementProblem(el, opts.nowMs, t);
    if (reason) {
      skipped.push({ norad_id: el.NORAD_CAT_ID, name: el.OBJECT_NAME, reason });
      continue;
    }
    if ('DECAY_DATE' in el) delete el.DECAY_DATE;
    const prev = byNorad.get(el.NORAD_CAT_ID);
    if (prev && prev.t >= t) {
      skipped.push({ norad_id: el.NORAD_CAT_ID, name: el.OBJECT_NAME, reason: 'duplicate NORAD id with an older or equal epoch' });
      continue;
    }
    if (prev) skipped.push({ norad_id: prev.el.NORAD_CAT_ID, name: prev.el.OBJECT_NAME, reason: 'duplicate NORAD id superseded by a newer epoch' });
    byNorad.set(el.NORAD_CAT_ID, { el, t });
  }
  const records = [...byNorad.values()].map((x) => x.el);
  const error = records.length === 0 ? `no usable records (${skipped.length} skipped)` : null;
  return { format, records, skipped, error };
}

/** One line per skipped record, for logs and refresh reports. */
export function describeSkipped(s: RecordFailure): string {
  return `${s.norad_id ?? '?'} ${s.name ? `"${s.name}" ` : ''}skipped: ${s.reason}`;
}
