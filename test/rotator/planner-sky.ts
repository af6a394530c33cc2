import { bundledElements } from '../../src/catalog/bundled.js';
import { DEG, L_AZ, L_SIN_EL, LOOK_SIZE, lookFromEci, ObserverFrame, TimeFrame } from '../../src/orbit/frames.js';
import { PassFinder } from '../../src/orbit/pass-finder.js';
import { Propagator } from '../../src/orbit/propagator.js';
import type { Observer } from '../../src/orbit/types.js';
import type { LookAngles, LookAt } from '../../src/rotator/planner.js';

// Real passes for the planner's tests and bench: the bundled catalogue through the project's own
// propagator and pass finder, with a look-angle function per pass (what the rotator service hands
// the planner). The planner itself never sees the orbit engine.

export const T0 = Date.parse('2026-08-22T12:00:00Z');
export const H = 3600_000;
export const STATIONS: Record<string, Observer> = {
  greenwich: { lat_deg: 51.4779, lon_deg: -0.0015, alt_m: 46 },
  sydney: { lat_deg: -33.8688, lon_deg: 151.2093, alt_m: 58 },
  anchorage: { lat_deg: 61.2181, lon_deg: -149.9003, alt_m: 40 },
};

export interface SkyPass {
  sat_id: string;
  aos_ms: number;
  tca_ms: number;
  los_ms: number;
  max_el_deg: number;
  look: LookAt;
}

const propagator = new Propagator(bundledElements.map((e) => ({ sat_id: String(e.NORAD_CAT_ID), name: e.OBJECT_NAME ?? '', elements: e })));

/** A look-angle function for satellite i from a place. */
export function lookFor(i: number, where: ObserverFrame): LookAt {
  const st = new Float64Array(6);
  const lk = new Float64Array(LOOK_SIZE);
  const tf = new TimeFrame();
  return (t_ms: number): LookAngles => {
    if (!propagator.propagate(i, t_ms, st)) throw new Error(`no state for ${propagator.ids[i]}`);
    lookFromEci(where, tf.set(t_ms, false), st, lk, true);
    return { az_deg: lk[L_AZ] * DEG, el_deg: Math.asin(Math.max(-1, Math.min(1, lk[L_SIN_EL]))) * DEG };
  };
}

/** Every pass of the bundled catalogue from `where` over [from, from + hours). */
export function skyPasses(where: Observer, from = T0, hours = 48): SkyPass[] {
  const frame = new ObserverFrame(where);
  const finder = new PassFinder(propagator, frame);
  const out: SkyPass[] = [];
  for (let i = 0; i < propagator.size; i++) {
    const look = lookFor(i, frame);
    finder.search(i, from, from + hours * H, {
      add: (_s, aos_ms, tca_ms, los_ms, max_el_deg) => out.push({ sat_id: propagator.ids[i], aos_ms, tca_ms, los_ms, max_el_deg, look }),
    });
  }
  return out;
}
