// Eligibility rule for radio control (spec part 4): the one check used by session select, the
// default test pair, pass-driven start/arm and POST /radio/pair.

export interface RigBand {
  name: 'VHF' | 'UHF';
  low_hz: number;
  high_hz: number;
}

/** Inclusive ranges the validated rig is driven in. */
export const RIG_BANDS: readonly RigBand[] = [
  { name: 'VHF', low_hz: 144_000_000, high_hz: 148_000_000 },
  { name: 'UHF', low_hz: 420_000_000, high_hz: 450_000_000 },
];

export interface Eligibility {
  is_eligible: boolean;
  /** null when eligible. */
  eligibility_reason: string | null;
}

/** A pair in Hz; a missing or null uplink is a receive-only pair. A recommendation fits as is. */
export interface PairHz {
  uplink_hz?: number | null;
  downlink_hz?: number | null;
}

export function rigBandOf(hz: number): RigBand | null {
  for (const b of RIG_BANDS) if (hz >= b.low_hz && hz <= b.high_hz) return b;
  return null;
}

const present = (hz: number | null | undefined): hz is number => typeof hz === 'number' && Number.isFinite(hz) && hz > 0;
const mhz = (hz: number) => (hz / 1e6).toFixed(3);
const RANGES_TEXT = RIG_BANDS.map((b) => `${b.name} ${mhz(b.low_hz)}–${mhz(b.high_hz)} MHz`).join(' or ');

/** Eligible when either side lies in a rig band; a receive-only downlink in a band stays eligible. */
export function radioEligibility(pair: PairHz): Eligibility {
  const up = present(pair.uplink_hz) ? Math.round(pair.uplink_hz) : null;
  const down = present(pair.downlink_hz) ? Math.round(pair.downlink_hz) : null;
  if ((up !== null && rigBandOf(up)) || (down !== null && rigBandOf(down))) return { is_eligible: true, eligibility_reason: null };
  let what: string;
  if (up === null && down === null) what = 'no uplink or downlink frequency is known';
  else if (up === null) what = `receive-only downlink ${mhz(down!)} MHz is outside the rig ranges`;
  else if (down === null) what = `uplink ${mhz(up)} MHz is outside the rig ranges`;
  else what = `neither uplink ${mhz(up)} MHz nor downlink ${mhz(down)} MHz is inside the rig ranges`;
  return { is_eligible: false, eligibility_reason: `${what} (${RANGES_TEXT})` };
}
