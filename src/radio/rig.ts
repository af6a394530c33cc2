import type { CivBus } from './civ-bus.js';
import type { RuntimeCapabilities } from './types.js';

// What the controller needs from a rig, whatever its model: one interface, two CI-V drivers
// (rig-ic705.ts for rigA, rig-ic9700.ts for rigB). VFO names are the runtime's: on rigA they are
// VFO A and VFO B; on rigB, A is the MAIN band and B the SUB band.

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
}

/** What a driver can do; the runtime shows it as `capabilities`. */
export type RigCapabilities = RuntimeCapabilities;

export interface RigDriver {
  readonly capabilities: RigCapabilities;
  readonly bus: CivBus;
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
  /** CTCSS on the transmit leg (null: tone off). */
  setTone(hz: number | null): Promise<void>;
  snapshot(): Promise<RigSnapshot>;
  restore(s: RigSnapshot): Promise<void>;
  /** The frequency in a transceive broadcast belongs to this VFO (the selected one). */
  broadcastVfo(): Vfo;
}

/** Scope span the spec applies on a satellite target: the whole width shown, 1 MHz. */
export const SATELLITE_SCOPE_SPAN_HZ = 1_000_000;
