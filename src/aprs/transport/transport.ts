// What the APRS service needs from a packet transport, whatever carries it: the Dire Wolf
// sidecar on a KISS pseudo-terminal, an external KISS TNC over TCP, or the rig's LAN session
// (wifi-transport.ts). Frames in and out are raw AX.25 (no FCS, no KISS framing).

export interface TransportStatus {
  sidecar_running: boolean;
  kiss_connected: boolean;
  modem_state: string;
  control_endpoint: string;
  sidecar_command: string[];
  output_tail: string[];
  last_error: string | null;
  /** A PTT line was planned but the TNC could not open it (it keeps running, unable to key). */
  ptt_unavailable: boolean;
  /** Wi-Fi transport: receive audio is arriving from the rig's LAN stream. */
  audio_rx_active?: boolean;
  /** Wi-Fi transport: our modem's audio is going out now. */
  audio_tx_active?: boolean;
  /** What the transport holds, when it knows better than the settings (the LAN session). */
  owned_resource?: string | null;
  /** The Dire Wolf sidecar's health, when there is one (runtime.sidecar_*). */
  sidecar?: SidecarHealth;
}

export interface SidecarHealth {
  state: 'stopped' | 'starting' | 'running' | 'failing';
  failures: number;
  /** Epoch ms of the next restart, while one waits. */
  next_restart_at: number | null;
  diagnosis: { kind: string; summary: string; fix: string; fatal: boolean } | null;
}

/** A transport that did not start; its message is for the operator as it is (no raw tool output). */
export class TransportStartError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'TransportStartError';
  }
}

export interface AprsTransport {
  readonly kind: 'direwolf' | 'external-kiss' | 'wifi';
  /** Starts the path (spawn, open); resolves once started or failed (the failure is in status().last_error and rethrown). */
  start(): Promise<void>;
  /** Orderly stop: TNC stopped, link closed. */
  stop(): Promise<void>;
  /** Emergency: transmit stops now (TNC killed, link dropped); never throws. */
  kill(): void;
  /** Queues one AX.25 frame for transmit; false when the link is down (nothing sent). */
  send(ax25: Uint8Array): boolean;
  status(): TransportStatus;
  onFrame(fn: (ax25: Uint8Array) => void): void;
  /**
   * Told when status() may read otherwise without anyone asking (the sidecar exited or restarted,
   * its pseudo-terminal came, the link closed or reopened): the station's news for the pages.
   */
  onStatus?(fn: () => void): void;
}
