// What the station fills into a QSO (pure): which satellite it was on, its frequencies and mode,
// and the record itself with LoTW's satellite name, the AMSAT mode letters and the ADIF bands.
// The inputs are plain values the service reads through injected functions (it imports no radio,
// APRS or station module), so every rule here is tested without a server.
import { adifBandOfHz } from './bands.js';
import { lotwSatName, type SatelliteIdentity } from './lotw-names.js';
import { OPERATOR_MODES, type OperatorMode } from './operator-modes.js';
import { adifModeOfRig, type AdifMode } from './rig-mode.js';
import { PROP_MODE_SATELLITE, satModeOf } from './sat-mode.js';
import type { QsoRecord, QsoRequest } from './schemas.js';

/** A pass window (epoch ms). */
export interface PassWindow {
  sat_id: string;
  aos_ms: number;
  los_ms: number;
}

/** A QSO logged this long before AOS or after LOS of the radio session's pass still belongs to it. */
export const SESSION_MARGIN_MS = 15 * 60_000;

/**
 * The satellite of a QSO logged without sat_id: the radio session's (its pass window, with a
 * margin for a QSO typed in just after LOS), else the lite focus's pass under way; else none.
 */
export function subjectSatellite(session: PassWindow | null, focusPass: PassWindow | null, now_ms: number): string | null {
  if (session && now_ms >= session.aos_ms - SESSION_MARGIN_MS && now_ms <= session.los_ms + SESSION_MARGIN_MS) return session.sat_id;
  if (focusPass && focusPass.aos_ms <= now_ms && now_ms < focusPass.los_ms) return focusPass.sat_id;
  return null;
}

/** The rig as the radio runtime shows it: the receive and transmit VFOs, their modes, split as read back. */
export interface RigView {
  connected: boolean;
  active_sat_id: string | null;
  rx_hz: number | null;
  tx_hz: number | null;
  rx_mode: string | null;
  tx_mode: string | null;
  /** null before the first readback. */
  split: boolean | null;
}

/** The frequency guide's answer for the satellite now (uplink null: receive-only). */
export interface Recommendation {
  uplink_hz: number | null;
  downlink_hz: number;
  uplink_mode: string;
  downlink_mode: string;
}

export interface QsoRadio {
  uplink_hz: number | null;
  downlink_hz: number | null;
  /** The rig mode on the uplink (what we transmitted), else the downlink's. */
  rig_mode: string | null;
}

const NO_RADIO: QsoRadio = { uplink_hz: null, downlink_hz: null, rig_mode: null };

/**
 * Frequencies of the QSO. On a satellite: the rig's own targets when it is connected and
 * tracking that satellite (what was really on the air), else the guide's recommendation now.
 * Without a satellite: the rig's frequencies (transmit VFO only with split on; a simplex QSO
 * transmits where it receives). A tracking session sets both VFOs whatever split reads.
 */
export function qsoRadio(sat_id: string | null, rig: RigView, rec: Recommendation | null): QsoRadio {
  const rigUsable = rig.connected && rig.rx_hz !== null;
  if (sat_id) {
    if (rigUsable && rig.active_sat_id === sat_id) return { uplink_hz: rig.tx_hz, downlink_hz: rig.rx_hz, rig_mode: (rig.tx_hz !== null ? rig.tx_mode : null) ?? rig.rx_mode };
    if (rec) return { uplink_hz: rec.uplink_hz, downlink_hz: rec.downlink_hz, rig_mode: rec.uplink_hz !== null ? rec.uplink_mode : rec.downlink_mode };
    return NO_RADIO;
  }
  if (!rigUsable) return NO_RADIO;
  const split = rig.split === true && rig.tx_hz !== null;
  return { uplink_hz: split ? rig.tx_hz : rig.rx_hz, downlink_hz: rig.rx_hz, rig_mode: (split ? rig.tx_mode : null) ?? rig.rx_mode };
}

/** The QSO's mode: the operator's when given, else the rig's or the guide's; null: nobody can tell. */
export function qsoMode(said: OperatorMode | undefined, radio: QsoRadio): AdifMode | null {
  return said ? OPERATOR_MODES[said] : adifModeOfRig(radio.rig_mode);
}

export interface FillContext {
  id: string;
  now_ms: number;
  station_callsign: string;
  my_gridsquare: string | null;
  /** The satellite (its id and the names LoTW may know it by), or null for a terrestrial QSO. */
  sat: (SatelliteIdentity & { sat_id: string }) | null;
  radio: QsoRadio;
  /** qsoMode's answer: a QSO is never stored without one (LoTW and the loggers refuse it). */
  mode: AdifMode;
  /** The pass recording under way at time_on, and the offset into it; null when none. */
  recording: { recording_id: string; recording_offset_s: number } | null;
}

const MHZ = 1e6;
/** Hz → MHz as ADIF FREQ wants it, to the Hz (no binary noise like 145.80000000000001). */
const mhzOf = (hz: number | null): number | null => (hz === null ? null : Math.round(hz) / MHZ);

/** The stored record of a QSO request in its station context (push_state starts 'pending'). */
export function fillQso(req: QsoRequest, c: FillContext): QsoRecord {
  const { uplink_hz, downlink_hz } = c.radio;
  // A simplex terrestrial QSO has one frequency: FREQ_RX/BAND_RX only when they differ.
  const split = c.sat !== null || (downlink_hz !== null && downlink_hz !== uplink_hz);
  return {
    id: c.id,
    time_on: req.time_on ?? new Date(c.now_ms).toISOString(),
    call: req.call,
    their_grid: req.their_grid ?? null,
    rst_sent: req.rst_sent ?? null,
    rst_rcvd: req.rst_rcvd ?? null,
    comment: req.comment ?? null,
    sat_id: c.sat?.sat_id ?? null,
    sat_name: c.sat ? lotwSatName(c.sat) : null,
    sat_mode: c.sat ? satModeOf(uplink_hz, downlink_hz) : null,
    prop_mode: c.sat ? PROP_MODE_SATELLITE : null,
    freq_mhz: mhzOf(uplink_hz),
    freq_rx_mhz: split ? mhzOf(downlink_hz) : null,
    band: uplink_hz === null ? null : adifBandOfHz(uplink_hz),
    band_rx: split && downlink_hz !== null ? adifBandOfHz(downlink_hz) : null,
    mode: c.mode.mode,
    submode: c.mode.submode ?? null,
    station_callsign: c.station_callsign,
    my_gridsquare: c.my_gridsquare,
    push_state: 'pending',
    push_error: null,
    recording_id: c.recording?.recording_id ?? null,
    recording_offset_s: c.recording?.recording_offset_s ?? null,
  };
}
