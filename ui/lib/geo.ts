// Ground-track geometry for an equirectangular map (x = lon + 180 in 0..360, y = 90 − lat in
// 0..180): pure, tested in Node.

export const EARTH_RADIUS_KM = 6371;
const RAD = Math.PI / 180;
const DEG = 180 / Math.PI;

export interface LatLon {
  lat: number;
  lon: number;
}

const f1 = (x: number) => Math.round(x * 10) / 10;

export const mapX = (lon: number) => f1(lon + 180);
export const mapY = (lat: number) => f1(90 - lat);

/**
 * Polylines ("x,y x,y …") of a track, broken where it crosses the antimeridian (a jump of more
 * than 180° in longitude), so no line is drawn across the whole map.
 */
export function trackLines(points: ReadonlyArray<LatLon>): string[] {
  const lines: string[] = [];
  let cur: string[] = [];
  for (let i = 0; i < points.length; i++) {
    if (i > 0 && Math.abs(points[i].lon - points[i - 1].lon) > 180) {
      if (cur.length > 1) lines.push(cur.join(' '));
      cur = [];
    }
    cur.push(`${mapX(points[i].lon)},${mapY(points[i].lat)}`);
  }
  if (cur.length > 1) lines.push(cur.join(' '));
  return lines;
}

/** Earth-central half-angle (degrees) of the area that sees a satellite at `altKm` above the horizon. */
export function footprintHalfAngle(altKm: number): number {
  return Math.acos(EARTH_RADIUS_KM / (EARTH_RADIUS_KM + Math.max(0, altKm))) * DEG;
}

/** Ground radius (km, along the surface) of that area: ~2,250 km for the ISS. */
export const footprintRadiusKm = (altKm: number): number => (footprintHalfAngle(altKm) * RAD) * EARTH_RADIUS_KM;

/** The point `angleDeg` of arc from `from` along initial bearing `bearingDeg` (spherical Earth). */
export function destination(from: LatLon, angleDeg: number, bearingDeg: number): LatLon {
  const f1r = from.lat * RAD;
  const d = angleDeg * RAD;
  const b = bearingDeg * RAD;
  const lat = Math.asin(Math.sin(f1r) * Math.cos(d) + Math.cos(f1r) * Math.sin(d) * Math.cos(b));
  const lon = from.lon * RAD + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(f1r), Math.cos(d) - Math.sin(f1r) * Math.sin(lat));
  return { lat: lat * DEG, lon: ((((lon * DEG + 540) % 360) + 360) % 360) - 180 };
}

/**
 * A footprint of `radiusKm` (see footprintRadiusKm) around the station: the small circle of `n`
 * points inside which the satellite is above the horizon, closed, as antimeridian-safe lines.
 */
export function footprintLines(station: LatLon, radiusKm: number, n = 72): string[] {
  const a = (radiusKm / EARTH_RADIUS_KM) * DEG;
  const ring: LatLon[] = [];
  for (let k = 0; k <= n; k++) ring.push(destination(station, a, (360 * k) / n));
  return trackLines(ring);
}

/** Great-circle angle (degrees) between two points. */
export function arcDeg(p: LatLon, q: LatLon): number {
  const c = Math.sin(p.lat * RAD) * Math.sin(q.lat * RAD) + Math.cos(p.lat * RAD) * Math.cos(q.lat * RAD) * Math.cos((q.lon - p.lon) * RAD);
  return Math.acos(Math.max(-1, Math.min(1, c))) * DEG;
}
