import { correctPair, hzToMhz3, type CorrectedPair } from './doppler.js';
import type { PhaseInfo } from './phase.js';
import {
  PHASES,
  type FrequencyMatrix,
  type FrequencyProfile,
  type FrequencyRecommendation,
  type GuidanceEmbed,
  type LinearProfile,
  type MatrixRow,
  type Phase,
} from './schemas.js';

// Rules 3, 8 and 9: one recommendation and (linear only) the phase matrix, from a profile, the
// current phase and the range rate read for each phase. Pure: no clock, no orbit, no I/O.

/** Range rate per phase (PHASES order) and the time it was read for (ISO, null without a pass). */
export interface PhaseRates {
  range_rate_km_s: readonly number[];
  target: readonly (string | null)[];
}

/** The same rate for every phase (no pass or no path: live track or zero, rule 4). */
export function flatRates(range_rate_km_s: number): PhaseRates {
  return { range_rate_km_s: PHASES.map(() => range_rate_km_s), target: PHASES.map(() => null) };
}

export const phaseIndex = (p: Phase): number => PHASES.indexOf(p);

/** Rule 8: the requested column if valid, else default_column_index, else the middle column; null for fm. */
export function selectColumnIndex(profile: FrequencyProfile, requested?: number | null): number | null {
  if (profile.mode !== 'linear') return null;
  const n = profile.columns.length;
  const valid = (i: number | null | undefined): i is number => Number.isInteger(i) && i! >= 0 && i! < n;
  if (valid(requested)) return requested;
  if (valid(profile.default_column_index)) return profile.default_column_index;
  return Math.floor((n - 1) / 2);
}

const scratch: CorrectedPair = { uplink_hz: 0, downlink_hz: 0 };

/** A corrected column; uplink_hz null for a receive-only channel (nothing is ever made up for it). */
interface CorrectedColumn {
  uplink_hz: number | null;
  downlink_hz: number;
}
const corrected: CorrectedColumn = { uplink_hz: 0, downlink_hz: 0 };

function correctColumn(p: FrequencyProfile, col: number, rr: number): CorrectedColumn {
  const c = p.columns[col];
  const pair = correctPair(c.uplink_hz ?? 0, c.downlink_hz, rr, p.correction_side, p.uplink_step_hz, p.downlink_step_hz, scratch);
  corrected.uplink_hz = c.uplink_hz === null ? null : pair.uplink_hz;
  corrected.downlink_hz = pair.downlink_hz;
  return corrected;
}

const mhzOrNull = (hz: number | null) => (hz === null ? null : hzToMhz3(hz));

export function buildRecommendation(
  profile: FrequencyProfile,
  at: PhaseInfo,
  rates: PhaseRates,
  selected_column_index: number | null,
): FrequencyRecommendation {
  const rr = rates.range_rate_km_s[phaseIndex(at.phase)];
  const pair = correctColumn(profile, selected_column_index ?? 0, rr);
  return {
    sat_id: profile.sat_id,
    mode: profile.mode,
    phase: at.phase,
    label: at.label,
    correction_side: profile.correction_side,
    uplink_mhz: mhzOrNull(pair.uplink_hz),
    downlink_mhz: hzToMhz3(pair.downlink_hz),
    uplink_hz: pair.uplink_hz,
    downlink_hz: pair.downlink_hz,
    uplink_mode: profile.uplink_mode,
    downlink_mode: profile.downlink_mode,
    ctcss_hz: profile.ctcss_hz ?? null,
    range_rate_km_s: rr,
    selected_column_index,
    // Only receive-only recommendations carry the additive fields: two-way ones stay byte for byte as before.
    ...(profile.mode === 'fm' && profile.receive_only ? { receive_only: true, baud: profile.baud ?? null, description: profile.description ?? null } : {}),
  };
}

/** Rule 9: one row per phase, each with the selected column's pair and every column's pair. */
export function buildMatrix(
  profile: LinearProfile,
  active_phase: Phase,
  rates: PhaseRates,
  selected_column_index: number,
): FrequencyMatrix {
  const cols = profile.columns;
  const rows: MatrixRow[] = new Array(PHASES.length);
  for (let r = 0; r < PHASES.length; r++) {
    const rr = rates.range_rate_km_s[r];
    const cells = new Array(cols.length);
    for (let c = 0; c < cols.length; c++) {
      const pair = correctColumn(profile, c, rr);
      // linear columns always carry an uplink
      cells[c] = { uplink_mhz: hzToMhz3(pair.uplink_hz!), downlink_mhz: hzToMhz3(pair.downlink_hz) };
    }
    const sel = cells[selected_column_index];
    rows[r] = { phase: PHASES[r], target: rates.target[r], range_rate_km_s: rr, uplink_mhz: sel.uplink_mhz, downlink_mhz: sel.downlink_mhz, cells };
  }
  return {
    sat_id: profile.sat_id,
    mode: 'linear',
    selected_column_index,
    active_phase,
    columns: cols.map((c, index) => ({ index, label: c.label, uplink_mhz: hzToMhz3(c.uplink_hz), downlink_mhz: hzToMhz3(c.downlink_hz) })),
    rows,
  };
}

/** Rules 3–9 in one call: the model /passes, /system/state, /lite/snapshot and the direct route embed. */
export function buildGuidance(
  profile: FrequencyProfile | null,
  at: PhaseInfo,
  rates: PhaseRates,
  requested_column?: number | null,
): GuidanceEmbed {
  if (!profile) return { frequencyRecommendation: null, frequencyMatrix: null };
  const col = selectColumnIndex(profile, requested_column);
  return {
    frequencyRecommendation: buildRecommendation(profile, at, rates, col),
    frequencyMatrix: col === null || profile.mode !== 'linear' ? null : buildMatrix(profile, at.phase, rates, col),
  };
}
