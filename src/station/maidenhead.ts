// Maidenhead grid locators (IARU Region 1, 1980): field (A–R), square (0–9), subsquare (a–x),
// extended square (0–9). Pure: hams think in locators, so the station shows its own and accepts
// one as a way to enter a location (the centre of the square it names).

const FIELD_DEG_LON = 20;
const FIELD_DEG_LAT = 10;

/** The locator of a point, 4, 6 (default) or 8 characters; longitude wraps, latitude is clamped. */
export function toLocator(lat: number, lon: number, length: 4 | 6 | 8 = 6): string {
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) throw new RangeError('lat and lon must be finite');
  // Longitude wraps (180° is −180°); the north pole (lat 90) belongs to the last row, not past it.
  let x = ((((lon + 180) % 360) + 360) % 360) / FIELD_DEG_LON;
  let y = Math.min(Math.max(lat + 90, 0), 180 - 1e-9) / FIELD_DEG_LAT;
  const A = 'A'.charCodeAt(0);
  const a = 'a'.charCodeAt(0);
  let out = '';
  // field: 18 × 18
  let fx = Math.floor(x);
  let fy = Math.floor(y);
  out += String.fromCharCode(A + fx, A + fy);
  x = (x - fx) * 10;
  y = (y - fy) * 10;
  // square: 10 × 10
  fx = Math.floor(x);
  fy = Math.floor(y);
  out += `${fx}${fy}`;
  if (length === 4) return out;
  x = (x - fx) * 24;
  y = (y - fy) * 24;
  // subsquare: 24 × 24
  fx = Math.floor(x);
  fy = Math.floor(y);
  out += String.fromCharCode(a + fx, a + fy);
  if (length === 6) return out;
  x = (x - fx) * 10;
  y = (y - fy) * 10;
  out += `${Math.floor(x)}${Math.floor(y)}`;
  return out;
}

/** A 4-, 6- or 8-character locator, case-insensitive (JO01, jo01cf, JO01cf52). */
export const LOCATOR_PATTERN = /^[A-Ra-r]{2}[0-9]{2}(?:[A-Xa-x]{2}(?:[0-9]{2})?)?$/;

export interface LocatorCentre {
  lat: number;
  lon: number;
  /** The locator as normally written: field upper case, subsquare lower case. */
  locator: string;
}

/** The centre of the square a locator names, or null when it is not a valid locator. */
export function fromLocator(locator: string): LocatorCentre | null {
  const s = locator.trim();
  if (!LOCATOR_PATTERN.test(s)) return null;
  const up = s.toUpperCase();
  let lonW = FIELD_DEG_LON;
  let latH = FIELD_DEG_LAT;
  let lon = -180 + (up.charCodeAt(0) - 65) * lonW;
  let lat = -90 + (up.charCodeAt(1) - 65) * latH;
  lonW /= 10;
  latH /= 10;
  lon += Number(up[2]) * lonW;
  lat += Number(up[3]) * latH;
  if (up.length >= 6) {
    lonW /= 24;
    latH /= 24;
    lon += (up.charCodeAt(4) - 65) * lonW;
    lat += (up.charCodeAt(5) - 65) * latH;
  }
  if (up.length === 8) {
    lonW /= 10;
    latH /= 10;
    lon += Number(up[6]) * lonW;
    lat += Number(up[7]) * latH;
  }
  const round = (n: number) => Math.round(n * 1e6) / 1e6;
  return { lat: round(lat + latH / 2), lon: round(lon + lonW / 2), locator: normalizeLocator(up) };
}

function normalizeLocator(up: string): string {
  return up.slice(0, 4) + up.slice(4, 6).toLowerCase() + up.slice(6);
}
