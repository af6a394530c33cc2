import type { Column } from './schemas.js';

// Linear presets: LINEAR_COLUMN_COUNT nominal uplinks at the centres of equal slices of the
// uplink passband (10/30/50/70/90%), each paired with the downlink it lands on. An inverting
// transponder maps the bottom of the uplink passband to the top of the downlink passband.

export const LINEAR_COLUMN_COUNT = 5;
const LABELS = ['low', 'low-mid', 'centre', 'high-mid', 'high'];

export interface Passband {
  uplink_low_hz: number;
  uplink_high_hz: number;
  downlink_low_hz: number;
  downlink_high_hz: number;
  inverting: boolean;
}

/** Downlink a nominal uplink lands on (linear map of the passbands, inverted when the transponder inverts). */
export function downlinkForUplink(pb: Passband, uplink_hz: number): number {
  const f = (uplink_hz - pb.uplink_low_hz) / (pb.uplink_high_hz - pb.uplink_low_hz);
  const dSpan = pb.downlink_high_hz - pb.downlink_low_hz;
  return pb.inverting ? pb.downlink_high_hz - f * dSpan : pb.downlink_low_hz + f * dSpan;
}

export function buildLinearColumns(pb: Passband, count = LINEAR_COLUMN_COUNT): Column[] {
  const cols: Column[] = [];
  for (let i = 0; i < count; i++) {
    const f = (i + 0.5) / count;
    const up = Math.round(pb.uplink_low_hz + f * (pb.uplink_high_hz - pb.uplink_low_hz));
    const label = count === LABELS.length ? LABELS[i] : `${Math.round(f * 100)}%`;
    cols.push({ uplink_hz: up, downlink_hz: Math.round(downlinkForUplink(pb, up)), label });
  }
  return cols;
}
