import type { RigModel } from './settings.js';

// Radio runtime and session as system state, the lite snapshot and the radio routes show them
// (spec part 2), and their resting values (no rig connected, no session selected).

export const SCREEN_STATES = ['idle', 'test', 'armed', 'active', 'released', 'completed'] as const;
export const CONTROL_STATES = ['not_connected', 'connected_idle', 'test_applied', 'armed_waiting_aos', 'tracking_active', 'released', 'ended'] as const;
/** 'external': a Hamlib network client (rigctld) set the rig last and holds it (issue 26). */
export const CONTROL_MODES = ['idle', 'manual_applied', 'auto_tracking', 'external'] as const;

export interface RadioRuntime {
  connected: boolean;
  control_mode: (typeof CONTROL_MODES)[number];
  /** Who holds the rig while control_mode is 'external' ("rigctld 192.168.1.20:50122"); null otherwise. */
  external_client: string | null;
  active_sat_id: string | null;
  last_poll_at: string | null;
  last_error: string | null;
  /** Normalized rig-facing state; null until the first good readback. */
  targets: { vfo_a_freq_hz: number | null; vfo_b_freq_hz: number | null; vfo_a_mode: string | null; vfo_b_mode: string | null };
  /** Lower-level readback; null until the rig answered. */
  raw_state: { selected_vfo: 'A' | 'B' | null; split_enabled: boolean | null; scope_enabled: boolean | null };
  /** What the configured rig model can do, and whether it is validated on a radio (rigB is not). */
  capabilities: RuntimeCapabilities | null;
  /** The auto-track loop while it runs (null otherwise). */
  auto_track: AutoTrackStatus | null;
  /**
   * Each side of the satellite as a radio carries it: downlink the receive side, uplink the
   * transmit side (null only with no transmit side). With one radio both describe it.
   */
  legs: { downlink: Leg; uplink: Leg | null };
  /** A snapshot from before the first manual apply/pair/auto-track since connect waits to be put back (POST /radio/restore). */
  restore_available: boolean;
}

/** One side of the satellite on the radio that carries it. */
export interface Leg {
  /** A human name: "FT-817", "IC-705", "Hamlib 1035 FT-991". */
  rig: string;
  connected: boolean;
  /** The VFO that carries the side (the receive VFO for downlink, the transmit VFO for uplink); null before a readback. */
  freq_hz: number | null;
  mode: string | null;
  /** Whether that radio transmits; null when unknown. */
  ptt: boolean | null;
  last_error: string | null;
}

export interface RuntimeCapabilities {
  model: RigModel;
  radio: string;
  validated: boolean;
  validation_note: string;
  split: boolean;
  scope: boolean;
  tone: boolean;
  snapshot: boolean;
  transceive_follow: boolean;
  target_mapping: { tx: string; rx: string };
}

export interface AutoTrackStatus {
  sat_id: string;
  interval_ms: number;
  /** Who started it: the auto-track route, or the pass-pinned session. */
  owner: 'auto_track' | 'session';
  last_tick_at: string | null;
  writes: number;
  /** Satellite-frame position in the transponder the loop tracks (knob-follow moves it). */
  position: { uplink_hz: number | null; downlink_hz: number };
  targets: { rx_hz: number; tx_hz: number | null } | null;
  knob: { following: boolean; last_follow_at: string | null; note: string | null };
}

export interface RadioSession {
  active: boolean;
  selected_sat_id: string | null;
  sat_name: string | null;
  pass_aos: string | null;
  pass_los: string | null;
  max_el_deg: number | null;
  screen_state: (typeof SCREEN_STATES)[number];
  control_state: (typeof CONTROL_STATES)[number];
  is_eligible: boolean;
  eligibility_reason?: string;
  has_test_pair: boolean;
}

/** What the station reads from the radio side; the radio service implements it. */
export interface RadioStatusSource {
  runtime(): RadioRuntime;
  session(): RadioSession;
}

export const defaultRadioRuntime = (): RadioRuntime => ({
  connected: false,
  control_mode: 'idle',
  external_client: null,
  active_sat_id: null,
  last_poll_at: null,
  last_error: null,
  targets: { vfo_a_freq_hz: null, vfo_b_freq_hz: null, vfo_a_mode: null, vfo_b_mode: null },
  raw_state: { selected_vfo: null, split_enabled: null, scope_enabled: null },
  capabilities: null,
  auto_track: null,
  legs: { downlink: restingLeg('no radio'), uplink: restingLeg('no radio') },
  restore_available: false,
});

export const restingLeg = (rig: string): Leg => ({ rig, connected: false, freq_hz: null, mode: null, ptt: null, last_error: null });

export const defaultRadioSession = (): RadioSession => ({
  active: false,
  selected_sat_id: null,
  sat_name: null,
  pass_aos: null,
  pass_los: null,
  max_el_deg: null,
  screen_state: 'idle',
  control_state: 'not_connected',
  is_eligible: false,
  eligibility_reason: 'no satellite selected',
  has_test_pair: false,
});

/** The short name a leg, the lite line and the kiosk show: "IC-705", "FT-818", "Hamlib 1035 FT-991", "FT-818 + IC-705". */
export const shortRigName = (caps: RuntimeCapabilities): string => caps.radio.replace(/^(Icom|Yaesu) /, '');

/** "IC-705", or "FT-818 + IC-705" with two radios (downlink first). */
export const rigNames = (runtime: RadioRuntime): string => (runtime.capabilities ? shortRigName(runtime.capabilities) : runtime.legs.downlink.rig);

/** The radio-control summary the lite snapshot carries for its focus satellite. */
export function radioControlSummary(enabled: boolean, runtime: RadioRuntime, session: RadioSession, focusSatId: string | null) {
  return {
    enabled,
    /** The radios by name ("IC-705", "FT-818 + IC-705"): what the lite and kiosk lines call them. */
    rig: rigNames(runtime),
    connected: runtime.connected,
    control_mode: runtime.control_mode,
    external_client: runtime.external_client,
    active_sat_id: runtime.active_sat_id,
    session_active: session.active,
    selected_sat_id: session.selected_sat_id,
    screen_state: session.screen_state,
    control_state: session.control_state,
    is_eligible: session.is_eligible,
    /** True when the pinned session is for the snapshot's focus satellite. */
    focused: focusSatId !== null && session.selected_sat_id === focusSatId,
    last_error: runtime.last_error,
  };
}
