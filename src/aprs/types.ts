import type { AprsSettings } from './settings.js';
import type { AprsRuntime, AprsTarget } from './schemas.js';

// APRS runtime and target as system state and the lite snapshot read them (spec part 2); the
// APRS service builds its runtime on the resting default here.

export type { AprsRuntime, AprsTarget } from './schemas.js';

const NOT_CONNECTED = 'APRS not connected';

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
    digipeater_reason: s.digipeater.enabled ? NOT_CONNECTED : null,
    igate_requested: s.igate.enabled,
    igate_active: false,
    igate_auto_enabled: false,
    igate_status: 'stopped',
    igate_connected: false,
    igate_reason: s.igate.enabled ? NOT_CONNECTED : null,
    igate_server: null,
    igate_last_connect_at: null,
    igate_last_error: null,
    target: null,
    recent_packets: [],
    heard_stations: [],
    sidecar_command: [],
    output_tail: [],
    sidecar_state: 'stopped',
    sidecar_failures: 0,
    sidecar_next_restart_at: null,
    sidecar_problem: null,
    emergency_stopped: false,
    next_tx_allowed_at: null,
    dropped_by_reason: {},
  };
}

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
