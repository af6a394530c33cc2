import { gstime, sunPos } from 'satellite.js';
import type { Observer } from './types.js';

// Earth frames and the observer's topocentric view. Pure math, no allocation per call:
// callers pass preallocated Float64Array scratch (layouts below).

/** WGS-84 ellipsoid, the same constants satellite.js geodeticToEcf uses. */
export const WGS84_A_KM = 6378.137;
const WGS84_B_KM = 6356.7523142;
const F = (WGS84_A_KM - WGS84_B_KM) / WGS84_A_KM;
const E2 = 2 * F - F * F;
/** Earth rotation rate (rad/s), IERS value; ECEF velocity = R·v_eci − ω × r_ecef. */
export const EARTH_ROTATION_RAD_S = 7.292115146706979e-5;
const MS_PER_DAY = 86_400_000;
const JD_UNIX_EPOCH = 2440587.5;
export const RAD = Math.PI / 180;
export const DEG = 180 / Math.PI;
const TWO_PI = 2 * Math.PI;

export const julianDate = (t_ms: number): number => t_ms / MS_PER_DAY + JD_UNIX_EPOCH;

/** Observer position (ECEF km) and topocentric unit vectors; built once per location. */
export class ObserverFrame {
  readonly ox: number;
  readonly oy: number;
  readonly oz: number;
  /** Up (geodetic normal), east, north unit vectors in ECEF. */
  readonly ux: number;
  readonly uy: number;
  readonly uz: number;
  readonly ex: number;
  readonly ey: number;
  readonly nx: number;
  readonly ny: number;
  readonly nz: number;
  /** o·up: distance of the horizon plane from the Earth's centre (km). A point p is above the horizon iff p·up > horizonD. */
  readonly horizonD: number;

  constructor(readonly observer: Observer) {
    const lat = observer.lat_deg * RAD;
    const lon = observer.lon_deg * RAD;
    const h = observer.alt_m / 1000;
    const sl = Math.sin(lat);
    const cl = Math.cos(lat);
    const so = Math.sin(lon);
    const co = Math.cos(lon);
    const normal = WGS84_A_KM / Math.sqrt(1 - E2 * sl * sl);
    this.ox = (normal + h) * cl * co;
    this.oy = (normal + h) * cl * so;
    this.oz = (normal * (1 - E2) + h) * sl;
    this.ux = cl * co;
    this.uy = cl * so;
    this.uz = sl;
    this.ex = -so;
    this.ey = co;
    this.nx = -sl * co;
    this.ny = -sl * so;
    this.nz = cl;
    this.horizonD = this.ox * this.ux + this.oy * this.uy + this.oz * this.uz;
  }
}

/**
 * Everything that depends only on the timestamp, shared by every satellite at that instant:
 * GMST rotation and the Sun's direction.
 */
export class TimeFrame {
  t_ms = Number.NaN;
  cosT = 1;
  sinT = 0;
  /** Sun direction (ECI unit vector) and distance (km), valid when set with the Sun. */
  sx = 1;
  sy = 0;
  sz = 0;
  sunDistKm = 1.496e8;
  private sunAt = Number.NaN;

  /** Sets GMST for t_ms; the Sun only when asked (the pass search never needs it). */
  set(t_ms: number, withSun: boolean): this {
    if (t_ms !== this.t_ms) {
      const g = gstime(julianDate(t_ms));
      this.cosT = Math.cos(g);
      this.sinT = Math.sin(g);
      this.t_ms = t_ms;
    }
    if (withSun && this.sunAt !== t_ms) {
      const { rsun } = sunPos(julianDate(t_ms));
      const d = Math.sqrt(rsun.x * rsun.x + rsun.y * rsun.y + rsun.z * rsun.z);
      this.sx = rsun.x / d;
      this.sy = rsun.y / d;
      this.sz = rsun.z / d;
      this.sunDistKm = d * KM_PER_AU;
      this.sunAt = t_ms;
    }
    return this;
  }
}

const KM_PER_AU = 149_597_870.7;
const SUN_RADIUS_KM = 695_700;
/** Spherical Earth for the shadow: the mean radius keeps the umbra edge within ~1 s of an oblate model for LEO. */
const EARTH_SHADOW_RADIUS_KM = 6371.0;

// Scratch layout of a state vector: ECI position (km) and velocity (km/s) as SGP4 returns them.
export const X = 0;
export const Y = 1;
export const Z = 2;
export const VX = 3;
export const VY = 4;
export const VZ = 5;

// Layout of a look result (Float64Array(LOOK_SIZE)).
export const L_AZ = 0; // rad, 0..2π from north through east
export const L_SIN_EL = 1; // sin(elevation)
export const L_DSIN_EL = 2; // d sin(el)/dt, 1/s (exact, from the velocity)
export const L_RANGE = 3; // km
export const L_RANGE_RATE = 4; // km/s, > 0 receding
export const L_COS_PSI = 5; // cos of the angle at the Earth's centre between `up` and the satellite
export const L_RADIUS = 6; // |r| km
export const LOOK_SIZE = 7;

/**
 * Look angles from an ECI state at the time of `tf`. Range rate is the projection of the
 * ECEF relative velocity (Earth rotation included) on the line of sight: exact, no differencing.
 * With `withAz` false the azimuth is skipped (the pass search only needs elevation).
 */
export function lookFromEci(o: ObserverFrame, tf: TimeFrame, s: Float64Array, out: Float64Array, withAz: boolean): void {
  const c = tf.cosT;
  const sn = tf.sinT;
  const px = c * s[X] + sn * s[Y];
  const py = -sn * s[X] + c * s[Y];
  const pz = s[Z];
  const vx = c * s[VX] + sn * s[VY] + EARTH_ROTATION_RAD_S * py;
  const vy = -sn * s[VX] + c * s[VY] - EARTH_ROTATION_RAD_S * px;
  const vz = s[VZ];
  const rx = px - o.ox;
  const ry = py - o.oy;
  const rz = pz - o.oz;
  const range = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const up = rx * o.ux + ry * o.uy + rz * o.uz;
  const upDot = vx * o.ux + vy * o.uy + vz * o.uz;
  const rdot = (rx * vx + ry * vy + rz * vz) / range;
  const sinEl = up / range;
  out[L_SIN_EL] = sinEl;
  out[L_DSIN_EL] = (upDot - sinEl * rdot) / range;
  out[L_RANGE] = range;
  out[L_RANGE_RATE] = rdot;
  const radius = Math.sqrt(px * px + py * py + pz * pz);
  out[L_RADIUS] = radius;
  out[L_COS_PSI] = (px * o.ux + py * o.uy + pz * o.uz) / radius;
  if (withAz) {
    const east = rx * o.ex + ry * o.ey;
    const north = rx * o.nx + ry * o.ny + rz * o.nz;
    let az = Math.atan2(east, north);
    if (az < 0) az += TWO_PI;
    out[L_AZ] = az;
  }
}

// Layout of a sub-satellite point (Float64Array(GROUND_SIZE)).
export const G_LAT = 0; // geodetic latitude, rad
export const G_LON = 1; // longitude, rad, −π..π
export const G_ALT = 2; // height above the WGS-84 ellipsoid, km
export const GROUND_SIZE = 3;

/**
 * The geodetic point under an ECI state at the time of `tf` (the ground track), on WGS-84.
 * Latitude by Bowring's iteration from the ECEF position: three rounds are below 1e-9 rad
 * at LEO and GEO heights.
 */
export function groundFromEci(tf: TimeFrame, s: Float64Array, out: Float64Array): void {
  const px = tf.cosT * s[X] + tf.sinT * s[Y];
  const py = -tf.sinT * s[X] + tf.cosT * s[Y];
  const pz = s[Z];
  const p = Math.sqrt(px * px + py * py);
  let lat = Math.atan2(pz, p * (1 - E2));
  let normal = WGS84_A_KM;
  for (let k = 0; k < 3; k++) {
    const sl = Math.sin(lat);
    normal = WGS84_A_KM / Math.sqrt(1 - E2 * sl * sl);
    lat = Math.atan2(pz + normal * E2 * sl, p);
  }
  const cl = Math.cos(lat);
  out[G_LAT] = lat;
  out[G_LON] = Math.atan2(py, px);
  // Near the poles p/cos(lat) is unstable; use the z form there.
  out[G_ALT] = Math.abs(cl) > 1e-3 ? p / cl - normal : Math.abs(pz) / Math.abs(Math.sin(lat)) - normal * (1 - E2);
}

/**
 * Sunlit test, conical umbra model: the Earth is a sphere (mean radius), the Sun a disc of its
 * true angular size seen from the satellite (satellite.js sunPos direction). The satellite is
 * sunlit unless it is inside the umbra, i.e. unless the Earth hides the whole solar disc;
 * the penumbra counts as sunlit.
 */
export function isSunlit(tf: TimeFrame, s: Float64Array): boolean {
  const rx = s[X];
  const ry = s[Y];
  const rz = s[Z];
  const along = rx * tf.sx + ry * tf.sy + rz * tf.sz;
  if (along >= 0) return true; // on the day side of the terminator plane
  const r = Math.sqrt(rx * rx + ry * ry + rz * rz);
  const earthAng = Math.asin(Math.min(1, EARTH_SHADOW_RADIUS_KM / r));
  const sunAng = Math.asin(SUN_RADIUS_KM / tf.sunDistKm);
  // Angle, seen from the satellite, between the Earth's centre and the Sun (Sun at infinity).
  const sep = Math.acos(Math.max(-1, Math.min(1, -along / r)));
  return sep > earthAng - sunAng;
}
