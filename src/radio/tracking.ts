import { correctPair, correctsDownlink, dopplerShiftHz, type CorrectedPair } from '../guidance/doppler.js';
import type { FrequencyProfile } from '../guidance/schemas.js';

// Auto-track arithmetic, pure: where a satellite pair sits in the transponder (the satellite-frame
// "position"), the rig targets for a range rate, the deadband that keeps the bus quiet, and the
// knob-follow translation of an operator's receive frequency back into the passband.

/** Finer than the guidance steps (rule 7 is for display); the deadband decides what is written. */
export const TRACK_RESOLUTION = {
  fm: { quantum_hz: 100, deadband_hz: 300 },
  linear: { quantum_hz: 10, deadband_hz: 30 },
} as const;

export interface TrackPosition {
  /** Satellite-frame (nominal) frequencies: what the transponder hears and sends. */
  up_hz: number | null;
  down_hz: number;
}

export interface TrackPlan {
  profile: FrequencyProfile;
  position: TrackPosition;
}

export interface RigTargets {
  rx_hz: number;
  tx_hz: number | null;
}

/** The selected column as the starting position. */
export function initialPosition(profile: FrequencyProfile, column: number | null): TrackPosition {
  const c = profile.columns[column ?? 0] ?? profile.columns[0];
  return { up_hz: c.uplink_hz, down_hz: c.downlink_hz };
}

const scratch: CorrectedPair = { uplink_hz: 0, downlink_hz: 0 };

/** Rig targets for one range rate: the shared Doppler model (rules 5–6), quantized for tracking. */
export function targetsFor(plan: TrackPlan, range_rate_km_s: number, out: RigTargets): RigTargets {
  const p = plan.profile;
  const q = TRACK_RESOLUTION[p.mode].quantum_hz;
  const up = plan.position.up_hz;
  correctPair(up ?? 0, plan.position.down_hz, range_rate_km_s, p.correction_side, q, q, scratch);
  out.rx_hz = scratch.downlink_hz;
  out.tx_hz = up === null ? null : scratch.uplink_hz;
  return out;
}

/** Write a leg only when it moved past the mode's deadband (and never to the value it has). */
export function legNeedsWrite(mode: 'fm' | 'linear', written_hz: number | null, next_hz: number | null): boolean {
  if (next_hz === null) return false;
  if (written_hz === null) return true;
  return Math.abs(next_hz - written_hz) >= TRACK_RESOLUTION[mode].deadband_hz;
}

/**
 * Knob-follow: the operator tuned the receive VFO to rx_hz. Undo the downlink Doppler to find the
 * satellite-frame downlink, then place the uplink at the same spot of the transponder: mirrored
 * for an inverting one (up + down constant), shifted for a non-inverting one (up − down constant).
 * Outside the downlink passband only the receive side follows (a beacon, say): null uplink change.
 */
export function followKnob(plan: TrackPlan, rx_hz: number, range_rate_km_s: number): { position: TrackPosition; uplink_follows: boolean } {
  const p = plan.profile;
  const sat_down = correctsDownlink(p.correction_side, rx_hz) ? rx_hz - dopplerShiftHz(rx_hz, range_rate_km_s) : rx_hz;
  const pb = p.passband;
  const inBand = !pb || (sat_down >= pb.downlink_low_hz && sat_down <= pb.downlink_high_hz);
  if (p.mode !== 'linear' || plan.position.up_hz === null || !inBand) {
    return { position: { up_hz: plan.position.up_hz, down_hz: Math.round(sat_down) }, uplink_follows: false };
  }
  const c = p.columns[p.default_column_index ?? 0] ?? p.columns[0];
  const up = p.inverting ? c.uplink_hz + c.downlink_hz - sat_down : sat_down + (c.uplink_hz - c.downlink_hz);
  return { position: { up_hz: Math.round(up), down_hz: Math.round(sat_down) }, uplink_follows: true };
}

/**
 * Two stable reads: a knob reading is acted on once the same value (within the quantum) is seen
 * twice in a row and it differs from what we last wrote by more than the deadband.
 */
export class KnobWatch {
  private last: number | null = null;
  private count = 0;
  constructor(private readonly mode: 'fm' | 'linear') {}

  /** Feeds one observation; returns the settled knob frequency once it is stable, else null. */
  observe(rx_hz: number, written_hz: number | null): number | null {
    const r = TRACK_RESOLUTION[this.mode];
    if (written_hz !== null && Math.abs(rx_hz - written_hz) < r.deadband_hz) {
      this.reset();
      return null; // the rig is where we put it
    }
    if (this.last !== null && Math.abs(rx_hz - this.last) <= r.quantum_hz) this.count++;
    else this.count = 1;
    this.last = rx_hz;
    return this.count >= 2 ? rx_hz : null;
  }

  /** True while the operator's hand is (or may be) on the knob: we leave the rig alone. */
  get moving(): boolean {
    return this.count > 0;
  }

  reset(): void {
    this.last = null;
    this.count = 0;
  }
}
