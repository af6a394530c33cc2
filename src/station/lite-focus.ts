import { ISS_SAT_ID } from '../catalog/types.js';
import type { LiveSample, PassEvent, PathPoint } from '../orbit/types.js';

// Focus rules of the lite snapshot (spec part 4 "Lite snapshot rules"), pure.

/**
 * Focus track: the requested sat_id if it matches a tracked live track; else the ISS track when
 * needed (the ISS was asked for but is not tracked, or no tracked satellite has a live track;
 * the snapshot carries the ISS track anyway); else the first tracked live track.
 */
export function focusTrack(tracks: readonly LiveSample[], requested: string | undefined, issTrack: LiveSample | null): LiveSample | null {
  if (requested) {
    const hit = tracks.find((t) => t.sat_id === requested);
    if (hit) return hit;
  }
  if (issTrack && (requested === ISS_SAT_ID || tracks.length === 0)) return issTrack;
  return tracks[0] ?? null;
}

/**
 * Focus pass: the requested sat_id's first pass if it has one; else the first pass under way;
 * else the first pass of the list (ordered by AOS).
 */
export function focusPass(passes: readonly PassEvent[], requested: string | undefined, now: number): PassEvent | null {
  if (requested) {
    const hit = passes.find((p) => p.sat_id === requested);
    if (hit) return hit;
  }
  return passes.find((p) => p.aos_ms <= now && now < p.los_ms) ?? passes[0] ?? null;
}

/** The screen's one subject: the focus track and the focus pass always name the same satellite. */
export interface FocusSubject {
  track: LiveSample | null;
  pass: PassEvent | null;
}

/**
 * The focus track and focus pass as one subject, so a screen never names one satellite while
 * counting down or tuning another (spec rules read together, see docs/decisions/station-and-lite.md):
 * - an explicit sat_id that is tracked, or the ISS fallback, decides: its track and its own
 *   first pass (under way or next), or no pass; never another satellite's pass;
 * - otherwise the focus-pass rule decides (a pass under way, else the first of the list) and
 *   the track is that pass's satellite's;
 * - with no pass at all, the focus-track rule alone (the first tracked live track).
 * `passOf` gives the pass of a satellite outside the tracked set (the ISS fallback).
 */
export function focusSubject(
  tracks: readonly LiveSample[],
  passes: readonly PassEvent[],
  requested: string | undefined,
  issTrack: LiveSample | null,
  now: number,
  passOf: (satId: string) => PassEvent | null,
): FocusSubject {
  const track = focusTrack(tracks, requested, issTrack);
  const tracked = track !== null && tracks.includes(track);
  if (track && (!tracked || track.sat_id === requested)) {
    return { track, pass: tracked ? (passes.find((p) => p.sat_id === track.sat_id) ?? null) : passOf(track.sat_id) };
  }
  const pass = focusPass(passes, requested, now);
  if (!pass) return { track, pass: null };
  return { track: tracks.find((t) => t.sat_id === pass.sat_id) ?? null, pass };
}

export interface FocusCue {
  type: 'aos';
  sat_id: string;
  az_deg: number;
  el_deg: number;
  aos: string;
}

/** Present only when there is a focus pass that has not started; az/el from the path sample nearest AOS. */
export function focusCue(pass: PassEvent | null, path: readonly PathPoint[], now: number): FocusCue | null {
  if (!pass || pass.aos_ms <= now || path.length === 0) return null;
  let best = path[0];
  for (const p of path) if (Math.abs(p.t_ms - pass.aos_ms) < Math.abs(best.t_ms - pass.aos_ms)) best = p;
  return { type: 'aos', sat_id: pass.sat_id, az_deg: best.az_deg, el_deg: best.el_deg, aos: pass.aos };
}
