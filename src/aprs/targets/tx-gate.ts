// The transmit gate (pure): every reason a send must not key the transmitter, checked in one
// place, in a fixed order so the operator sees the most fundamental reason first.

import { RIG_BANDS, rigBandOf } from '../../guidance/eligibility.js';

const mhz = (hz: number) => (hz / 1e6).toFixed(3);
const BANDS = RIG_BANDS.map((b) => `${b.name} ${mhz(b.low_hz)}–${mhz(b.high_hz)} MHz`).join(', ');

export interface GateInput {
  emergency_stopped: boolean;
  identity: { valid: boolean; reason?: string };
  listen_only: boolean;
  /** What the target itself says is wrong (no channel, unknown satellite), or null. */
  target_problem: string | null;
  requires_pass: boolean;
  pass_active: boolean;
  pass_aos: string | null;
  /** The frequency we would key up on (satellite: the uplink), or null when unknown. */
  tx_hz: number | null;
}

export interface GateResult {
  can_transmit: boolean;
  tx_block_reason: string | null;
}

export function transmitGate(g: GateInput): GateResult {
  const block = (reason: string): GateResult => ({ can_transmit: false, tx_block_reason: reason });
  if (g.emergency_stopped) return block('emergency stop in force: transmit blocked until the next connect');
  if (!g.identity.valid) return block(`station callsign not valid: ${g.identity.reason ?? 'check callsign and SSID'}`);
  if (g.listen_only) return block('listen-only is on');
  if (g.target_problem) return block(g.target_problem);
  if (g.tx_hz === null) return block('no transmit frequency');
  if (g.requires_pass && !g.pass_active) {
    return block(g.pass_aos ? `outside the pass: transmit opens at AOS ${g.pass_aos}` : 'outside the pass: no upcoming pass found');
  }
  if (!rigBandOf(g.tx_hz)) return block(`transmit frequency ${mhz(g.tx_hz)} MHz is outside the eligibility bands (${BANDS})`);
  return { can_transmit: true, tx_block_reason: null };
}
