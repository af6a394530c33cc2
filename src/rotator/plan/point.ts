import { flippedAt } from './candidates.js';
import { clamp, controllerRange, nearestTurn } from './controller-range.js';
import type { LookAngles, PassPlan, RotatorLimits } from './types.js';

/** The rotator command (controller coordinates, ALWAYS inside the limits) for the satellite's look angles under this plan. */
export function pointFor(plan: PassPlan, limits: RotatorLimits, at: LookAngles, t_ms: number): LookAngles {
  const r = controllerRange(limits);
  const flipped = flippedAt(plan.mode, plan.switch_ms, t_ms);
  const e = clamp(at.el_deg, limits.el_min_deg, 90);
  const el = clamp(flipped ? 180 - e : e, limits.el_min_deg, limits.el_max_deg);
  const k = plan.keyhole;
  const az =
    k && t_ms > k.start_ms && t_ms < k.end_ms
      ? k.az_in_deg + ((k.az_out_deg - k.az_in_deg) * (t_ms - k.start_ms)) / (k.end_ms - k.start_ms)
      : nearestTurn(at.az_deg + (flipped ? 180 : 0), referenceAz(plan, t_ms));
  return { az_deg: clamp(az, r.lo, r.hi), el_deg: el };
}

/** The planned controller azimuth at t (held at the ends outside the pass). */
function referenceAz(plan: PassPlan, t_ms: number): number {
  const p = plan.path_az_deg;
  const x = clamp((t_ms - plan.aos_ms) / plan.path_step_ms, 0, p.length - 1);
  const i = Math.min(p.length - 2, Math.floor(x));
  if (i < 0) return p[0];
  return p[i] + (p[i + 1] - p[i]) * (x - i);
}
