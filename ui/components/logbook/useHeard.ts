import type { AprsLogEntry } from '../../../src/aprs/log/log-entry';
import { usePoll } from '../usePoll';
import { heardCall } from './qso-text';

// APRS stations heard during the pass under way, as one-tap QSO candidates: the receive log's
// sources since AOS, newest first, each call once. Read only while a pass is under way.

/** How often the log is read during a pass: a packet heard is a candidate within seconds. */
const HEARD_POLL_MS = 10_000;
/** Entries read per poll: a busy pass (ISS digipeater) hears a few hundred packets at most. */
const HEARD_READ = 300;
/** Candidates offered; more would crowd the small screen and the first ones are the freshest. */
export const HEARD_MAX = 8;

export interface PassWindow {
  aos: string;
  los: string;
}

/** The calls heard between AOS and LOS, newest first, without `own` (our packets digipeated back). */
export function heardDuring(items: readonly AprsLogEntry[], pass: PassWindow, own: string | null | undefined): string[] {
  const from = Date.parse(pass.aos);
  const to = Date.parse(pass.los);
  const mine = own ? heardCall(own) : null;
  const out: string[] = [];
  for (const e of items) {
    const t = Date.parse(e.received_at);
    if (t < from || t > to) continue;
    const call = heardCall(e.source);
    if (call && call !== mine && !out.includes(call)) out.push(call);
    if (out.length === HEARD_MAX) break;
  }
  return out;
}

export function useHeard(pass: PassWindow | null, own?: string | null): string[] {
  const log = usePoll<{ items: AprsLogEntry[] }>(pass ? `/api/v1/aprs/log?limit=${HEARD_READ}` : null, HEARD_POLL_MS, undefined, { on: ['aprs.packets'] });
  return pass && log.data ? heardDuring(log.data.items, pass, own) : [];
}
