import { AppError } from '../util/errors.js';
import { iso } from '../util/clock.js';
import type { LookAngles, LookAt } from './plan/types.js';

// Where the rotator's passes come from: the pass table (or the window a radio session pinned) and
// the satellite's look angles, both from the orbit engine. A look angle the engine cannot give (the
// satellite left the catalog in a refresh, or its elements no longer propagate) is never made up:
// pointing at a stand-in direction would drive the antenna somewhere the satellite is not, with no
// word of why. Planning a pass refuses it; a pass already tracked stops, the antenna staying on its
// last real target (rotator-service.ts); both say why.

/** What the rotator reads of the sky; the orbit engine implements it. */
export interface RotatorSky {
  /** The pass under way at at_ms, else the next one (within the table's horizon). */
  currentOrNextPass(sat_id: string, at_ms: number): { aos_ms: number; los_ms: number } | null;
  /** The satellite's look angles at t; null when there are none. */
  sample(sat_id: string, at_ms: number): LookAngles | null;
}

/** One satellite pass to follow: the planner's input. */
export interface PassToTrack {
  sat_id: string;
  aos_ms: number;
  los_ms: number;
  /** Throws NoPosition where the sky has no look angles. */
  look: LookAt;
}

/** The sky has no position for the satellite at a time the plan or the tracker needs one. */
export class NoPosition extends AppError {
  constructor(sat_id: string, at_ms: number) {
    super(409, 'no_position', `no position for ${sat_id} at ${iso(at_ms)}: it left the catalog, or its elements no longer propagate`, { sat_id });
  }
}

/** The pass to track: the window given (a radio session's), else the one under way or next; null when there is none. */
export function passToTrack(sky: RotatorSky, sat_id: string, at_ms: number, window?: { aos_ms: number; los_ms: number }): PassToTrack | null {
  const p = window ?? sky.currentOrNextPass(sat_id, at_ms);
  if (!p) return null;
  const look = (t_ms: number): LookAngles => {
    const s = sky.sample(sat_id, t_ms);
    if (!s) throw new NoPosition(sat_id, t_ms);
    return s;
  };
  return { sat_id, aos_ms: p.aos_ms, los_ms: p.los_ms, look };
}
