import type { AprsSettings } from './settings.js';
import type { AprsRuntime, AprsTarget } from './schemas.js';

// APRS runtime and target as system state and the lite snapshot show them (spec part 2).
// Until the APRS station service lands, `defaultAprsStatus` answers with the resting state:
// nothing started, transmit blocked. The APRS service replaces services.aprsStatus.

export type { AprsRuntime, AprsTarget } from './schemas.js';

/** What the station reads from the APRS side; the APRS service implements it. */
export interface AprsStatusSource {
  runtime(settings: AprsSettings): AprsRuntime;
  previewTarget(settings: AprsSettings): AprsTarget;
}

const NOT_RUNNING = 'APRS station service not running';

export function defaultAprsTarget(s: AprsSettings): AprsTarget {
  const sat = s.operating_mode === 'satellite';
  return {
    operating_mode: s.operating_mode,
    label: sat ? `satellite ${s.selected_satellite_id ?? '(none selected)'}` : 'terrestrial',
    sat_id: sat ? s.selected_satellite_id : null,
    sat_name: null,
    channel_id: sat ? s.selected_channel_id : null,
    channel_label: null,
    frequency_hz: sat ? null : s.terrestrial_manual_frequency_hz,
    uplink_hz: null,
    downlink_hz: null,
    path_default: sat ? s.satellite_path : s.terrestrial_path,
    region_label: null,
    guidance: null,
    requires_pass: sat,
    pass_active: false,
    pass_aos: null,
    pass_los: null,
    corrected_frequency_hz: null,
    corrected_uplink_hz: null,
    corrected_downlink_hz: null,
    correction_side: null,
    active_phase: null,
    retune_active: false,
    can_transmit: false,
    tx_block_reason: NOT_RUNNING,
    reason: NOT_RUNNING,
  };
}

export function defaultAprsRuntime(s: AprsSettings): AprsRuntime {
  return {
    connected: false,
    session_active: false,
    sidecar_running: false,
    kiss_connected: false,
    audio_rx_active: false,
    audio_tx_active: false,
    transport_mode: s.transport_mode,
    control_endpoint: s.transport_mode === 'wifi' ? `${s.wifi_host}:${s.wifi_control_port}` : s.kiss_host ? `${s.kiss_host}:${s.kiss_port}` : `${s.tnc_binary} (KISS on a pseudo-terminal)`,
    modem_state: 'stopped',
    capabilities: [],
    owned_resource: null,
    last_error: null,
    last_started_at: null,
    last_packet_at: null,
    last_tx_at: null,
    last_tx_packet_type: null,
    last_tx_text: null,
    last_tx_raw_tnc2: null,
    packets_rx: 0,
    packets_tx: 0,
    packets_digipeated: 0,
    packets_igated: 0,
    packets_dropped_policy: 0,
    packets_dropped_duplicate: 0,
    heard_count: 0,
    digipeater_requested: s.digipeater.enabled,
    digipeater_active: false,
    digipeater_reason: s.digipeater.enabled ? NOT_RUNNING : null,
    igate_requested: s.igate.enabled,
    igate_active: false,
    igate_auto_enabled: false,
    igate_status: 'stopped',
    igate_connected: false,
    igate_reason: s.igate.enabled ? NOT_RUNNING : null,
    igate_server: null,
    igate_last_connect_at: null,
    igate_last_error: null,
    target: null,
    recent_packets: [],
    heard_stations: [],
    sidecar_command: [],
    output_tail: [],
    emergency_stopped: false,
    next_tx_allowed_at: null,
    dropped_by_reason: {},
  };
}

export const defaultAprsStatus: AprsStatusSource = {
  runtime: defaultAprsRuntime,
  previewTarget: defaultAprsTarget,
};

/** The APRS summary the lite snapshot carries for its focus satellite. */
export function aprsSummary(s: AprsSettings, runtime: AprsRuntime, target: AprsTarget, identity: { valid: boolean; callsign: string }, focusSatId: string | null) {
  return {
    callsign: identity.callsign,
    station_valid: identity.valid,
    operating_mode: s.operating_mode,
    listen_only: s.listen_only,
    connected: runtime.connected,
    selected_satellite_id: s.selected_satellite_id,
    /** True when the APRS satellite target is the snapshot's focus satellite. */
    focused: focusSatId !== null && target.sat_id === focusSatId,
    can_transmit: target.can_transmit,
    tx_block_reason: target.tx_block_reason,
    pass_active: target.pass_active,
    last_error: runtime.last_error,
  };
}
