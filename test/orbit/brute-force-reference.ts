import { ecfToLookAngles, eciToEcf, gstime, propagate, type SatRec } from 'satellite.js';

// A deliberately simple, independent pass predictor for the accuracy tests: 1 s scan with
// plain satellite.js propagate(Date) + eciToEcf + ecfToLookAngles, bisection on the elevation
// sign to 1 ms for AOS/LOS, golden-section search to 1 ms for the peak. It shares no code with
// src/orbit (own frames, own time handling, no velocity, no adaptive step). With a 60 s step and
// 10 ms tolerance it is also the bench's "plain satellite.js approach" baseline.

export interface RefPass {
  aos: number;
  tca: number;
  los: number;
  maxEl: number;
}

const RAD = Math.PI / 180;

export function refElevationDeg(rec: SatRec, lat: number, lon: number, altM: number, t: number): number {
  const d = new Date(t);
  const pv = propagate(rec, d);
  if (!pv) return Number.NaN;
  const ecf = eciToEcf(pv.position, gstime(d));
  return ecfToLookAngles({ latitude: lat * RAD, longitude: lon * RAD, height: altM / 1000 }, ecf).elevation / RAD;
}

export function refPasses(
  rec: SatRec,
  lat: number,
  lon: number,
  altM: number,
  from: number,
  to: number,
  { stepMs = 1000, tolMs = 1 }: { stepMs?: number; tolMs?: number } = {},
): RefPass[] {
  const el = (t: number) => refElevationDeg(rec, lat, lon, altM, t);
  const bisect = (lo: number, hi: number, rising: boolean) => {
    while (hi - lo > tolMs) {
      const mid = (lo + hi) / 2;
      if ((el(mid) >= 0) === rising) hi = mid;
      else lo = mid;
    }
    return (lo + hi) / 2;
  };
  const golden = (lo: number, hi: number) => {
    const g = (Math.sqrt(5) - 1) / 2;
    let a = lo;
    let b = hi;
    let c = b - g * (b - a);
    let d = a + g * (b - a);
    let fc = el(c);
    let fd = el(d);
    while (b - a > tolMs) {
      if (fc > fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - g * (b - a);
        fc = el(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + g * (b - a);
        fd = el(d);
      }
    }
    return (a + b) / 2;
  };
  const out: RefPass[] = [];
  let prev = el(from);
  let aos = Number.NaN;
  let bestT = Number.NaN;
  let best = -Infinity;
  for (let t = from + stepMs; t <= to; t += stepMs) {
    const e = el(t);
    if (prev < 0 && e >= 0) {
      aos = bisect(t - stepMs, t, true);
      best = -Infinity;
    }
    if (e >= 0 && e > best) {
      best = e;
      bestT = t;
    }
    if (prev >= 0 && e < 0 && aos === aos) {
      const los = bisect(t - stepMs, t, false);
      const tca = golden(Math.max(aos, bestT - stepMs), Math.min(los, bestT + stepMs));
      out.push({ aos, tca, los, maxEl: el(tca) });
      aos = Number.NaN;
    }
    prev = e;
  }
  return out;
}
