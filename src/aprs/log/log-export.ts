import type { AprsLogEntry } from './log-entry.js';

// CSV and JSON downloads of the APRS log, both built from AprsLog.entries() (newest first).

export const CSV_HEADER = ['id', 'received_at', 'source', 'destination', 'message', 'text'] as const;

/**
 * Source, destination and text come off the air, from anyone. A spreadsheet would run a cell that
 * starts with = + - @ (or tab / CR, which some strip first) as a formula, so such a value gets a
 * leading apostrophe (OWASP "CSV injection"). The cost: a text like "-73" exports as "'-73".
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const defuse = (s: string) => (FORMULA_START.test(s) ? `'${s}` : s);

/** RFC 4180: a field with a comma, quote, CR or LF is quoted, inner quotes doubled. */
function field(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** RFC 4180 CSV with CRLF line ends and a header row; no BOM. */
export function toCsv(entries: readonly AprsLogEntry[]): string {
  const rows = [CSV_HEADER.join(',')];
  for (const e of entries) {
    rows.push([field(e.id), field(e.received_at), field(defuse(e.source)), field(defuse(e.destination)), e.message ? 'true' : 'false', field(defuse(e.text))].join(','));
  }
  return rows.join('\r\n') + '\r\n';
}

export interface AprsLogJsonExport {
  exported_at: string;
  count: number;
  items: AprsLogEntry[];
}

/** The JSON download; values as stored (no CSV defusing: JSON has no formulas). */
export function toJsonExport(entries: readonly AprsLogEntry[], nowMs: number = Date.now()): AprsLogJsonExport {
  return { exported_at: new Date(nowMs).toISOString(), count: entries.length, items: entries.slice() };
}
