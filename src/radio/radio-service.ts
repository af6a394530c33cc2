import { RadioController } from './controller.js';
import { AutoTracker } from './auto-track.js';
import { RadioSessionService, type SessionSelect, type SessionView, type TestPair } from './session.js';
import type { RadioStatusSource, RadioRuntime } from './types.js';
import { mainLink, type RadioSettings } from './settings.js';
import type { SerialDriver } from '../links/serial-driver.js';
import type { CivTimeouts } from './civ-bus.js';
import { rigLines } from './rig-lines.js';
import type { RigLines } from './rig-line.js';
import { RestorePoint, noSnapshot } from './restore-point.js';
import { ExternalControl } from './external-control.js';
import { radioDisabled } from './refusals.js';
import type { LanLeaser } from './lan/lan-types.js';
import type { Vfo } from './rig.js';
import { radioEligibility } from '../guidance/eligibility.js';
import { hzToMhz3 } from '../guidance/doppler.js';
import type { GuidanceService } from '../guidance/guidance-service.js';
import type { FrequencyRecommendation } from '../guidance/schemas.js';
import type { PassEvent } from '../orbit/types.js';
import { AppError, badRequest } from '../util/errors.js';
import type { DeviceClaims } from '../util/device-claims.js';
import { iso, type Clock } from '../util/clock.js';
import type { JsonStore } from '../store/json-store.js';
import type { RadioSettingsSchema } from './settings.js';

// The radio service: settings, the controller, auto-track and the pass-pinned session composed.
// It is what services.radio reads (system state, lite snapshot) and what the radio routes
// call. Every entry point checks eligibility through the one function and the session's hold.

export interface RadioServiceDeps {
  clock: Clock;
  serial: SerialDriver;
  store: JsonStore<typeof RadioSettingsSchema>;
  guidance: Pick<GuidanceService, 'profile' | 'recommend'>;
  rangeRate(sat_id: string, at_ms: number): number | null;
  satName(sat_id: string): string | null;
  timeouts?: CivTimeouts;
  /** Serial devices shared with the APRS TNC's PTT: one owner each. */
  claims?: DeviceClaims;
  /** The IC-705's LAN sessions, shared with the APRS station (Wi-Fi transport). */
  lan: LanLeaser;
  /** The runtime changed (RadioArea.onChange). */
  changed?: () => void;
}

export interface ManualPair {
  uplink_hz: number;
  downlink_hz: number;
  uplink_mode?: string;
  downlink_mode?: string;
}

export interface ApplyRequest {
  sat_id: string;
  pass_aos?: string;
  pass_los?: string;
  selected_column_index?: number;
  location_source?: string;
  apply_mode_and_tone?: boolean;
}

const CLAIM = 'the radio controller';
const UPLINK_CLAIM = 'the radio controller (uplink radio)';
/** Settings whose change reopens a connected rig's line. */
const LINK_FIELDS = ['transport', 'serial_device', 'baud_rate', 'civ_address', 'rig_model', 'wifi_host', 'wifi_control_port', 'wifi_username', 'wifi_password', 'hamlib_model', 'hamlib_address', 'uplink_rig'] as const;

export class RadioService implements RadioStatusSource {
  readonly name = 'radio';
  readonly controller: RadioController;
  readonly tracker: AutoTracker;
  readonly sessions: RadioSessionService;
  /** The rig as Hamlib network clients drive it (issue 26). */
  readonly external: ExternalControl;
  /** The rig as it was before the first manual write since connect (Apply now, pair, auto-track). */
  private readonly restorePoint: RestorePoint;
  private readonly lines: RigLines;
  private unsubscribe: () => void = () => {};

  constructor(private readonly d: RadioServiceDeps) {
    const settings = () => d.store.get();
    this.lines = rigLines({ serial: d.serial, lan: d.lan, clock: d.clock, timeouts: d.timeouts });
    this.controller = new RadioController({ clock: d.clock, lines: this.lines, settings, onDown: () => this.tracker.rigLost(), changed: d.changed });
    this.restorePoint = new RestorePoint(this.controller);
    this.tracker = new AutoTracker({ clock: d.clock, controller: this.controller, profile: (id) => d.guidance.profile(id), rangeRate: d.rangeRate });
    this.sessions = new RadioSessionService({
      clock: d.clock,
      controller: this.controller,
      tracker: this.tracker,
      settings,
      recommend: (sat_id, now, p) => d.guidance.recommend(sat_id, now, { pass: passOf(sat_id, p.aos_ms, p.los_ms, p.max_el_deg) })?.recommendation ?? null,
      knows: (id) => d.satName(id),
    });
    this.external = new ExternalControl({
      clock: d.clock,
      controller: this.controller,
      settings,
      prepareWrite: async (what, capture) => {
        this.requireFree(what);
        this.controller.requireRig();
        if (this.tracker.active) this.tracker.stop();
        if (capture) await this.restorePoint.captureOnce();
      },
    });
  }

  settings(): RadioSettings {
    return this.d.store.get();
  }
  /** Settings as the API shows them (the LAN password masked). */
  publicSettings(): RadioSettings {
    return this.d.store.publicView();
  }
  runtime(): RadioRuntime {
    return this.controller.runtime();
  }
  session(): SessionView {
    return this.sessions.view();
  }
  state() {
    return { settings: this.publicSettings(), runtime: this.runtime(), session: this.session() };
  }

  async start(): Promise<void> {
    // A changed device, speed, address or model takes effect at once on a connected rig.
    let prev = this.settings();
    this.unsubscribe = this.d.store.onChange((next) => {
      const relink = LINK_FIELDS.some((k) => JSON.stringify(next[k]) !== JSON.stringify(prev[k])); // uplink_rig is an object
      prev = next;
      if (!this.controller.rig) this.controller.patch({ capabilities: this.controller.capabilities() }); // the model shown follows the setting
      else if (!next.enabled) void this.disconnect();
      else if (relink) void this.reconnect();
    });
    await this.controller.start();
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    await this.sessions.shutdown();
    this.tracker.stop();
    await this.controller.stop();
  }

  private async reconnect(): Promise<void> {
    await this.disconnect();
    await this.controller.connect().catch(() => {});
  }

  async connect(): Promise<void> {
    if (!this.settings().enabled) throw radioDisabled();
    const s = this.settings();
    this.lines.check(mainLink(s));
    if (s.uplink_rig) this.lines.check(s.uplink_rig, 'uplink_rig.');
    this.d.claims?.release(CLAIM);
    this.d.claims?.release(UPLINK_CLAIM);
    const device = this.lines.resource(mainLink(s));
    if (device) this.d.claims?.claim(device, CLAIM);
    const upDevice = s.uplink_rig ? this.lines.resource(s.uplink_rig) : null;
    if (upDevice) this.d.claims?.claim(upDevice, UPLINK_CLAIM);
    await this.controller.connect();
  }

  async disconnect(): Promise<void> {
    this.tracker.stop();
    this.restorePoint.drop();
    await this.controller.disconnect();
    this.d.claims?.release(CLAIM);
    this.d.claims?.release(UPLINK_CLAIM);
  }

  /** Drops the transmitter's PTT over CI-V at once (APRS emergency stop); false when no rig answers. */
  async pttOff(): Promise<boolean> {
    return this.controller.pttOff();
  }

  /** A poll succeeds when usable state came back; nothing back is a 504 (last good targets kept). */
  async poll() {
    const r = await this.controller.poll();
    if (r.a_freq_hz === null && r.b_freq_hz === null) {
      throw new AppError(504, 'rig_timeout', `the rig returned no usable state: ${r.error ?? 'no answer'}; the last good readback is kept`);
    }
    return r;
  }

  async writeFrequency(vfo: Vfo, freq_hz: number) {
    this.requireFree('A direct VFO write');
    await this.controller.writeFrequency(vfo, freq_hz);
    this.controller.patch({ control_mode: 'manual_applied', active_sat_id: null });
    return { vfo, freq_hz };
  }

  /** POST /radio/pair: eligibility first (400, rig untouched), then the pair in write order. */
  async writePair(p: ManualPair) {
    const e = radioEligibility(p);
    if (!e.is_eligible) throw badRequest(`pair not eligible for radio control: ${e.eligibility_reason}`, { eligibility_reason: e.eligibility_reason }, 'not_eligible');
    this.requireFree('A manual pair');
    this.controller.requireRig();
    await this.restorePoint.captureOnce();
    this.tracker.stop();
    const pair = { rx_hz: p.downlink_hz, rx_mode: p.downlink_mode ?? 'FM', tx_hz: p.uplink_hz, tx_mode: p.uplink_mode ?? 'FM' };
    await this.controller.writePair(pair, { satellite: false, what: 'manual pair' });
    this.controller.patch({ control_mode: 'manual_applied', active_sat_id: null });
    return {
      recommendation: manualRecommendation(p),
      targetMapping: this.controller.capabilities().target_mapping,
    };
  }

  /** POST /radio/apply: the shared recommendation for the satellite, applied at once. */
  async apply(b: ApplyRequest) {
    this.requireFree('Apply');
    const rec = this.recommendation(b.sat_id, b.pass_aos, b.pass_los, b.selected_column_index);
    const e = radioEligibility(rec);
    if (!e.is_eligible) throw badRequest(`${b.sat_id} is not eligible for radio control: ${e.eligibility_reason}`, { eligibility_reason: e.eligibility_reason }, 'not_eligible');
    this.controller.requireRig();
    await this.restorePoint.captureOnce();
    this.tracker.stop();
    const modes = b.apply_mode_and_tone ?? this.settings().default_apply_mode_and_tone;
    const tx = rec.uplink_hz !== null && this.controller.txAllowed(rec.uplink_hz) ? rec.uplink_hz : null;
    await this.controller.writePair(
      { rx_hz: rec.downlink_hz, rx_mode: modes ? rec.downlink_mode : null, tx_hz: tx, tx_mode: modes ? rec.uplink_mode : null },
      { satellite: true, tone_hz: modes ? rec.ctcss_hz : undefined, what: `apply ${b.sat_id}` },
    );
    this.controller.patch({ control_mode: 'manual_applied', active_sat_id: b.sat_id });
    return {
      recommendation: rec,
      targetMapping: this.controller.capabilities().target_mapping,
      applied: { rx_hz: rec.downlink_hz, tx_hz: tx, apply_mode_and_tone: modes, tone_hz: modes ? rec.ctcss_hz : null, tx_blocked_reason: tx === null ? 'uplink outside the transmit bands (safe transmit guard)' : null },
    };
  }

  async startAutoTrack(sat_id: string, interval_ms: number | undefined, column?: number) {
    this.requireFree('Auto-track');
    const rec = this.recommendation(sat_id, undefined, undefined, column);
    const e = radioEligibility(rec);
    if (!e.is_eligible) throw badRequest(`${sat_id} is not eligible for radio control: ${e.eligibility_reason}`, { eligibility_reason: e.eligibility_reason }, 'not_eligible');
    this.controller.requireRig();
    await this.restorePoint.captureOnce();
    return this.tracker.start({
      sat_id,
      interval_ms: interval_ms ?? this.settings().auto_track_interval_ms,
      column: rec.selected_column_index,
      owner: 'auto_track',
      apply_mode_and_tone: this.settings().default_apply_mode_and_tone,
    });
  }

  stopAutoTrack(): void {
    if (this.tracker.active?.owner === 'session') {
      throw new AppError(409, 'session_owns_rig', 'the pass-pinned session is tracking: POST /api/v1/radio/session/stop to end it');
    }
    this.tracker.stop();
  }

  /**
   * POST /radio/restore: the rig put back as it was before the first manual write since connect
   * (auto-track stops first; the pass session, which restores its own snapshot, must end first).
   */
  async restore(): Promise<boolean> {
    this.requireFree('Restoring the rig');
    this.controller.requireRig();
    if (!this.restorePoint.available) throw noSnapshot();
    this.tracker.stop();
    const restored = await this.restorePoint.restore();
    this.controller.patch({ control_mode: 'idle', active_sat_id: null });
    return restored;
  }

  selectSession(b: SessionSelect) {
    return this.sessions.select(b);
  }
  setTestPair(p: Omit<TestPair, 'source' | 'ctcss_hz'> | null) {
    return this.sessions.resolveTestPair(p);
  }

  private recommendation(sat_id: string, aos?: string, los?: string, column?: number): FrequencyRecommendation {
    if (this.d.satName(sat_id) === null) throw badRequest(`unknown satellite ${sat_id}`, { field: 'sat_id' }, 'unknown_satellite');
    let pass: PassEvent | undefined;
    if (aos || los) {
      const a = Date.parse(aos ?? ''), l = Date.parse(los ?? '');
      if (!(l > a)) throw badRequest('pass_aos and pass_los go together, and pass_los must be after pass_aos', { field: 'pass_los' });
      pass = passOf(sat_id, a, l, 0);
    }
    const rec = this.d.guidance.recommend(sat_id, this.d.clock.now(), { pass, selected_column_index: column })?.recommendation;
    if (!rec) throw badRequest(`no frequency guidance for ${sat_id}`, { sat_id }, 'no_guidance');
    return rec;
  }

  private requireFree(what: string): void {
    if (this.sessions.holdsRig()) {
      const s = this.sessions.view();
      throw new AppError(409, 'session_owns_rig', `${what} is refused: the pass-pinned session holds the rig (${s.screen_state}); stop the session, or end its test (POST /api/v1/radio/session/test/confirm), first`);
    }
  }
}

function passOf(sat_id: string, aos_ms: number, los_ms: number, max_el_deg: number): PassEvent {
  const tca_ms = Math.round((aos_ms + los_ms) / 2);
  return { sat_id, name: sat_id, aos_ms, tca_ms, los_ms, max_el_deg, aos: iso(aos_ms), tca: iso(tca_ms), los: iso(los_ms) };
}

/** The manual recommendation object POST /radio/pair answers with. */
export function manualRecommendation(p: ManualPair) {
  const e = radioEligibility(p);
  return {
    sat_id: null,
    mode: 'manual' as const,
    uplink_hz: p.uplink_hz,
    downlink_hz: p.downlink_hz,
    uplink_mhz: hzToMhz3(p.uplink_hz),
    downlink_mhz: hzToMhz3(p.downlink_hz),
    uplink_mode: p.uplink_mode ?? 'FM',
    downlink_mode: p.downlink_mode ?? 'FM',
    is_eligible: e.is_eligible,
    eligibility_reason: e.eligibility_reason,
  };
}
