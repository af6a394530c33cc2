import type { AprsSettings } from './settings.js';
import type { AprsRuntime, AprsTarget } from './schemas.js';
import { HeardStations, RecentPackets } from './heard.js';
import { AprsReceiver, type ReceiveCounters } from './receive.js';
import { AprsSender, type SendKind, type SendResult } from './send.js';
import { IgateConnection } from './igate/igate-connection.js';
import type { AprsLog } from './log/aprs-log.js';
import { TransportStartError, type AprsTransport, type TransportStatus } from './transport/transport.js';
import { makeTransport, type MadeTransport, type TransportOptions } from './transport/make-transport.js';
import { LAN_PACKET_MODE, WifiTransport } from './transport/wifi-transport.js';
import { DirewolfConfigError } from './tnc/direwolf-config.js';
import type { LanLeaser } from '../radio/radio-api.js';
import { checkWifiTarget } from '../radio/radio-api.js';
import type { SerialDriver } from '../links/serial-driver.js';
import type { StationIdentity } from '../ham/callsign.js';
import type { LocationProvider } from '../orbit/location-types.js';
import type { DeviceClaims } from '../util/device-claims.js';
import { AppError, errorMessage } from '../util/errors.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { logger } from '../util/logger.js';

// The APRS station on the air: the transport (Dire Wolf sidecar, an external KISS TNC, or our own
// modem over the IC-705's Wi-Fi), the receive path (log, heard list, digipeater, iGate), sends,
// and the rig following the corrected frequencies. The APRS service (aprs-service.ts) loads this
// module on the first connect: settings, targets and the transmit gate never need it.

const log = logger('aprs');

/** Housekeeping while connected: iGate reconcile (network may come and go) and retune. */
export const APRS_TICK_MS = 5000;

/** Who holds a serial device the TNC's PTT opens (DeviceClaims owner name). */
const PTT_OWNER = 'the APRS TNC (PTT)';

/** What the APRS side reads from radio control. */
export interface RigAccess {
  runtime(): { connected: boolean };
  pttOff(): Promise<boolean>;
  writePair(p: { uplink_hz: number; downlink_hz: number; uplink_mode?: string; downlink_mode?: string }): Promise<unknown>;
  /** The radio's pass-pinned session holds the rig: APRS does not retune it then. */
  holdsRig(): boolean;
}

export interface AprsStationDeps {
  clock: Clock;
  dataDir: string;
  settings(): AprsSettings;
  identity(): StationIdentity;
  /** The target the station transmits to now (the transmit gate included). */
  previewTarget(): AprsTarget;
  digipeaterActive(): boolean;
  igateActive(): boolean;
  radio: RigAccess;
  claims: DeviceClaims;
  lan: LanLeaser;
  serial: SerialDriver;
  log: AprsLog;
  version: string;
  location: LocationProvider;
  /** The station's last fault, for runtime.last_error. */
  fault(message: string): void;
  /** A new transport is about to start: the last fault and an emergency stop are cleared. */
  starting(): void;
  /** The station's status changed (connected, a packet heard or sent, a housekeeping tick). */
  changed(): void;
  /** Seams at the edge of the process (tests point them at fakes on 127.0.0.1). */
  transport?: Partial<TransportOptions>;
}

/** The runtime fields the station on the air owns (the APRS service adds settings, target and gate). */
export type AprsStationStatus = Pick<
  AprsRuntime,
  | 'connected'
  | 'session_active'
  | 'sidecar_running'
  | 'kiss_connected'
  | 'audio_rx_active'
  | 'audio_tx_active'
  | 'owned_resource'
  | 'last_started_at'
  | 'last_packet_at'
  | 'last_tx_at'
  | 'last_tx_packet_type'
  | 'last_tx_text'
  | 'last_tx_raw_tnc2'
  | 'packets_rx'
  | 'packets_tx'
  | 'packets_digipeated'
  | 'packets_igated'
  | 'packets_dropped_policy'
  | 'packets_dropped_duplicate'
  | 'heard_count'
  | 'igate_status'
  | 'igate_connected'
  | 'igate_server'
  | 'igate_last_connect_at'
  | 'igate_last_error'
  | 'recent_packets'
  | 'heard_stations'
  | 'sidecar_command'
  | 'output_tail'
  | 'sidecar_state'
  | 'sidecar_failures'
  | 'sidecar_next_restart_at'
  | 'sidecar_problem'
  | 'next_tx_allowed_at'
  | 'dropped_by_reason'
> & {
  /** Set only while a transport runs (else the service's resting values stand). */
  control_endpoint?: string;
  modem_state?: string;
  /** The transport's own last fault. */
  transport_error: string | null;
  /** APRS-IS accepted the login without verifying it (no packets gated). */
  igate_verified: boolean | null;
};

export class AprsStation {
  private transport: AprsTransport | null = null;
  private connected = false;
  private startedAt: string | null = null;
  private ownedResource: string | null = null;
  /** The last transport's output and sidecar health, kept readable once it is gone (a failed start above all). */
  private retired: Pick<TransportStatus, 'output_tail' | 'sidecar_command' | 'sidecar'> | null = null;
  private tick: Timer | null = null;
  private retuned: { key: string; up: number; down: number; at: number } | null = null;
  readonly recent = new RecentPackets();
  readonly heard = new HeardStations();
  readonly counters: ReceiveCounters = { rx: 0, tx: 0, digipeated: 0, igated: 0, dropped_policy: 0, dropped_duplicate: 0, by_reason: {}, last_packet_at: null };
  private readonly igate: IgateConnection;
  private readonly receiver: AprsReceiver;
  private readonly sender: AprsSender;

  constructor(private readonly d: AprsStationDeps) {
    this.igate = new IgateConnection({ clock: d.clock, version: d.version, connect: d.transport?.isConnect });
    this.receiver = new AprsReceiver({
      clock: d.clock,
      settings: d.settings,
      identity: d.identity,
      recent: this.recent,
      heard: this.heard,
      counters: this.counters,
      log: d.log,
      digipeaterActive: d.digipeaterActive,
      transmit: (frame) => this.transport?.send(frame) ?? false,
      igate: this.igate,
      igateActive: d.igateActive,
    });
    this.sender = new AprsSender({
      clock: d.clock,
      settings: d.settings,
      identity: d.identity,
      location: () => d.location.resolved(),
      recent: this.recent,
      counters: this.counters,
      transmit: (frame) => this.transport?.send(frame) ?? false,
    });
  }

  get isConnected(): boolean {
    return this.connected;
  }

  /** The rig was retuned to this channel within the last few ticks (the target shows "retuning"). */
  isRetuning(sat_id: string, channel_id: string, now_ms: number): boolean {
    return this.retuned !== null && this.retuned.key === `${sat_id}/${channel_id}` && now_ms - this.retuned.at < APRS_TICK_MS * 3;
  }

  status(target: AprsTarget): AprsStationStatus {
    const t = this.transport?.status();
    const kept = t ?? this.retired;
    const sidecar = kept?.sidecar;
    const igs = this.igate.status();
    return {
      connected: this.connected,
      session_active: this.connected && (t?.kiss_connected ?? false),
      sidecar_running: t?.sidecar_running ?? false,
      kiss_connected: t?.kiss_connected ?? false,
      audio_rx_active: t?.audio_rx_active ?? t?.sidecar_running ?? false,
      audio_tx_active: t?.audio_tx_active ?? false,
      control_endpoint: t?.control_endpoint,
      modem_state: t?.modem_state,
      owned_resource: this.connected ? (t?.owned_resource !== undefined ? t.owned_resource : this.ownedResource) : null,
      transport_error: t?.last_error ?? null,
      last_started_at: this.startedAt,
      last_packet_at: this.counters.last_packet_at,
      ...this.sender.lastTx(),
      packets_rx: this.counters.rx,
      packets_tx: this.counters.tx,
      packets_digipeated: this.counters.digipeated,
      packets_igated: this.counters.igated,
      packets_dropped_policy: this.counters.dropped_policy,
      packets_dropped_duplicate: this.counters.dropped_duplicate,
      heard_count: this.heard.size,
      igate_status: igs.status,
      igate_connected: igs.connected,
      igate_verified: igs.verified,
      igate_server: igs.server,
      igate_last_connect_at: igs.last_connect_at,
      igate_last_error: igs.last_error,
      recent_packets: this.recent.list(),
      heard_stations: this.heard.list(),
      sidecar_command: kept?.sidecar_command ?? [],
      output_tail: kept?.output_tail ?? [],
      sidecar_state: sidecar?.state ?? 'stopped',
      sidecar_failures: sidecar?.failures ?? 0,
      sidecar_next_restart_at: sidecar?.next_restart_at != null ? iso(sidecar.next_restart_at) : null,
      sidecar_problem: sidecar?.diagnosis ?? null,
      next_tx_allowed_at: this.sender.nextAllowedAt(target),
      dropped_by_reason: { ...this.counters.by_reason },
    };
  }

  // --- connection ----------------------------------------------------------------------------

  async connect(): Promise<void> {
    if (this.connected) return;
    const s = this.d.settings();
    const opts = { dataDir: this.d.dataDir, clock: this.d.clock, identity: this.d.identity(), serial: this.d.serial, ptyWaitMs: 8000, ...this.d.transport };
    let made: MadeTransport;
    try {
      made = s.transport_mode === 'wifi' ? this.wifiTransport(s, opts) : makeTransport(s, opts);
    } catch (err) {
      // The stored settings cannot make a transport (PTT over CAT with no serial device, ...):
      // the operator's to fix, so a 409 that names the setting, never a 500.
      if (!(err instanceof DirewolfConfigError)) throw err;
      const message = `${err.message} (in /settings → APRS)`;
      this.d.fault(message);
      throw new AppError(409, err.missing ? 'aprs_config_incomplete' : 'aprs_config_invalid', message, { field: err.field });
    }
    // The PTT device is claimed before anything opens it: never two owners of one tty.
    if (made.claimDevice) this.d.claims.claim(made.claimDevice, PTT_OWNER);
    this.d.starting();
    this.retired = null;
    this.transport = made.transport;
    this.ownedResource = made.ownedResource;
    made.transport.onFrame((f: Uint8Array) => {
      this.receiver.receive(f);
      this.d.changed();
    });
    made.transport.onStatus?.(() => {
      if (this.transport === made.transport) this.d.changed();
    });
    try {
      await made.transport.start();
    } catch (err) {
      // A TNC that did not start explains itself in the operator's words; anything else is prefixed.
      const message = err instanceof TransportStartError ? err.message : `transport did not start: ${errorMessage(err)}`;
      this.d.fault(message);
      await made.transport.stop().catch(() => {});
      this.retire(made.transport);
      this.transport = null;
      this.d.claims.release(PTT_OWNER);
      if (err instanceof TransportStartError) throw new AppError(502, err.code, message, err.details);
      // The LAN preflight and login say precisely what failed (spec part 7): keep their status.
      if (err instanceof AppError) throw new AppError(err.status, err.code, message, err.details);
      throw new AppError(502, 'transport_failed', message);
    }
    this.connected = true;
    this.startedAt = iso(this.d.clock.now());
    this.schedule(0);
    this.d.changed();
    log.info(`connected (${made.transport.kind}); ${this.ownedResource ?? 'no device held'}`);
  }

  private wifiTransport(s: AprsSettings, opts: TransportOptions): MadeTransport {
    checkWifiTarget(s, 'transport_mode', 'APRS');
    const transport = new WifiTransport(s, {
      ...opts,
      lan: this.d.lan,
      tuneHz: () => {
        const t = this.d.previewTarget();
        return t.corrected_frequency_hz ?? t.frequency_hz;
      },
    });
    return { transport, claimDevice: null, ownedResource: transport.endpoint };
  }

  /** Keeps a transport's output and sidecar health readable after it is gone; nothing of it runs now. */
  private retire(t: AprsTransport): void {
    const st = t.status();
    this.retired = {
      output_tail: st.output_tail,
      sidecar_command: st.sidecar_command,
      sidecar: st.sidecar && { ...st.sidecar, state: 'stopped', next_restart_at: null },
    };
  }

  async disconnect(): Promise<void> {
    this.stopTick();
    this.connected = false;
    const t = this.transport;
    this.transport = null;
    this.igate.stop();
    if (t) await t.stop().catch((err) => this.d.fault(`stopping the transport: ${errorMessage(err)}`));
    if (t) this.retire(t);
    this.d.claims.release(PTT_OWNER);
    this.retuned = null;
    this.d.changed();
  }

  /** The emergency stop's part here: the transport killed now (PTT dropped with it), nothing left running. */
  kill(): void {
    this.stopTick();
    const t = this.transport;
    this.transport = null;
    this.connected = false;
    try {
      t?.kill();
    } catch (err) {
      this.d.fault(`emergency stop: ${errorMessage(err)}`);
    }
    if (t) this.retire(t);
    this.igate.stop();
    this.d.claims.release(PTT_OWNER);
  }

  // --- sends ---------------------------------------------------------------------------------

  async send(kind: SendKind, body: { to?: string; text?: string; comment?: string }, target: AprsTarget, path: string): Promise<SendResult> {
    const t = this.transport?.status();
    const blocked = !this.connected
      ? 'APRS not connected: connect first'
      : !t?.kiss_connected
        ? 'the TNC link is down'
        : t.ptt_unavailable
          ? `the TNC could not open its PTT (${this.ownedResource}): it cannot key the transmitter; see output_tail`
          : null;
    try {
      return await this.sender.send(kind, body, target, path, blocked);
    } finally {
      this.d.changed();
    }
  }

  // --- housekeeping --------------------------------------------------------------------------

  /** Settings changed: a transport setting restarts the link; anything else is looked at on the next tick. */
  settingsChanged(relink: boolean): void {
    if (!this.connected) return;
    if (relink) void this.disconnect().then(() => this.connect().catch((err) => this.d.fault(errorMessage(err))));
    else this.schedule(0);
  }

  private schedule(ms: number): void {
    this.stopTick();
    this.tick = this.d.clock.setTimeout(() => void this.onTick(), ms);
  }

  private stopTick(): void {
    this.tick?.cancel();
    this.tick = null;
  }

  private async onTick(): Promise<void> {
    this.tick = null;
    if (!this.connected) return;
    try {
      this.reconcileIgate();
      await this.retune();
    } catch (err) {
      this.d.fault(errorMessage(err));
    }
    if (this.connected) this.schedule(APRS_TICK_MS);
    this.d.changed();
  }

  private reconcileIgate(): void {
    if (!this.d.igateActive()) return this.igate.stop();
    const s = this.d.settings();
    this.igate.ensure({
      host: s.igate.server_host,
      port: s.igate.server_port,
      callsign: s.igate.login_callsign || this.d.identity().callsign,
      passcode: s.igate.passcode,
      filter: s.igate.filter,
      connectTimeoutMs: s.igate.connect_timeout_s * 1000,
    });
  }

  /** During a satellite pass with the rig connected: the rig follows the corrected uplink/downlink. */
  private async retune(): Promise<void> {
    const s = this.d.settings();
    const t = this.d.previewTarget();
    const wifi = this.transport instanceof WifiTransport ? this.transport : null;
    const viaRadio = this.d.radio.runtime().connected;
    if (s.operating_mode !== 'satellite' || !t.pass_active || (!viaRadio && !wifi) || this.d.radio.holdsRig()) {
      this.retuned = null;
      return;
    }
    const up = t.corrected_uplink_hz, down = t.corrected_downlink_hz;
    if (up === null || down === null) return;
    const key = `${t.sat_id}/${t.channel_id}`;
    const now = this.d.clock.now();
    if (this.retuned && this.retuned.key === key && this.retuned.up === up && this.retuned.down === down) {
      this.retuned.at = now;
      return;
    }
    try {
      // Over Wi-Fi the data mode takes its modulation from the LAN audio; on USB plain FM.
      const mode = wifi ? LAN_PACKET_MODE : 'FM';
      if (viaRadio) await this.d.radio.writePair({ uplink_hz: up, downlink_hz: down, uplink_mode: mode, downlink_mode: mode });
      else await wifi!.tune({ rx_hz: down, rx_mode: mode, tx_hz: up, tx_mode: mode });
      this.retuned = { key, up, down, at: now };
    } catch (err) {
      this.retuned = null;
      this.d.fault(`retune to ${t.label}: ${errorMessage(err)}`);
    }
  }

  async stop(): Promise<void> {
    await this.disconnect();
  }
}
