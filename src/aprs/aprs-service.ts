import { join } from 'node:path';
import type { AprsSettings, AprsSettingsSchema } from './settings.js';
import { defaultAprsRuntime } from './types.js';
import type { AprsRuntime, AprsTarget } from './schemas.js';
import { allTargets, findChannel, selectedTarget, txPath, type TargetWorld } from './targets/targets.js';
import type { SendKind, SendResult } from './send.js';
import type { AprsLog } from './log/aprs-log.js';
import type { AprsLogEntry } from './log/log-entry.js';
import type { AgeBucket } from './log/age-bucket.js';
import type { TransportOptions } from './transport/make-transport.js';
import type { AprsStation, RigAccess } from './aprs-station.js';
import type { InstallOptions, TerminalOptions } from './tnc/tnc-binary.js';
import type { LanLeaser } from '../radio/radio-api.js';
import type { SerialDriver } from '../links/serial-driver.js';
import { identityOf, stationIdentity, callsignProblem } from '../ham/callsign.js';
import type { CatalogProvider } from '../catalog/types.js';
import type { OrbitService } from '../orbit/types.js';
import type { LocationProvider } from '../orbit/location-types.js';
import type { GuidanceService } from '../guidance/guidance-service.js';
import type { JsonStore } from '../store/json-store.js';
import type { DeviceClaims } from '../util/device-claims.js';
import { LazyPart } from '../util/lazy-part.js';
import { Listeners, listenAll } from '../util/listeners.js';
import { badRequest } from '../util/errors.js';
import type { Clock } from '../util/clock.js';
import { logger } from '../util/logger.js';

// The APRS station (spec part 4 "APRS") as the routes and the station see it: settings, targets
// and the transmit gate, the runtime, the emergency stop, the receive log. The station on the air
// (transports, receive and send paths, iGate, retune: aprs-station.ts and what it imports) loads
// on the first connect or send, the receive log on the first read or connect: a station that
// never turns APRS on never loads them, and its answers are the resting ones until then.

const log = logger('aprs');

export type { RigAccess } from './aprs-station.js';

export interface AprsServiceDeps {
  clock: Clock;
  store: JsonStore<typeof AprsSettingsSchema>;
  dataDir: string;
  catalog: CatalogProvider;
  orbit: Pick<OrbitService, 'currentOrNextPass'>;
  guidance: Pick<GuidanceService, 'recommendFor'>;
  location: LocationProvider;
  network: { state(): { online: boolean; offline: boolean } };
  radio: RigAccess;
  claims: DeviceClaims;
  /** The IC-705's LAN sessions (Wi-Fi transport), shared with radio control. */
  lan: LanLeaser;
  /** The serial binding (a KISS TNC on a serial line, Dire Wolf's PTT line). */
  serial: SerialDriver;
  version: string;
  /** Seams at the edge of the process (tests point them at fakes on 127.0.0.1). */
  transport?: Partial<TransportOptions>;
  /** The install helper and terminal lookup (tests point them at scripts). */
  tnc?: { install?: InstallOptions; terminal?: TerminalOptions; env?: NodeJS.ProcessEnv };
}

export class AprsService {
  readonly name = 'aprs';
  private estop = false;
  /** The station's other transmitters (the Hamlib servers' external control) stop with it. */
  private readonly stopListeners = new Listeners<void>(log, 'emergency stop');
  private readonly changed = new Listeners<void>(log, 'APRS state');
  private readonly packets = new Listeners<AprsLogEntry>(log, 'APRS packet');
  private lastError: string | null = null;
  private unsubscribe: () => void = () => {};
  private stopped = false;
  private readonly station: LazyPart<AprsStation>;
  private readonly receiveLog: LazyPart<AprsLog>;

  constructor(private readonly d: AprsServiceDeps) {
    this.receiveLog = new LazyPart('the APRS receive log', async () => {
      const { AprsLog } = await import('./log/aprs-log.js');
      const l = new AprsLog({ path: join(d.dataDir, 'aprs-log.jsonl'), maxRecords: d.store.get().log_max_records, clock: d.clock, onAppend: (e) => this.packets.emit(e) });
      await l.load();
      return l;
    });
    this.station = new LazyPart('the APRS station', async () => {
      const [{ AprsStation }, receiveLog] = await Promise.all([import('./aprs-station.js'), this.receiveLog.get()]);
      return new AprsStation({
        clock: d.clock,
        dataDir: d.dataDir,
        settings: () => this.settings(),
        identity: () => this.identity(),
        previewTarget: () => this.previewTarget(),
        digipeaterActive: () => this.digipeaterState().active,
        igateActive: () => this.igateState().active,
        location: d.location,
        radio: d.radio,
        claims: d.claims,
        lan: d.lan,
        serial: d.serial,
        log: receiveLog,
        version: d.version,
        transport: d.transport,
        fault: (message) => {
          this.lastError = message;
          this.changed.emit();
        },
        starting: () => {
          this.lastError = null;
          this.estop = false;
        },
        changed: () => this.changed.emit(),
      });
    });
  }

  /** Whether the station on the air has been loaded (for tests and the footprint bench). */
  get loaded(): boolean {
    return this.station.current !== null;
  }

  private get connected(): boolean {
    return this.station.current?.isConnected ?? false;
  }

  /**
   * What GET /aprs/state shows changed: its settings, a connect or disconnect, the emergency stop,
   * a fault, a packet heard or sent, and the station's housekeeping tick (every APRS_TICK_MS while
   * connected: the iGate, the retune, the transport's health). Returns the unsubscribe.
   */
  onChange(fn: () => void): () => void {
    return listenAll(fn, [(f) => this.changed.add(f), (f) => this.d.store.onChange(() => f())]);
  }

  /** Each received packet as the receive log stores it (an item of GET /aprs/log); returns the unsubscribe. */
  onPacket(fn: (e: AprsLogEntry) => void): () => void {
    return this.packets.add(fn);
  }

  // --- state ---------------------------------------------------------------------------------

  /** Settings as the API shows them (the LAN password masked). */
  publicSettings(): AprsSettings {
    return this.d.store.publicView();
  }
  settings(): AprsSettings {
    return this.d.store.get();
  }

  /** The station's identity (its callsign and SSID): the one the whole station reads. */
  identity() {
    return identityOf(this.settings());
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
      retuning: (sat_id, channel_id) => this.station.current?.isRetuning(sat_id, channel_id, now_ms) ?? false,
    };
  }

  previewTarget(): AprsTarget {
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

  runtime(): AprsRuntime {
    const s = this.settings();
    const base = defaultAprsRuntime(s);
    const target = this.previewTarget();
    const digi = this.digipeaterState(target);
    const ig = this.igateState();
    const { control_endpoint, modem_state, transport_error, igate_verified, ...on } = this.station.current?.status(target) ?? {};
    return {
      ...base,
      ...on,
      control_endpoint: control_endpoint ?? base.control_endpoint,
      modem_state: modem_state ?? (this.estop ? 'stopped (emergency stop)' : 'stopped'),
      capabilities: this.capabilities(s),
      last_error: this.lastError ?? transport_error ?? null,
      digipeater_requested: digi.requested,
      digipeater_active: digi.active,
      digipeater_reason: digi.reason,
      igate_requested: ig.requested,
      igate_active: ig.active,
      igate_auto_enabled: ig.auto,
      igate_reason: ig.reason ?? (ig.active && igate_verified === false ? 'unverified login: APRS-IS accepts no gated packets' : null),
      target,
      emergency_stopped: this.estop,
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

  // --- connection and sends: the station on the air ------------------------------------------

  async connect(): Promise<void> {
    await (await this.station.get()).connect();
  }

  async disconnect(): Promise<void> {
    await this.station.current?.disconnect();
  }

  /**
   * Always answers, and loads nothing: the transport (if any) killed now, the rig's PTT dropped
   * over CI-V, the service stays up, sends stay blocked until the next connect.
   */
  async emergencyStop(): Promise<{ ok: true; rig_ptt_dropped: boolean | null }> {
    this.estop = true;
    this.stopListeners.emit();
    this.changed.emit();
    this.station.current?.kill();
    let rig: boolean | null = null;
    if (this.d.radio.runtime().connected) {
      rig = await this.d.radio.pttOff().catch(() => false);
      if (!rig) this.lastError = 'emergency stop: the rig did not confirm PTT off over CI-V; check the radio';
    }
    log.warn('emergency stop: transport killed, sends blocked until the next connect');
    return { ok: true, rig_ptt_dropped: rig };
  }

  /** True from the emergency stop until the next APRS connect: nothing on the station may key. */
  get emergencyStopped(): boolean {
    return this.estop;
  }

  /** Called at once (before the rig's PTT is confirmed off) on every emergency stop. */
  onEmergencyStop(fn: () => void): () => void {
    return this.stopListeners.add(fn);
  }

  async send(kind: SendKind, body: { to?: string; text?: string; comment?: string }): Promise<SendResult> {
    const station = await this.station.get();
    const target = this.previewTarget();
    return station.send(kind, body, target, txPath(this.settings(), target));
  }

  // --- log and TNC ---------------------------------------------------------------------------

  async logEntries(limit?: number) {
    return (await this.receiveLog.get()).entries({ limit });
  }

  async clearLog(bucket: AgeBucket) {
    return (await this.receiveLog.get()).prune(bucket);
  }

  /** Flushes the receive log if it is loaded (tests and the bench read the file). */
  async flushLog(): Promise<void> {
    await this.receiveLog.current?.flush();
  }

  async tncStatus() {
    return (await import('./tnc/tnc-binary.js')).resolveTncBinary(this.settings().tnc_binary, this.d.tnc?.env);
  }

  async installTnc() {
    return (await import('./tnc/tnc-binary.js')).installTnc(this.d.tnc?.install);
  }

  async installTerminal() {
    return (await import('./tnc/tnc-binary.js')).installInTerminal(this.d.tnc?.terminal);
  }

  // --- lifecycle -----------------------------------------------------------------------------

  async start(): Promise<void> {
    let prev = this.settings();
    this.unsubscribe = this.d.store.onChange((next) => {
      if (next.log_max_records !== prev.log_max_records) this.receiveLog.current?.setMaxRecords(next.log_max_records);
      const relink = TRANSPORT_KEYS.some((k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k]));
      prev = next;
      if (!this.stopped) this.station.current?.settingsChanged(relink);
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await (await this.station.settled())?.stop();
    await (await this.receiveLog.settled())?.close();
  }
}

/** Settings the running transport was built from: a change restarts it. */
const TRANSPORT_KEYS: (keyof AprsSettings)[] = [
  'callsign', 'ssid', 'listen_only', 'transport_mode', 'rig_lib_model_id', 'serial_device', 'baud_rate', 'ptt_method', 'ptt_device',
  'audio_input_device', 'audio_output_device', 'kiss_host', 'kiss_port', 'tnc_binary',
];
