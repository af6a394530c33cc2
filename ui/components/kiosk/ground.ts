import type { TrackPoint } from './types';

// Ground-track geometry for the ISS scene, pure.

export type Ground = TrackPoint & { lat_deg: number; lon_deg: number };

/** The sub-satellite point at `t`, between the two path samples around it (longitude the short way). */
export function groundAt(path: readonly Ground[], t: number): { lat_deg: number; lon_deg: number } | null {
  const i = path.findIndex((p) => p.t_ms > t);
  if (i <= 0) return null;
  const a = path[i - 1];
  const b = path[i];
  const f = (t - a.t_ms) / (b.t_ms - a.t_ms);
  let dl = b.lon_deg - a.lon_deg;
  if (dl > 180) dl -= 360;
  if (dl < -180) dl += 360;
  const lon = a.lon_deg + dl * f;
  return { lat_deg: a.lat_deg + (b.lat_deg - a.lat_deg) * f, lon_deg: lon > 180 ? lon - 360 : lon < -180 ? lon + 360 : lon };
}
