// The logbook file's lines (pure): one JSON event per line, appended, replayed in order at load.
//   {"t":"qso","q":{…}}                          a QSO (logged now, or a record kept by a compaction)
//   {"t":"push","id","state","error"}            its push state changed
//   {"t":"del","id"}                             deleted by the operator
// A line that does not parse (a torn write, a hand edit) is skipped and counted, so the file is
// rewritten at the next compaction; it never stops the logbook from loading.
import * as v from 'valibot';
import { PUSH_STATES, QsoRecordSchema, type PushState, type QsoRecord } from './schemas.js';

const EventSchema = v.variant('t', [
  v.object({ t: v.literal('qso'), q: QsoRecordSchema }),
  v.object({ t: v.literal('push'), id: v.string(), state: v.picklist(PUSH_STATES), error: v.nullable(v.pipe(v.string(), v.maxLength(500))) }),
  v.object({ t: v.literal('del'), id: v.string() }),
]);
export type JournalEvent = v.InferOutput<typeof EventSchema>;

export const encodeEvent = (e: JournalEvent): string => JSON.stringify(e) + '\n';

/** The event of one line (without its '\n'); null when it is not one. */
export function decodeEvent(line: string): JournalEvent | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const r = v.safeParse(EventSchema, raw);
  return r.success ? r.output : null;
}

/**
 * The records the events describe, in the order they were logged (a Map keeps insertion order).
 * Returns false for an event about a record the map does not hold (deleted, or dropped by the
 * bound): harmless, but the line is dead weight for the next compaction.
 */
export function applyEvent(records: Map<string, QsoRecord>, e: JournalEvent): boolean {
  switch (e.t) {
    case 'qso':
      records.delete(e.q.id); // a repeated id (a compaction's copy) takes the newer place
      records.set(e.q.id, e.q);
      return true;
    case 'push': {
      const q = records.get(e.id);
      if (!q) return false;
      records.set(e.id, withPush(q, e.state, e.error));
      return true;
    }
    case 'del':
      return records.delete(e.id);
  }
}

export const withPush = (q: QsoRecord, state: PushState, error: string | null): QsoRecord => ({ ...q, push_state: state, push_error: error });

/** Drops the oldest records past `max`; returns how many went. */
export function dropOldest(records: Map<string, QsoRecord>, max: number): number {
  let over = records.size - max;
  const n = Math.max(0, over);
  for (const id of records.keys()) {
    if (over-- <= 0) break;
    records.delete(id);
  }
  return n;
}

/** Lines past which a rewrite pays off: twice the records (push events roughly double a QSO), plus slack. */
export const compactLimit = (records: number): number => records * 2 + 64;
