import * as v from 'valibot';
import {
  RecordingEventSchema,
  RecordingLocationSchema,
  RecordingPassSchema,
  type RecordingEvent,
  type RecordingLocation,
  type RecordingPass,
  type TimelinePoint,
} from './schemas.js';

// A recording's journal while it runs (pure): one JSON line a second beside the audio
// (`<id>.jsonl`), appended, so a kill -9 loses at most the line in flight. At the end (or, after a
// kill, at the next start) the lines become the journal's JSON file (`<id>.json`).
//   {"h":{elements, location, pass}}                       first line: what the pass was computed from
//   {"p":[t_ms, az, el, range_rate, rx, tx, rot_az, rot_el]} one timeline point (null where absent)
//   {"e":{t, kind, recording_offset_s, …}}                  an event (a QSO, an APRS packet, a note)
// A point is an array, not an object: a 15-minute pass is 900 of them, and the line is written
// every second on a board with an SD card.

export interface JournalHead {
  elements: Record<string, unknown> | null;
  location: RecordingLocation;
  pass: RecordingPass | null;
}

const HeadSchema = v.object({
  elements: v.nullable(v.record(v.string(), v.unknown())),
  location: RecordingLocationSchema,
  pass: v.nullable(RecordingPassSchema),
});
const PointSchema = v.pipe(v.array(v.nullable(v.number())), v.length(8));

export const headLine = (h: JournalHead): string => JSON.stringify({ h }) + '\n';
export const eventLine = (e: RecordingEvent): string => JSON.stringify({ e }) + '\n';

/** A number as the journal keeps it: 5 decimals at most (a hundredth of an arc-second, a hundredth of a Hz above 1 MHz is noise). */
const keep = (x: number | null): number | null => (x === null || !Number.isFinite(x) ? null : Math.round(x * 1e5) / 1e5);

/** One timeline point's line; the fields in TimelinePoint order. */
export function pointLine(t_ms: number, az: number | null, el: number | null, rr: number | null, rx: number | null, tx: number | null, raz: number | null, rel: number | null): string {
  return `{"p":[${t_ms},${keep(az)},${keep(el)},${keep(rr)},${keep(rx)},${keep(tx)},${keep(raz)},${keep(rel)}]}\n`;
}

export interface JournalContent {
  head: JournalHead | null;
  timeline: TimelinePoint[];
  events: RecordingEvent[];
  /** Lines that did not parse (a torn last line after a kill): skipped. */
  skipped: number;
}

/** The journal's lines read back (the file's text); never throws. */
export function readJournalLines(text: string): JournalContent {
  const out: JournalContent = { head: null, timeline: [], events: [], skipped: 0 };
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      out.skipped++;
      continue;
    }
    if (!raw || typeof raw !== 'object') {
      out.skipped++;
      continue;
    }
    const o = raw as Record<string, unknown>;
    if ('p' in o) {
      const p = v.safeParse(PointSchema, o.p);
      if (p.success && p.output[0] !== null) {
        const [t, az_deg, el_deg, range_rate_km_s, rx_hz, tx_hz, rotator_az_deg, rotator_el_deg] = p.output;
        out.timeline.push({ t: new Date(t).toISOString(), az_deg, el_deg, range_rate_km_s, rx_hz, tx_hz, rotator_az_deg, rotator_el_deg });
      } else out.skipped++;
    } else if ('e' in o) {
      const e = v.safeParse(RecordingEventSchema, o.e);
      if (e.success) out.events.push(e.output);
      else out.skipped++;
    } else if ('h' in o) {
      const h = v.safeParse(HeadSchema, o.h);
      if (h.success) out.head = h.output;
      else out.skipped++;
    } else out.skipped++;
  }
  return out;
}

/** The highest elevation of a timeline; null without one. */
export function maxElevation(timeline: readonly TimelinePoint[]): number | null {
  let m: number | null = null;
  for (const p of timeline) if (p.el_deg !== null && (m === null || p.el_deg > m)) m = p.el_deg;
  return m === null ? null : Math.round(m * 10) / 10;
}
