import type { OrbitService, PassEvent } from './types.js';

// "Workable" passes: those whose maximum elevation reaches the operator's minimum (pass filter
// min_el_deg). Every place that picks a pass by itself (system state, the frequency
// recommendation route) asks here, so a 0.2° graze is never the pass the screen follows while
// /passes, the lite snapshot and the kiosk leave it out.

/**
 * How far ahead a workable pass is looked for. Inside the precomputed table's horizon (48 h, kept
 * extended ahead of now), so the lookup is a table scan, never an on-demand search; a LEO
 * satellite has a workable pass within a day from almost anywhere (same window as the lite snapshot).
 */
export const WORKABLE_PASS_HOURS = 24;

/**
 * Passes of these satellites under way at at_ms or starting within WORKABLE_PASS_HOURS whose
 * maximum elevation reaches min_max_el_deg, sorted by AOS (those under way first); at most `limit`.
 */
export function workablePasses(orbit: OrbitService, sat_ids: readonly string[], at_ms: number, min_max_el_deg: number, limit?: number): PassEvent[] {
  if (!sat_ids.length) return [];
  return orbit.passes({ from_ms: at_ms, hours: WORKABLE_PASS_HOURS, min_max_el_deg, sat_ids, include_ongoing: true, limit });
}

/**
 * The satellite's pass under way at at_ms, else its next one, among those reaching
 * min_max_el_deg. With no minimum it is the engine's current-or-next pass over its whole horizon.
 */
export function currentOrNextWorkablePass(orbit: OrbitService, sat_id: string, at_ms: number, min_max_el_deg: number): PassEvent | null {
  if (!(min_max_el_deg > 0)) return orbit.currentOrNextPass(sat_id, at_ms);
  return workablePasses(orbit, [sat_id], at_ms, min_max_el_deg, 1)[0] ?? null;
}
