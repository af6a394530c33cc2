// Checks every element set passes before it may enter the catalog, whatever its format (pure:
// satellite.js is computation only). Returns the reason a record is unusable, or null.
import { json2satrec, sgp4, checkForDecay, type OMMJsonObject, type SatRec } from 'satellite.js';
import type { OmmElements } from './types.js';

/** Mean motion above 17.5 rev/day puts perigee inside the Earth; below 0.05 is beyond the Moon. */
export const MAX_MEAN_MOTION = 17.5;
export const MIN_MEAN_MOTION = 0.05;
/** BSTAR and the mean-motion derivatives beyond these are corrupt, not physics. */
const MAX_ABS_BSTAR = 1;
const MAX_ABS_NDOT = 1;
const MAX_ABS_NDDOT = 1;

/** EPOCH (CelesTrak writes no zone; it is UTC) → epoch ms, NaN if unreadable. */
export function epochMs(el: Pick<OmmElements, 'EPOCH'>): number {
  const e = el.EPOCH;
  return Date.parse(e.endsWith('Z') ? e : e + 'Z');
}

export function rangeProblem(el: OmmElements, t = epochMs(el)): string | null {
  const mm = el.MEAN_MOTION;
  if (!(mm >= MIN_MEAN_MOTION)) return `mean motion ${mm} rev/day is not positive or too small`;
  if (mm > MAX_MEAN_MOTION) return `mean motion ${mm} rev/day is absurd`;
  if (!(el.ECCENTRICITY >= 0 && el.ECCENTRICITY < 1)) return `eccentricity ${el.ECCENTRICITY} outside [0, 1)`;
  if (!(el.INCLINATION >= 0 && el.INCLINATION <= 180)) return `inclination ${el.INCLINATION} outside [0, 180]`;
  for (const k of ['RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY'] as const) {
    if (!(el[k] >= 0 && el[k] <= 360)) return `${k} ${el[k]} outside [0, 360]`;
  }
  if (!(Math.abs(el.BSTAR) <= MAX_ABS_BSTAR)) return `BSTAR ${el.BSTAR} absurd`;
  if (!(Math.abs(el.MEAN_MOTION_DOT) <= MAX_ABS_NDOT)) return `MEAN_MOTION_DOT ${el.MEAN_MOTION_DOT} absurd`;
  if (!(Math.abs(el.MEAN_MOTION_DDOT) <= MAX_ABS_NDDOT)) return `MEAN_MOTION_DDOT ${el.MEAN_MOTION_DDOT} absurd`;
  if (!Number.isInteger(el.NORAD_CAT_ID) || el.NORAD_CAT_ID < 1) return `bad NORAD id ${el.NORAD_CAT_ID}`;
  if (!Number.isFinite(t)) return `bad EPOCH "${el.EPOCH}"`;
  if (t < Date.UTC(1957, 9, 4)) return `EPOCH ${el.EPOCH} before the first satellite`;
  return null;
}

/**
 * satellite.js satrec from our elements. json2satrec's type wants OBJECT_ID and ELEMENT_SET_NO,
 * but it reads only the mean elements, epoch and NORAD id, so no copy is made (hot at 16k objects).
 */
export function satrecFromElements(el: OmmElements): SatRec {
  return json2satrec(el as unknown as OMMJsonObject);
}

/**
 * SGP4 must initialise, propagate at epoch, keep perigee above the surface and, when `nowMs` is
 * given, still propagate now (SGP4 reports error 6 "decayed" for objects that have come down).
 */
export function sgp4Problem(el: OmmElements, nowMs?: number, t = epochMs(el)): string | null {
  let rec: SatRec;
  try {
    rec = satrecFromElements(el);
  } catch (err) {
    return `SGP4 init failed: ${(err as Error).message}`;
  }
  // sgp4init ends by propagating to the epoch, so its error code covers t = 0 too.
  if (rec.error) return `SGP4 error ${rec.error} at epoch`;
  if ((rec as unknown as { altp: number }).altp < 0) return 'perigee below the Earth surface';
  if (nowMs !== undefined) {
    const minutes = (nowMs - t) / 60_000;
    const now = sgp4(rec, minutes);
    const code = rec.error as number; // sgp4() sets it; TS still holds the narrowing from above
    if (code === 6 || (now && checkForDecay(rec))) return `decayed by ${new Date(nowMs).toISOString()} (SGP4)`;
    if (!now || code) return `SGP4 error ${code} at ${new Date(nowMs).toISOString()}`;
  }
  return null;
}

/** Why a record cannot enter the catalog, or null when it can. */
export function elementProblem(el: OmmElements & { DECAY_DATE?: string | null }, nowMs?: number, t = epochMs(el)): string | null {
  if (el.DECAY_DATE) return `decayed (${el.DECAY_DATE})`;
  return rangeProblem(el, t) ?? sgp4Problem(el, nowMs, t);
}
