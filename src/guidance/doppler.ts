import type { CorrectionSide } from './schemas.js';

// Doppler correction (spec part 4 rules 5–7), first order.
//
// range_rate_km_s keeps the tracker sign: positive while the range grows (receding).
// The shift is defined positive on approach: shift_hz = -(range_rate_m_s / c) * carrier_hz.
// With that sign rule 5 reads as written: the downlink is heard at nominal + shift (above nominal
// while approaching) and the uplink is sent at nominal - shift (below nominal while approaching), so
//   corrected_downlink = nominal * (1 - rr/c),  corrected_uplink = nominal * (1 + rr/c).

export const SPEED_OF_LIGHT_M_S = 299_792_458;
/** uhf_only corrects carriers at or above this frequency. */
export const UHF_CORRECTION_THRESHOLD_HZ = 400_000_000;

/** Doppler shift of a carrier, positive while the satellite approaches (range_rate < 0). */
export function dopplerShiftHz(carrier_hz: number, range_rate_km_s: number): number {
  return -((range_rate_km_s * 1000) / SPEED_OF_LIGHT_M_S) * carrier_hz;
}

/** Frequency the satellite's downlink is heard on. */
export function correctDownlinkHz(nominal_hz: number, range_rate_km_s: number): number {
  return nominal_hz + dopplerShiftHz(nominal_hz, range_rate_km_s);
}

/** Frequency to transmit so the satellite hears the nominal uplink. */
export function correctUplinkHz(nominal_hz: number, range_rate_km_s: number): number {
  return nominal_hz - dopplerShiftHz(nominal_hz, range_rate_km_s);
}

/** Rule 6: which sides of the pair get Doppler movement. */
export function correctsUplink(side: CorrectionSide, uplink_hz: number): boolean {
  return side === 'full_duplex' || (side === 'uhf_only' && uplink_hz >= UHF_CORRECTION_THRESHOLD_HZ);
}

export function correctsDownlink(side: CorrectionSide, downlink_hz: number): boolean {
  return side !== 'uhf_only' || downlink_hz >= UHF_CORRECTION_THRESHOLD_HZ;
}

/** Rule 7: round(hz / step) * step; plain rounding when the step is zero, negative or not finite. */
export function quantizeHz(hz: number, step_hz: number): number {
  if (!(step_hz > 0) || !Number.isFinite(step_hz)) return Math.round(hz);
  return Math.round(hz / step_hz) * step_hz;
}

/** Hz → MHz with 3 decimals (1 kHz resolution). */
export function hzToMhz3(hz: number): number {
  return Math.round(hz / 1000) / 1000;
}

export interface CorrectedPair {
  uplink_hz: number;
  downlink_hz: number;
}

/** Rules 5–7 for one nominal pair: correct the sides the profile allows, then quantize each with its step. */
export function correctPair(
  nominal_uplink_hz: number,
  nominal_downlink_hz: number,
  range_rate_km_s: number,
  side: CorrectionSide,
  uplink_step_hz: number,
  downlink_step_hz: number,
  out: CorrectedPair = { uplink_hz: 0, downlink_hz: 0 },
): CorrectedPair {
  const up = correctsUplink(side, nominal_uplink_hz) ? correctUplinkHz(nominal_uplink_hz, range_rate_km_s) : nominal_uplink_hz;
  const down = correctsDownlink(side, nominal_downlink_hz)
    ? correctDownlinkHz(nominal_downlink_hz, range_rate_km_s)
    : nominal_downlink_hz;
  out.uplink_hz = quantizeHz(up, uplink_step_hz);
  out.downlink_hz = quantizeHz(down, downlink_step_hz);
  return out;
}
