import { pointFor } from './point.js';
import { clamp, controllerRange, nearestTurn } from './controller-range.js';
import type { LookAngles, LookAt, PassPlan, RotatorLimits } from './types.js';

export interface TrackingOptions {
  lead_s: number;
  deadband_deg: number;
  update_interval_ms: number;
  preposition_s: number;
  /** Compass azimuth and elevation to park at after LOS; null: no park after the pass. */
  park: LookAngles | null;
}

export interface TrackCommand {
  az_deg: number;
  el_deg: number;
  phase: 'preposition' | 'tracking' | 'parking' | 'done';
}

/**
 * A target sent again while the rotator still has not reached it after this long (a command the
 * controller lost): resending the same target at every tick would only add traffic.
 */
const RESEND_AFTER_INTERVALS = 5;

/**
 * One tracking tick: what to command now (null: nothing to send). Keeps its own small state (last
 * command, last send time). Phases: nothing until preposition_s before AOS, then the preposition
 * point; from AOS the satellite lead_s ahead; after LOS the park point (if any). A new target goes
 * out only when it is more than deadband_deg off the rotator's position on either axis (the last
 * command when the position is unknown), and at most once per update_interval_ms: small errors
 * never start the motors (relays burnt by a tiny deadband, satnogs-client#269). When the pass is
 * over (parked, or LOS without park) one 'done' result repeats the last target, then null forever.
 */
export class PassTracker {
  private last: LookAngles | null = null;
  private lastSentMs = -Infinity;
  private finished = false;
  private readonly parkAt: LookAngles | null;

  constructor(
    private readonly plan: PassPlan,
    private readonly limits: RotatorLimits,
    private readonly look: LookAt,
    private readonly o: TrackingOptions,
  ) {
    this.parkAt = o.park && parkPoint(o.park, plan, limits);
  }

  /** True once the 'done' result has been returned. */
  get done(): boolean {
    return this.finished;
  }

  tick(now_ms: number, position: LookAngles | null): TrackCommand | null {
    if (this.finished) return null;
    const p = this.plan;
    if (now_ms < p.aos_ms) {
      if (now_ms < p.aos_ms - this.o.preposition_s * 1000) return null;
      return this.send(now_ms, position, { az_deg: p.preposition_az_deg, el_deg: p.preposition_el_deg }, 'preposition');
    }
    if (now_ms <= p.los_ms) {
      const t = now_ms + this.o.lead_s * 1000;
      return this.send(now_ms, position, pointFor(p, this.limits, this.look(t), t), 'tracking');
    }
    const park = this.parkAt;
    if (park) {
      const cmd = this.send(now_ms, position, park, 'parking');
      if (cmd) return cmd;
      const ref = position ?? this.last;
      if (ref && axisError(park, ref) > this.o.deadband_deg) return null; // on its way (or the interval not yet out)
    }
    this.finished = true;
    const final = this.last ?? { az_deg: p.preposition_az_deg, el_deg: p.preposition_el_deg };
    return { az_deg: final.az_deg, el_deg: final.el_deg, phase: 'done' };
  }

  private send(now_ms: number, position: LookAngles | null, target: LookAngles, phase: TrackCommand['phase']): TrackCommand | null {
    if (now_ms - this.lastSentMs < this.o.update_interval_ms) return null;
    const last = this.last;
    const db = this.o.deadband_deg;
    if (last && axisError(target, position ?? last) <= db) return null;
    // Still on its way to a target close to this one: let it get there unless it seems to have lost it.
    if (last && position && axisError(target, last) <= db && now_ms - this.lastSentMs < RESEND_AFTER_INTERVALS * this.o.update_interval_ms) return null;
    this.last = { az_deg: target.az_deg, el_deg: target.el_deg };
    this.lastSentMs = now_ms;
    return { az_deg: target.az_deg, el_deg: target.el_deg, phase };
  }
}

/** Per-axis error in controller coordinates (each axis has its own motor and relay). */
const axisError = (a: LookAngles, b: LookAngles): number => Math.max(Math.abs(a.az_deg - b.az_deg), Math.abs(a.el_deg - b.el_deg));

/** The park point in controller coordinates: the turn nearest where the pass ends, inside the limits. */
function parkPoint(park: LookAngles, plan: PassPlan, limits: RotatorLimits): LookAngles {
  const r = controllerRange(limits);
  const end = plan.path_az_deg[plan.path_az_deg.length - 1];
  let az = nearestTurn(park.az_deg, end);
  if (az > r.hi) az -= 360;
  if (az < r.lo) az += 360;
  return { az_deg: clamp(az, r.lo, r.hi), el_deg: clamp(park.el_deg, limits.el_min_deg, limits.el_max_deg) };
}
