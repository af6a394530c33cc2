// Where a pass stands at a given moment, and where the satellite is along a sampled path:
// pure, so the one-second tick does only arithmetic (no request, no allocation-heavy work).

export interface PassTimes {
  aos: string;
  los: string;
}

export type PassStage = 'before' | 'during' | 'after';

/** AOS soon (ui brief: amber = AOS within 10 minutes). */
export const AOS_SOON_MS = 10 * 60_000;

export interface PassClock {
  stage: PassStage;
  /** "AOS in" before, "LOS in" during, "ended" after. */
  label: string;
  /** ms to the next event (AOS before, LOS during), 0 after. */
  remainingMs: number;
  /** ok while in pass, warn with AOS inside 10 minutes, idle otherwise. */
  tone: 'ok' | 'warn' | 'idle';
}

export function passClock(p: PassTimes, now: number): PassClock {
  const aos = Date.parse(p.aos);
  const los = Date.parse(p.los);
  if (now < aos) return { stage: 'before', label: 'AOS in', remainingMs: aos - now, tone: aos - now <= AOS_SOON_MS ? 'warn' : 'idle' };
  if (now < los) return { stage: 'during', label: 'LOS in', remainingMs: los - now, tone: 'ok' };
  return { stage: 'after', label: 'ended', remainingMs: 0, tone: 'idle' };
}

export interface PathSample {
  timestamp: string;
  az_deg: number;
  el_deg: number;
  range_km: number;
}

export interface Position {
  az_deg: number;
  el_deg: number;
  range_km: number;
}

/**
 * The position at `t` interpolated between the two path samples around it, or null outside
 * the path. Azimuth takes the short way round north.
 */
export function positionAt(path: readonly PathSample[], t: number): Position | null {
  if (path.length < 2) return null;
  if (t < Date.parse(path[0].timestamp) || t > Date.parse(path[path.length - 1].timestamp)) return null;
  let i = 1;
  while (i < path.length - 1 && Date.parse(path[i].timestamp) < t) i++;
  const a = path[i - 1];
  const b = path[i];
  const ta = Date.parse(a.timestamp);
  const span = Date.parse(b.timestamp) - ta;
  const f = span > 0 ? (t - ta) / span : 0;
  let daz = b.az_deg - a.az_deg;
  if (daz > 180) daz -= 360;
  if (daz < -180) daz += 360;
  return {
    az_deg: (((a.az_deg + daz * f) % 360) + 360) % 360,
    el_deg: a.el_deg + (b.el_deg - a.el_deg) * f,
    range_km: a.range_km + (b.range_km - a.range_km) * f,
  };
}

export interface SatPass extends PassTimes {
  sat_id: string;
}

/**
 * Every satellite of `ids` with its first pass not yet ended (or null), passes under way first,
 * then by AOS, satellites without a pass last in their given order: the tracked strip's order.
 */
export function nextPassBySat<P extends SatPass>(ids: readonly string[], passes: readonly P[], now: number): Array<{ sat_id: string; pass: P | null }> {
  const rows = ids.map((sat_id) => ({ sat_id, pass: passes.find((p) => p.sat_id === sat_id && Date.parse(p.los) > now) ?? null }));
  const key = (r: { pass: P | null }) => (r.pass ? Date.parse(r.pass.aos) : Infinity);
  // Array.prototype.sort is stable, so equal keys (no pass) keep the tracked order.
  return rows.sort((a, b) => key(a) - key(b));
}
