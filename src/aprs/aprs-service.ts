import { join } from 'node:path';
import type { AprsSettings, AprsSettingsSchema } from './settings.js';
import type { AprsStatusSource } from './types.js';
import { defaultAprsRuntime } from './types.js';
import type { AprsRuntime, AprsTarget } from './schemas.js';
import { allTargets, findChannel, selectedTarget, txPath, type TargetWorld } from './targets/targets.js';
import { HeardStations, RecentPackets } from './heard.js';
import { AprsReceiver, type ReceiveCounters } from './receive.js';
import { AprsSender, type SendKind, type SendResult } from './send.js';
import { IgateLink } from './igate/igate-link.js';
import { AprsLog } from './log/aprs-log.js';
import type { AgeBucket } from './log/age-bucket.js';
import { TransportStartError, type AprsTransport, type TransportStatus } from './transport/transport.js';
import { makeTransport, type MadeTransport, type TransportOptions } from './transport/make-transport.js';
import { LAN_PACKET_MODE, WifiTransport } from './transport/wifi-transport.js';
import type { LanHub } from '../radio/lan/lan-hub.js';
import { checkWifiTarget } from '../radio/link/rig-port.js';
import { nodeSerialDriver } from '../radio/link/serial-driver.js';
import { DirewolfConfigError } from './tnc/direwolf-config.js';
import { resolveTncBinary, installTnc, installInTerminal, type InstallOptions, type TerminalOptions } from './tnc/tnc-binary.js';
import { stationIdentity, callsignProblem } from '../station/callsign.js';
import type { CatalogProvider } from '../catalog/types.js';
import type { OrbitService } from '../orbit/types.js';
import type { LocationProvider } from '../orbit/location-types.js';
import type { GuidanceService } from '../guidance/guidance-service.js';
import type { JsonStore } from '../store/json-store.js';
import type { DeviceClaims } from '../util/device-claims.js';
import { AppError, badRequest, errorMessage } from '../util/errors.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { logger } from '../util/logger.js';

// The APRS station (spec part 4 "APRS"): settings, targets and the transmit gate, the transport
// (Dire Wolf sidecar or an external KISS TNC), sends, the receive path (log, heard list,
// digipeater, iGate), the emergency stop, and the rig following the corrected frequencies.

const log = logger('aprs');

/** Housekeeping while connected: iGate reconcile (network may come and go) and retune. */
export const APRS_TICK_MS = 5000;

/** Who holds a serial device the TNC's PTT opens (DeviceClaims owner name). */
const PTT_OWNER = 'the APRS TNC (PTT)';

/** What the APRS service reads from the rig controller. */
export interface RadioLink {
  runtime(): { connected: boolean };
  pttOff(): Promise<boolean>;
  writePair(p: { uplink_hz: number; downlink_hz: number; uplink_mode?: string; downlink_mode?: string }): Promise<unknown>;
  sessions: { holdsRig(): boolean };
}

export interface AprsServiceDeps {
  clock: Clock;
  store: JsonStore<typeof AprsSettingsSchema>;
  dataDir: string;
  catalog: CatalogProvider;
  orbit: Pick<OrbitService, 'currentOrNextPass'>;
  guidance: Pick<GuidanceService, 'recommendFor'>;
  location: LocationProvider;
  network: { state(): { online: boolean; offline: boolean } };
  radio: RadioLink;
  claims: DeviceClaims;
  /** The IC-705's LAN sessions (Wi-Fi transport), shared with radio control. */
  lan: LanHub;
  version: string;
  /** Seams at the edge of the process (tests point them at fakes on 127.0.0.1). */
  transport?: Partial<TransportOptions>;
  /** The install helper and terminal lookup (tests point them at scripts). */
  tnc?: { install?: InstallOptions; terminal?: TerminalOptions; env?: NodeJS.ProcessEnv };
}

export class AprsService implements AprsStatusSource {
  readonly name = 'aprs';
  private transport: AprsTransport | null = null;
  private connected = false;
  private estop = false;
  private startedAt: string | null = null;
  private lastError: string | null = null;
  private ownedResource: string | null = null;
  /** The last transport's output and sidecar health, kept readable once it is gone (a failed start above all). */
  private retired: Pick<TransportStatus, 'output_tail' | 'sidecar_command' | 'sidecar'> | null = null;
  private tick: Timer | null = null;
  private retuned: { key: string; up: number; down: number; at: number } | null = null;
  private unsubscribe: () => void = () => {};
  readonly recent = new RecentPackets();
  readonly heard = new HeardStations();
  readonly counters: ReceiveCounters = { rx: 0, tx: 0, digipeated: 0, igated: 0, dropped_policy: 0, dropped_duplicate: 0, by_reason: {}, last_packet_at: null };
  readonly log: AprsLog;
  private readonly igate: IgateLink;
  private readonly receiver: AprsReceiver;
  private readonly sender: AprsSender;

  constructor(private readonly d: AprsServiceDeps) {
    this.log = new AprsLog({ path: join(d.dataDir, 'aprs-log.jsonl'), maxRecords: d.store.get().log_max_records, clock: d.clock });
    this.igate = new IgateLink({ clock: d.clock, version: d.version, connect: d.transport?.isConnect });
    this.receiver = new AprsReceiver({
      clock: d.clock,
      settings: () => this.settings(),
      identity: () => this.identity(),
      recent: this.recent,
      heard: this.heard,
      counters: this.counters,
      log: this.log,
      digipeaterActive: () => this.digipeaterState().active,
      transmit: (frame) => this.transport?.send(frame) ?? false,
      igate: this.igate,
      igateActive: () => this.igateState().active,
    });
    this.sender = new AprsSender({
      clock: d.clock,
      settings: () => this.settings(),
      identity: () => this.identity(),
      location: () => d.location.resolved(),
      recent: this.recent,
      counters: this.counters,
      transmit: (frame) => this.transport?.send(frame) ?? false,
    });
  }

  // --- state ---------------------------------------------------------------------------------

  /** Settings as the API shows them (the LAN password masked). */
  publicSettings(): AprsSettings {
    return this.d.store.publicView();
  }
  settings(): AprsSettings {
    return this.d.store.get();
  }

  identity() {
    const s = this.settings();
    return stationIdentity(s.callsign, s.ssid);
  }

  private world(): TargetWorld {
    const now_ms = this.d.clock.now();
    const loc = this.d.location.resolved();
    return {
      now_ms,
      location: { lat: loc.lat, lon: loc.lon },
      identity: this.identity(),
      emergency_stopped: this.estop,
      satellite: (norad) => {
        const sat = this.d.catalog.current().byNorad.get(norad);
        return sat ? { sat_id: sat.sat_id, name: sat.name } : null;
      },
      pass: (sat_id, at) => this.d.orbit.currentOrNextPass(sat_id, at),
      recommend: (profile, at, pass) => this.d.guidance.recommendFor(profile, at, pass),
      retuning: (sat_id, channel_id) => this.retuned !== null && this.retuned.key === `${sat_id}/${channel_id}` && now_ms - this.retuned.at < APRS_TICK_MS * 3,
    };
  }

  previewTarget(_s?: AprsSettings): AprsTarget {
    return selectedTarget(this.settings(), this.world());
  }

  targets(): AprsTarget[] {
    return allTargets(this.settings(), this.world());
  }

  private digipeaterState(target?: AprsTarget): { requested: boolean; active: boolean; reason: string | null } {
    const s = this.settings();
    const requested = s.digipeater.enabled;
    if (!requested) return { requested, active: false, reason: null };
    if (s.operating_mode === 'satellite') return { requested, active: false, reason: 'disabled by policy in satellite mode: a ground digipeater must not answer satellite traffic' };
    if (!this.connected) return { requested, active: false, reason: 'APRS not connected' };
    const t = target ?? this.previewTarget();
    if (!t.can_transmit) return { requested, active: false, reason: `cannot transmit: ${t.tx_block_reason}` };
    return { requested, active: true, reason: null };
  }

  private igateState(): { requested: boolean; auto: boolean; active: boolean; reason: string | null } {
    const s = this.settings();
    const net = this.d.network.state();
    const requested = s.igate.enabled;
    const auto = !requested && s.igate_auto_enable_with_internet && net.online;
    const call = s.igate.login_callsign || this.identity().callsign;
    let reason: string | null = null;
    if (!requested && !auto) reason = s.igate_auto_enable_with_internet ? 'waiting for internet (auto-enable)' : null;
    else if (!this.connected) reason = 'APRS not connected';
    else if (net.offline || !net.online) reason = 'no internet connection';
    else if (callsignProblem(call.split('-')[0])) reason = `iGate login callsign not valid: ${callsignProblem(call.split('-')[0])}`;
    else if (!s.igate.server_host) reason = 'no APRS-IS server set';
    return { requested, auto, active: (requested || auto) && reason === null, reason };
  }

  runtime(_s?: AprsSettings): AprsRuntime {
    const s = this.settings();
    const base = defaultAprsRuntime(s);
    const t = this.transport?.status();
    const kept = t ?? this.retired;
    const sidecar = kept?.sidecar;
    const target = this.previewTarget();
    const digi = this.digipeaterState(target);
    const ig = this.igateState();
    const igs = this.igate.status();
    return {
      ...base,
      connected: this.connected,
      session_active: this.connected && (t?.kiss_connected ?? false),
      sidecar_running: t?.sidecar_running ?? false,
      kiss_connected: t?.kiss_connected ?? false,
      audio_rx_active: t?.audio_rx_active ?? t?.sidecar_running ?? false,
      audio_tx_active: t?.audio_tx_active ?? false,
      control_endpoint: t?.control_endpoint ?? base.control_endpoint,
      modem_state: t?.modem_state ?? (this.estop ? 'stopped (emergency stop)' : 'stopped'),
      capabilities: this.capabilities(s),
      owned_resource: this.connected ? (t?.owned_resource !== undefined ? t.owned_resource : this.ownedResource) : null,
      last_error: this.lastError ?? t?.last_error ?? null,
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
      digipeater_requested: digi.requested,
      digipeater_active: digi.active,
      digipeater_reason: digi.reason,
      igate_requested: ig.requested,
      igate_active: ig.active,
      igate_auto_enabled: ig.auto,
      igate_status: igs.status,
      igate_connected: igs.connected,
      igate_reason: ig.reason ?? (ig.active && igs.verified === false ? 'unverified login: APRS-IS accepts no gated packets' : null),
      igate_server: igs.server,
      igate_last_connect_at: igs.last_connect_at,
      igate_last_error: igs.last_error,
      target,
      recent_packets: this.recent.list(),
      heard_stations: this.heard.list(),
      sidecar_command: kept?.sidecar_command ?? [],
      output_tail: kept?.output_tail ?? [],
      sidecar_state: sidecar?.state ?? 'stopped',
      sidecar_failures: sidecar?.failures ?? 0,
      sidecar_next_restart_at: sidecar?.next_restart_at != null ? iso(sidecar.next_restart_at) : null,
      sidecar_problem: sidecar?.diagnosis ?? null,
      emergency_stopped: this.estop,
      next_tx_allowed_at: this.sender.nextAllowedAt(target),
      dropped_by_reason: { ...this.counters.by_reason },
    };
  }

  private capabilities(s: AprsSettings): string[] {
    const caps = ['receive', 'message', 'status', 'position', 'log'];
    if (s.operating_mode === 'terrestrial') caps.push('digipeater');
    caps.push('igate');
    if (s.operating_mode === 'satellite') caps.push('doppler_retune');
    return caps;
  }

  state() {
    return { settings: this.publicSettings(), runtime: this.runtime(), previewTarget: this.previewTarget(), identity: this.identity() };
  }

  // --- target selection ----------------------------------------------------------------------

  async selectTarget(sat_id: string, channel_id: string | null): Promise<AprsSettings> {
    const found = findChannel(this.world(), sat_id, channel_id);
    if (!found) throw badRequest(`${sat_id}${channel_id ? ` channel ${channel_id}` : ''} is not an APRS satellite channel in the catalog (GET /api/v1/aprs/targets lists them)`, { sat_id, channel_id }, 'unknown_target');
    return this.d.store.update({ operating_mode: 'satellite', selected_satellite_id: found.sat_id, selected_channel_id: found.channel.channel_id });
  }

  async selectMode(mode: 'terrestrial'): Promise<AprsSettings> {
    return this.d.store.update({ operating_mode: mode });
  }

  async setIdentity(callsign: string, ssid: number) {
    const id = stationIdentity(callsign, ssid);
    if (!id.valid) throw badRequest(`station identity not valid: ${id.reason}`, { callsign, ssid, reason: id.reason }, 'invalid_callsign');
    await this.d.store.update({ callsign: callsign.trim().toUpperCase(), ssid });
    return this.identity();
  }

  // --- connection ----------------------------------------------------------------------------

  async connect(): Promise<void> {
    if (this.connected) return;
    const s = this.settings();
    const opts = { dataDir: this.d.dataDir, clock: this.d.clock, identity: this.identity(), serial: nodeSerialDriver, ptyWaitMs: 8000, ...this.d.transport };
    let made: MadeTransport;
    try {
      made = s.transport_mode === 'wifi' ? this.wifiTransport(s, opts) : makeTransport(s, opts);
    } catch (err) {
      // The stored settings cannot make a transport (PTT over CAT with no serial device, ...):
      // the operator's to fix, so a 409 that names the setting, never a 500.
      if (!(err instanceof DirewolfConfigError)) throw err;
      this.lastError = `${err.message} (in /settings → APRS)`;
      throw new AppError(409, err.missing ? 'aprs_config_incomplete' : 'aprs_config_invalid', this.lastError, { field: err.field });
    }
    // The PTT device is claimed before anything opens it: never two owners of one tty.
    if (made.claimDevice) this.d.claims.claim(made.claimDevice, PTT_OWNER);
    this.estop = false;
    this.lastError = null;
    this.retired = null;
    this.transport = made.transport;
    this.ownedResource = made.ownedResource;
    made.transport.onFrame((f: Uint8Array) => this.receiver.receive(f));
    try {
      await made.transport.start();
    } catch (err) {
      // A TNC that did not start explains itself in the operator's words; anything else is prefixed.
      this.lastError = err instanceof TransportStartError ? err.message : `transport did not start: ${errorMessage(err)}`;
      await made.transport.stop().catch(() => {});
      this.retire(made.transport);
      this.transport = null;
      this.d.claims.release(PTT_OWNER);
      if (err instanceof TransportStartError) throw new AppError(502, err.code, this.lastError, err.details);
      // The LAN preflight and login say precisely what failed (spec part 7): keep their status.
      if (err instanceof AppError) throw new AppError(err.status, err.code, this.lastError, err.details);
      throw new AppError(502, 'transport_failed', this.lastError);
    }
    this.connected = true;
    this.startedAt = iso(this.d.clock.now());
    this.schedule(0);
    log.info(`connected (${made.transport.kind}); ${this.ownedResource ?? 'no device held'}`);
  }

  private wifiTransport(s: AprsSettings, opts: TransportOptions): MadeTransport {
    checkWifiTarget(s, 'transport_mode', 'APRS');
    const transport = new WifiTransport(s, {
      ...opts,
      lan: this.d.lan,
      tuneHz: () => {
        const t = this.previewTarget();
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
    if (t) await t.stop().catch((err) => (this.lastError = `stopping the transport: ${errorMessage(err)}`));
    if (t) this.retire(t);
    this.d.claims.release(PTT_OWNER);
    this.retuned = null;
  }

  /** Always answers: transmit stops now, the service stays up, sends stay blocked until connect. */
  async emergencyStop(): Promise<{ ok: true; rig_ptt_dropped: boolean | null }> {
    this.estop = true;
    this.stopTick();
    const t = this.transport;
    this.transport = null;
    this.connected = false;
    try {
      t?.kill();
    } catch (err) {
      this.lastError = `emergency stop: ${errorMessage(err)}`;
    }
    if (t) this.retire(t);
    this.igate.stop();
    this.d.claims.release(PTT_OWNER);
    let rig: boolean | null = null;
    if (this.d.radio.runtime().connected) {
      rig = await this.d.radio.pttOff().catch(() => false);
      if (!rig) this.lastError = 'emergency stop: the rig did not confirm PTT off over CI-V; check the radio';
    }
    log.warn('emergency stop: transport killed, sends blocked until the next connect');
    return { ok: true, rig_ptt_dropped: rig };
  }

  // --- sends ---------------------------------------------------------------------------------

  async send(kind: SendKind, body: { to?: string; text?: string; comment?: string }): Promise<SendResult> {
    const target = this.previewTarget();
    const t = this.transport?.status();
    const blocked = !this.connected
      ? 'APRS not connected: connect first'
      : !t?.kiss_connected
        ? 'the TNC link is down'
        : t.ptt_unavailable
          ? `the TNC could not open its PTT (${this.ownedResource}): it cannot key the transmitter; see output_tail`
          : null;
    const path = txPath(this.settings(), target);
    return this.sender.send(kind, body, target, path, blocked);
  }

  // --- housekeeping --------------------------------------------------------------------------

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
      this.lastError = errorMessage(err);
    }
    if (this.connected) this.schedule(APRS_TICK_MS);
  }

  private reconcileIgate(): void {
    const ig = this.igateState();
    if (!ig.active) return this.igate.stop();
    const s = this.settings();
    this.igate.ensure({
      host: s.igate.server_host,
      port: s.igate.server_port,
      callsign: s.igate.login_callsign || this.identity().callsign,
      passcode: s.igate.passcode,
      filter: s.igate.filter,
      connectTimeoutMs: s.igate.connect_timeout_s * 1000,
    });
  }

  /** During a satellite pass with the rig connected: the rig follows the corrected uplink/downlink. */
  private async retune(): Promise<void> {
    const s = this.settings();
    const t = this.previewTarget();
    const wifi = this.transport instanceof WifiTransport ? this.transport : null;
    const viaRadio = this.d.radio.runtime().connected;
    if (s.operating_mode !== 'satellite' || !t.pass_active || (!viaRadio && !wifi) || this.d.radio.sessions.holdsRig()) {
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
      this.lastError = `retune to ${t.label}: ${errorMessage(err)}`;
    }
  }

  // --- log and TNC ---------------------------------------------------------------------------

  logEntries(limit?: number) {
    return this.log.entries({ limit });
  }

  clearLog(bucket: AgeBucket) {
    return this.log.prune(bucket);
  }

  tncStatus() {
    return resolveTncBinary(this.settings().tnc_binary, this.d.tnc?.env);
  }

  installTnc() {
    return installTnc(this.d.tnc?.install);
  }

  installTerminal() {
    return installInTerminal(this.d.tnc?.terminal);
  }

  // --- lifecycle -----------------------------------------------------------------------------

  async start(): Promise<void> {
    await this.log.load();
    let prev = this.settings();
    this.unsubscribe = this.d.store.onChange((next) => {
      if (next.log_max_records !== prev.log_max_records) this.log.setMaxRecords(next.log_max_records);
      const relink = TRANSPORT_KEYS.some((k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k]));
      prev = next;
      if (relink && this.connected) void this.disconnect().then(() => this.connect().catch((err) => (this.lastError = errorMessage(err))));
      else if (this.connected) this.schedule(0);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    await this.disconnect();
    await this.log.close();
  }
}

/** Settings the running transport was built from: a change restarts it. */
const TRANSPORT_KEYS: (keyof AprsSettings)[] = [
  'callsign', 'ssid', 'listen_only', 'transport_mode', 'rig_lib_model_id', 'serial_device', 'baud_rate', 'ptt_method', 'ptt_device',
  'audio_input_device', 'audio_output_device', 'kiss_host', 'kiss_port', 'tnc_binary',
];

