import type { RuntimeCapabilities } from './types.js';

// What the controller needs from a rig, whatever its model and whatever carries its commands:
// CI-V (rig-ic705.ts for rigA, rig-ic9700.ts for rigB), Yaesu's 5-byte CAT (yaesu/), or Hamlib's
// rigctld (rigctld/). VFO names are the runtime's: A receives and B transmits. On rigA they are
// VFO A and VFO B; on rigB, A is the MAIN band and B the SUB band; on a Yaesu, A is whichever VFO
// the radio rests on and B the other one.

export type Vfo = 'A' | 'B';

export interface VfoState {
  freq_hz: number;
  mode: string;
  /** The rig's filter number (1–3), kept so a restore puts it back. */
  filter?: number;
}

/** One readback. A field is null when its read failed (the controller keeps the last good one). */
export interface Readback {
  a: VfoState | null;
  b: VfoState | null;
  /** Partial reads: a frequency may come back when its mode did not. */
  a_freq_hz: number | null;
  b_freq_hz: number | null;
  selected_vfo: Vfo | null;
  split_enabled: boolean | null;
  scope_enabled: boolean | null;
  /** The read that failed first, when any did. */
  error: string | null;
  /** Whether the (transmit) radio transmits, where the driver reads it anyway (Yaesu's F7); absent: not read. */
  ptt?: boolean | null;
  /** Two radios: whether the receive radio transmits (the operator may key it by hand). */
  rx_ptt?: boolean | null;
}

/** A satellite pair as the rig gets it: receive and transmit legs with their modes. */
export interface RigPair {
  rx_hz: number;
  /** null: the mode is left as the rig has it (apply_mode_and_tone false). */
  rx_mode: string | null;
  /** null: receive only, the transmit leg is left alone. */
  tx_hz: number | null;
  tx_mode: string | null;
}

/** Everything a test or a session may change, captured to put back afterwards. */
export interface RigSnapshot {
  a: VfoState;
  b: VfoState;
  split_enabled: boolean;
  squelch: number;
  scope: { enabled: boolean; mode: string | null; span_hz: number | null };
  tone: { tone_hz: number | null; tone_on: boolean | null; tsql_hz: number | null; tsql_on: boolean | null } | null;
  selected_vfo: Vfo;
  /** Two radios: each radio's own snapshot, put back whole (two-radio-rig.ts). */
  radios?: { downlink: RigSnapshot; uplink: RigSnapshot };
}

/** What a driver can do; the runtime shows it as `capabilities`. */
export type RigCapabilities = RuntimeCapabilities;

export interface RigDriver {
  readonly capabilities: RigCapabilities;
  /** After the port opens: make the rig state the driver assumes true (rigA: VFO A selected). */
  init(): Promise<void>;
  read(): Promise<Readback>;
  /** Direct write of one VFO; the working VFO is A afterwards. */
  writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void>;
  /** The whole pair, in the rig's safe write order. */
  writePair(p: RigPair): Promise<void>;
  /** One leg only (auto-track steps): frequency, and mode when given. */
  writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void>;
  /** On a satellite target: open squelch, scope on, centre mode, 1 MHz span (where the rig has them). */
  prepareSatellite(): Promise<void>;
  /** CTCSS on the transmit VFO (B), or on `vfo` when the radio transmits elsewhere (the uplink one of two radios: A); null: tone off. */
  setTone(hz: number | null, vfo?: Vfo): Promise<void>;
  snapshot(): Promise<RigSnapshot>;
  restore(s: RigSnapshot): Promise<void>;
  /** The VFO the rig stands on (raw_state.selected_vfo). */
  selectedVfo(): Vfo;
  /**
   * Receive frequencies the rig reports by itself (CI-V transceive, when the operator turns the
   * knob); the returned function stops it. A rig that reports nothing never calls fn.
   */
  watchRx(fn: (rx_hz: number) => void): () => void;
  /** PTT off at once, ahead of any queued command (the emergency stop); rejects when not confirmed. */
  pttOff(): Promise<void>;
  /** PTT on (the caller has checked the transmit frequency). */
  pttOn(): Promise<void>;
  /** Whether the rig transmits; null when its answer made no sense. */
  readPtt(): Promise<boolean | null>;
  /** Split (transmit on B) on or off, where the rig has it (capabilities.split). */
  setSplit(on: boolean): Promise<void>;
}

/** Scope span the spec applies on a satellite target: the whole width shown, 1 MHz. */
export const SATELLITE_SCOPE_SPAN_HZ = 1_000_000;
