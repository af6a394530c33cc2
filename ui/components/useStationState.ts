import { usePoll, type Poll } from './usePoll';
import type { Zone } from '../lib/time';

/** The blocks of GET /api/v1/system/state the station pages read (spec part 2). */
export interface SystemState {
  timestamp: string;
  settings: { display_timezone: string; iss_display_mode: string; pass_profile: string };
  radioSettings: Record<string, unknown> & { enabled: boolean; rig_model: string; serial_device: string };
  radioRuntime: Record<string, unknown> & { connected: boolean; control_mode: string; last_error: string | null };
  radioControlSession: Record<string, unknown> & { screen_state: string; control_state: string; is_eligible: boolean; eligibility_reason?: string | null; selected_sat_id: string | null };
  aprsSettings: Record<string, unknown> & { callsign: string; listen_only: boolean; operating_mode: string };
  aprsRuntime: Record<string, unknown> & { connected: boolean; modem_state: string; last_error: string | null; sidecar_running: boolean; kiss_connected: boolean };
  aprsPreviewTarget: Record<string, unknown> & { can_transmit: boolean; tx_block_reason: string | null; label: string };
  stationIdentity: { valid: boolean; callsign: string; reason?: string };
  rotatorSettings: Record<string, unknown> & { enabled: boolean };
  rotatorRuntime: Record<string, unknown> & { connected: boolean; control_mode: string; last_error: string | null };
}

/** System state polled every 5 s (kept on the device for offline reloads) and its display zone. */
export function useStationState(): Poll<SystemState> & { zone: Zone } {
  const poll = usePoll<SystemState>('/api/v1/system/state', 5000, 'system-state');
  return { ...poll, zone: { name: poll.data?.settings.display_timezone ?? 'UTC' } };
}
