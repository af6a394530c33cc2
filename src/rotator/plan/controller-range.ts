import type { RotatorLimits } from './types.js';

/**
 * The controller's azimuth range and its plain 360° window.
 *
 * Controller coordinates (what a plan commands; a driver converts to what its protocol expresses):
 * - `az_stop: 'north'`: the azimuth runs az_min_deg..az_max_deg (0..360, or 0..450 for an overlap
 *   rotator: 360..450 re-covers compass 0..90 on the second turn of the cable).
 * - `az_stop: 'south'`: the range is centred on north, -span/2..+span/2 with
 *   span = az_max_deg − az_min_deg (-180..180 for a 360° rotator, -225..225 for 450°).
 * In both, compass azimuth = controller azimuth mod 360.
 * Elevation runs el_min_deg..el_max_deg; above 90 the antenna looks over the top, so a controller
 * (az, el > 90) points at compass (az + 180, 180 − el).
 */
export interface ControllerRange {
  lo: number;
  hi: number;
  /** The first turn (lo..lo+360): beyond it the plan uses the overlap. */
  base_lo: number;
  base_hi: number;
}

export function controllerRange(l: RotatorLimits): ControllerRange {
  const span = l.az_max_deg - l.az_min_deg;
  if (l.az_stop === 'south') {
    const half = Math.min(span, 360) / 2;
    return { lo: -span / 2, hi: span / 2, base_lo: -half, base_hi: half };
  }
  return { lo: l.az_min_deg, hi: l.az_max_deg, base_lo: l.az_min_deg, base_hi: l.az_min_deg + Math.min(span, 360) };
}

/** Whether flipped (over the top) pointing is available: flip auto and an elevation range past 90°. */
export const canFlip = (l: RotatorLimits): boolean => l.flip === 'auto' && l.el_max_deg > 90;

export const clamp = (x: number, lo: number, hi: number): number => (x < lo ? lo : x > hi ? hi : x);

/** The value ≡ az (mod 360) nearest to ref. */
export const nearestTurn = (az: number, ref: number): number => az + 360 * Math.round((ref - az) / 360);
