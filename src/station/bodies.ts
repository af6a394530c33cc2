// Sun and Moon azimuth/elevation for the system state `bodies` block. Pure, no I/O.
// Low-precision series from the Astronomical Almanac ("Low precision formulae", section C for
// the Sun, D for the Moon): Sun about 0.01°, Moon about 0.3° in longitude and 0.2° in latitude
// (about 0.5° on the sky). The Moon gets a topocentric parallax correction (up to 1° near the
// horizon). Elevations are geometric: no atmospheric refraction (which lifts ~0.57° at the horizon).

const RAD = Math.PI / 180;
const J2000 = 2451545.0;

export interface HorizontalPosition {
  az_deg: number;
  el_deg: number;
}

export interface Bodies {
  sun: HorizontalPosition;
  moon: HorizontalPosition & { illuminated_fraction: number };
}

export interface Equatorial {
  ra_deg: number;
  dec_deg: number;
  /** Geocentric distance in Earth radii (Moon) or Infinity (Sun: parallax negligible). */
  dist_er: number;
}

export const julianDay = (ms: number): number => ms / 86400000 + 2440587.5;

const norm360 = (d: number): number => ((d % 360) + 360) % 360;
const sinD = (d: number) => Math.sin(d * RAD);
const cosD = (d: number) => Math.cos(d * RAD);

/** Mean obliquity of the ecliptic (degrees). */
const obliquity = (jd: number) => 23.439 - 0.0000004 * (jd - J2000);

/** Greenwich mean sidereal time in degrees (IAU 1982, enough for 0.01°). */
export function gmstDeg(jd: number): number {
  const d = jd - J2000;
  const t = d / 36525;
  return norm360(280.46061837 + 360.98564736629 * d + 0.000387933 * t * t);
}

function eclipticToEquatorial(lonDeg: number, latDeg: number, jd: number): { ra_deg: number; dec_deg: number } {
  const eps = obliquity(jd);
  const x = cosD(latDeg) * cosD(lonDeg);
  const y = cosD(eps) * cosD(latDeg) * sinD(lonDeg) - sinD(eps) * sinD(latDeg);
  const z = sinD(eps) * cosD(latDeg) * sinD(lonDeg) + cosD(eps) * sinD(latDeg);
  return { ra_deg: norm360(Math.atan2(y, x) / RAD), dec_deg: Math.asin(z) / RAD };
}

/** Sun's ecliptic longitude (degrees). */
function sunLongitude(jd: number): number {
  const n = jd - J2000;
  const L = 280.46 + 0.9856474 * n;
  const g = 357.528 + 0.9856003 * n;
  return norm360(L + 1.915 * sinD(g) + 0.02 * sinD(2 * g));
}

export function sunEquatorial(jd: number): Equatorial {
  return { ...eclipticToEquatorial(sunLongitude(jd), 0, jd), dist_er: Infinity };
}

/** Moon's geocentric ecliptic longitude, latitude (degrees) and horizontal parallax (degrees). */
function moonEcliptic(jd: number): { lon: number; lat: number; parallax: number } {
  const T = (jd - J2000) / 36525;
  const lon =
    218.32 +
    481267.881 * T +
    6.29 * sinD(135.0 + 477198.87 * T) -
    1.27 * sinD(259.3 - 413335.36 * T) +
    0.66 * sinD(235.7 + 890534.22 * T) +
    0.21 * sinD(269.9 + 954397.74 * T) -
    0.19 * sinD(357.5 + 35999.05 * T) -
    0.11 * sinD(186.5 + 966404.03 * T);
  const lat =
    5.13 * sinD(93.3 + 483202.02 * T) +
    0.28 * sinD(228.2 + 960400.89 * T) -
    0.28 * sinD(318.3 + 6003.15 * T) -
    0.17 * sinD(217.6 - 407332.21 * T);
  const parallax =
    0.9508 +
    0.0518 * cosD(135.0 + 477198.87 * T) +
    0.0095 * cosD(259.3 - 413335.36 * T) +
    0.0078 * cosD(235.7 + 890534.22 * T) +
    0.0028 * cosD(269.9 + 954397.74 * T);
  return { lon: norm360(lon), lat, parallax };
}

export function moonEquatorial(jd: number): Equatorial {
  const m = moonEcliptic(jd);
  return { ...eclipticToEquatorial(m.lon, m.lat, jd), dist_er: 1 / sinD(m.parallax) };
}

/** Fraction of the Moon's disc lit, from the Sun–Moon elongation (about 1% accurate). */
export function moonIlluminatedFraction(jd: number): number {
  const m = moonEcliptic(jd);
  const cosElong = cosD(m.lat) * cosD(m.lon - sunLongitude(jd));
  return (1 - cosElong) / 2;
}

/**
 * Equatorial → horizontal for an observer (azimuth from north through east). A finite
 * distance (Earth radii) applies topocentric parallax by subtracting the observer's position.
 */
export function toHorizontal(eq: Equatorial, jd: number, latDeg: number, lonDeg: number, altM = 0): HorizontalPosition {
  const lst = gmstDeg(jd) + lonDeg;
  let ha = lst - eq.ra_deg;
  let dec = eq.dec_deg;
  if (Number.isFinite(eq.dist_er)) {
    // Body vector in a frame rotating with the observer's meridian, minus the observer vector.
    const r = eq.dist_er;
    const x = r * cosD(dec) * cosD(ha);
    const y = r * cosD(dec) * sinD(ha);
    const z = r * sinD(dec);
    const rho = 1 + altM / 6378137;
    const xo = x - rho * cosD(latDeg);
    const zo = z - rho * sinD(latDeg);
    ha = Math.atan2(y, xo) / RAD;
    dec = Math.atan2(zo, Math.hypot(xo, y)) / RAD;
  }
  const sinEl = sinD(latDeg) * sinD(dec) + cosD(latDeg) * cosD(dec) * cosD(ha);
  const el = Math.asin(Math.max(-1, Math.min(1, sinEl))) / RAD;
  const az = Math.atan2(-sinD(ha) * cosD(dec), cosD(latDeg) * sinD(dec) - sinD(latDeg) * cosD(dec) * cosD(ha)) / RAD;
  return { az_deg: norm360(az), el_deg: el };
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The `bodies` block: Sun and Moon for an observer at one instant (rounded to 0.01°). */
export function bodiesAt(ms: number, latDeg: number, lonDeg: number, altM: number): Bodies {
  const jd = julianDay(ms);
  const sun = toHorizontal(sunEquatorial(jd), jd, latDeg, lonDeg, altM);
  const moon = toHorizontal(moonEquatorial(jd), jd, latDeg, lonDeg, altM);
  return {
    sun: { az_deg: round2(sun.az_deg), el_deg: round2(sun.el_deg) },
    moon: { az_deg: round2(moon.az_deg), el_deg: round2(moon.el_deg), illuminated_fraction: round2(moonIlluminatedFraction(jd)) },
  };
}
