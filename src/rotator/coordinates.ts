import type { RotatorSettings } from './settings.js';
import type { RotatorLimits } from './planner.js';
import { clamp, controllerRange, nearestTurn } from './plan/controller-range.js';
import { badRequest } from '../util/errors.js';

// Controller coordinates (what the planner commands and the API shows) against what goes on the
// wire. A north-stop controller speaks them as they are (0…az_max). With a south stop the range
// is centred on north (−180…180 for a 360° rotator): Hamlib's rotctld takes those values as they
// are (its min_az is negative then), while a serial controller set up for a south stop takes
// compass 0…360 and finds its own way round; its readback is turned back into the turn nearest
// where the antenna was last sent.

export const limitsOf = (s: RotatorSettings): RotatorLimits => ({
  az_min_deg: s.az_min_deg,
  az_max_deg: s.az_max_deg,
  el_min_deg: s.el_min_deg,
  el_max_deg: s.el_max_deg,
  az_stop: s.az_stop,
  flip: s.flip,
});

const speaksControllerCoordinates = (s: RotatorSettings) => s.az_stop === 'north' || s.protocol === 'rotctld';

/** The azimuth as the controller's protocol carries it. */
export function azToWire(s: RotatorSettings, az: number): number {
  return speaksControllerCoordinates(s) ? az : ((az % 360) + 360) % 360;
}

/** A read-back azimuth in controller coordinates (ref: where the antenna was last sent, or 0). */
export function azFromWire(s: RotatorSettings, az: number, ref: number | null): number {
  if (speaksControllerCoordinates(s)) return az;
  const r = controllerRange(limitsOf(s));
  return clamp(nearestTurn(az, ref ?? 0), r.lo, r.hi);
}

/**
 * A goto's azimuth in controller coordinates, or null when it is outside the limits. Taken as
 * given when inside the controller's range; a compass azimuth (0…360) is also accepted and goes
 * to the turn nearest the antenna (south stop, or the overlap of a 450° rotator).
 */
export function gotoAzimuth(s: RotatorSettings, az: number, current: number | null): number | null {
  const r = controllerRange(limitsOf(s));
  if (az >= r.lo && az <= r.hi && (s.az_stop === 'north' || az <= 180)) return az;
  if (az < 0 || az > 360) return null;
  let c = nearestTurn(az, current ?? 0);
  if (c > r.hi) c -= 360;
  if (c < r.lo) c += 360;
  return c >= r.lo && c <= r.hi ? c : null;
}

/** Every command is clamped into the limits at the last step: no command ever asks for more. */
export function insideLimits(s: RotatorSettings, az: number, el: number): { az_deg: number; el_deg: number } {
  const r = controllerRange(limitsOf(s));
  return { az_deg: clamp(az, r.lo, r.hi), el_deg: clamp(el, s.el_min_deg, s.el_max_deg) };
}

/** A goto's target checked against the limits (a 400 naming the field) and in controller coordinates. */
export function checkGoto(s: RotatorSettings, az_deg: number, el_deg: number, current: number | null): { az_deg: number; el_deg: number } {
  if (el_deg < s.el_min_deg || el_deg > s.el_max_deg) throw badRequest(`el_deg must be within ${s.el_min_deg}…${s.el_max_deg}°`, { field: 'el_deg', min: s.el_min_deg, max: s.el_max_deg });
  const az = gotoAzimuth(s, az_deg, current);
  if (az === null) throw badRequest(`az_deg must be within the rotator's limits (${s.az_min_deg}…${s.az_max_deg}°${s.az_stop === 'south' ? ', south stop' : ''})`, { field: 'az_deg', min: s.az_min_deg, max: s.az_max_deg });
  return { az_deg: az, el_deg };
}
