import { choosePath } from './plan/candidates.js';
import { pointFor } from './plan/point.js';
import type { LookAngles, LookAt, PassPlan, RotatorLimits } from './plan/types.js';

// The rotator's pass planner: pure, no I/O, no orbit engine (the service hands it a look-angle
// function). planPass decides once per pass, at track start, how the antennas follow it: which turn
// of the cable (a 450° rotator starts on the turn that runs the whole pass without unwinding),
// whether to go over the top (flip, when it avoids the end stop or the zenith swing), and how to
// cross a zenith keyhole without flip (never chasing the azimuth rate: the azimuth moves steadily
// to the far side while the satellite is high). pointFor turns live look angles into a command
// under that plan, always inside the limits; PassTracker (plan/tracker.ts) decides when to send.
//
// Controller coordinates (see plan/controller-range.ts): with the stop at north the azimuth runs
// az_min..az_max (0..450 on an overlap rotator, 360..450 re-covering compass 0..90); with the stop
// at south it runs -span/2..+span/2, centred on north. Compass azimuth = controller azimuth mod 360;
// a controller elevation above 90 looks over the top at compass (az + 180, 180 − el).

export type { FlipMode, Keyhole, LookAngles, LookAt, PassPlan, RotatorLimits } from './plan/types.js';
export { PassTracker, type TrackingOptions, type TrackCommand } from './plan/tracker.js';
export { controllerRange } from './plan/controller-range.js';
export { pointFor } from './plan/point.js';

/** Pass samples at least this far apart (a few per keyhole window even for the ISS overhead) … */
const MIN_STEP_MS = 2000;
/** … and at most this many: the planner's cost is one look per sample (≤ 2 ms per pass). */
const MAX_SAMPLES = 241;

export function planPass(pass: { sat_id: string; aos_ms: number; los_ms: number; look: LookAt }, limits: RotatorLimits): PassPlan {
  const duration = Math.max(0, pass.los_ms - pass.aos_ms);
  const n = Math.min(MAX_SAMPLES, Math.max(2, Math.ceil(duration / MIN_STEP_MS) + 1));
  const step = Math.max(1, duration / (n - 1));
  const az = new Float64Array(n);
  const el = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = pass.look(pass.aos_ms + i * step);
    az[i] = a.az_deg;
    el[i] = a.el_deg;
  }
  const c = choosePath({ t0_ms: pass.aos_ms, step_ms: step, az, el }, limits);
  const plan: PassPlan = {
    sat_id: pass.sat_id,
    aos_ms: pass.aos_ms,
    los_ms: pass.los_ms,
    flip: c.mode !== 'normal',
    az_wrap: c.overlap ? 'overlap' : 'none',
    preposition_az_deg: 0,
    preposition_el_deg: 0,
    mode: c.mode,
    switch_ms: c.switch_ms,
    keyhole: c.keyhole,
    path_az_deg: c.az,
    path_step_ms: step,
    unwind: c.unwind,
  };
  const pre = pointFor(plan, limits, { az_deg: az[0], el_deg: limits.el_min_deg }, pass.aos_ms);
  plan.preposition_az_deg = pre.az_deg;
  plan.preposition_el_deg = pre.el_deg;
  return plan;
}

