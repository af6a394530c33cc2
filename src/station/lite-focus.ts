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
