import * as v from 'valibot';
import { APRS_LOG_FIELD_MAX, AprsLogEntrySchema, type AprsLogEntry } from './log-entry.js';

// One entry as one line of the log file (JSON Lines), both ways, and the check an incoming
// packet passes before it gets an id and a line. No I/O: the writer and the reader use these.

/** What the receive path hands the log: an entry without its id (the log assigns it). */
export type AprsLogInput = Omit<AprsLogEntry, 'id'>;

/** Longest line accepted at load: the longest entry, every character escaped, fits with room. */
export const MAX_LINE_BYTES = 8192;

export function encodeLine(e: AprsLogEntry): string {
  return JSON.stringify(e) + '\n';
}

/** One line without its '\n'; null for anything that is not a valid entry (frozen when valid). */
export function parseLine(line: Buffer | string): AprsLogEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof line === 'string' ? line : line.toString('utf8'));
  } catch {
    return null;
  }
  const res = v.safeParse(AprsLogEntrySchema, raw);
  return res.success ? Object.freeze(res.output) : null;
}

/**
 * An incoming packet as it will be stored: the time in canonical UTC ISO form, and the text
 * fields clipped rather than refused (a long third-party header should still be logged). Refused
 * only when it still fails the entry schema (a time that is no instant, a non-boolean flag).
 */
export function admitInput(e: AprsLogInput): { ok: true; entry: AprsLogInput } | { ok: false; reason: string } {
  const at = Date.parse(e.received_at);
  const candidate = {
    received_at: Number.isFinite(at) ? new Date(at).toISOString() : String(e.received_at),
    source: clip(e.source, APRS_LOG_FIELD_MAX.source),
    destination: clip(e.destination, APRS_LOG_FIELD_MAX.destination),
    text: clip(e.text, APRS_LOG_FIELD_MAX.text),
    message: e.message,
  };
  const res = v.safeParse(AprsLogEntrySchema, { ...candidate, id: 'pending' });
  if (!res.success) return { ok: false, reason: res.issues[0]?.message ?? 'invalid' };
  const { id: _pending, ...entry } = res.output;
  return { ok: true, entry };
}

function clip(s: unknown, max: number): string {
  const str = typeof s === 'string' ? s : String(s ?? '');
  return str.length > max ? str.slice(0, max) : str;
}
