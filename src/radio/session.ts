import type { RadioController } from './controller.js';
import type { AutoTracker } from './auto-track.js';
import type { RigSnapshot } from './rig.js';
import type { RadioSettings } from './settings.js';
import { defaultRadioSession, type RadioSession } from './types.js';
import { radioEligibility } from '../guidance/eligibility.js';
import type { FrequencyRecommendation } from '../guidance/schemas.js';
import { AppError, badRequest, errorMessage } from '../util/errors.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { logger } from '../util/logger.js';

// The pass-pinned radio session (spec part 3): select → test → confirm, select → start (armed
// until AOS, then tracking) → stop, and the automatic end at LOS. Timers run on the injected
// clock. An illegal move answers 409 and changes nothing. A restore that fails never fails the
// request: it lands in last_error and the session is released.

const log = logger('radio:session');

export interface TestPair {
  uplink_hz: number | null;
  downlink_hz: number;
  uplink_mode: string;
  downlink_mode: string;
  ctcss_hz: number | null;
  /** Where it came from: the frequency guide, or the operator (POST /radio/session/test-pair). */
  source: 'guidance' | 'manual';
}

export interface SessionSelect {
  sat_id: string;
  sat_name?: string | null;
  pass_aos: string;
  pass_los: string;
  max_el_deg?: number | null;
}

export interface SessionDeps {
  clock: Clock;
  controller: RadioController;
  tracker: AutoTracker;
  settings: () => RadioSettings;
  /** The shared recommendation for a satellite and pass (null: no guidance for it). */
  recommend(sat_id: string, now_ms: number, pass: { aos_ms: number; los_ms: number; max_el_deg: number }): FrequencyRecommendation | null;
  knows(sat_id: string): string | null;
}

export type SessionView = RadioSession & { test_pair: TestPair | null; ended_reason: string | null };

/** No satellite selected, nothing tested: the session at rest. */
export const restingSessionView = (): SessionView => ({ ...defaultRadioSession(), test_pair: null, ended_reason: null });

const illegal = (what: string, s: RadioSession) =>
  new AppError(409, 'session_state', `${what} is not possible while the session is ${s.screen_state} (${s.control_state})`, {
    screen_state: s.screen_state,
    control_state: s.control_state,
  });

export class RadioSessionService {
  private s: SessionView = restingSessionView();
  private aos_ms = 0;
  private los_ms = 0;
  private snap: RigSnapshot | null = null;
  private aosTimer: Timer | null = null;
  private losTimer: Timer | null = null;

  constructor(private readonly d: SessionDeps) {}

  /** The session as the API shows it; the idle control state follows the rig's connection. */
  view(): SessionView {
    const connected = this.d.controller.runtime().connected;
    if (this.s.screen_state === 'idle') return { ...this.s, control_state: connected ? 'connected_idle' : 'not_connected' };
    return this.s;
  }

  /** True while the session holds the rig (test applied, armed or tracking): other writers wait. */
  holdsRig(): boolean {
    return this.s.screen_state === 'test' || this.s.screen_state === 'armed' || this.s.screen_state === 'active';
  }

  async select(b: SessionSelect): Promise<SessionView> {
    const name = this.d.knows(b.sat_id);
    if (name === null) throw badRequest(`unknown satellite ${b.sat_id}`, { field: 'sat_id' }, 'unknown_satellite');
    const aos = Date.parse(b.pass_aos);
    const los = Date.parse(b.pass_los);
    if (!(los > aos)) throw badRequest('pass_los must be after pass_aos', { field: 'pass_los' });
    if (this.holdsRig()) await this.release('a new satellite was selected');
    this.clearTimers();
    this.aos_ms = aos;
    this.los_ms = los;
    const max_el = b.max_el_deg ?? null;
    this.s = {
      ...defaultRadioSession(),
      selected_sat_id: b.sat_id,
      sat_name: b.sat_name || name,
      pass_aos: iso(aos),
      pass_los: iso(los),
      max_el_deg: max_el,
      test_pair: null,
      ended_reason: null,
    };
    this.resolveTestPair(null);
    return this.view();
  }

  /** Sets the test pair (manual) or resolves the default from the frequency guide (null). */
  resolveTestPair(manual: Omit<TestPair, 'source' | 'ctcss_hz'> | null): SessionView {
    if (!this.s.selected_sat_id) throw illegal('Setting a test pair', this.s);
    let pair: TestPair | null = null;
    if (manual) pair = { ...manual, ctcss_hz: null, source: 'manual' };
    else {
      const r = this.d.recommend(this.s.selected_sat_id, this.d.clock.now(), { aos_ms: this.aos_ms, los_ms: this.los_ms, max_el_deg: this.s.max_el_deg ?? 0 });
      if (r) pair = { uplink_hz: r.uplink_hz, downlink_hz: r.downlink_hz, uplink_mode: r.uplink_mode, downlink_mode: r.downlink_mode, ctcss_hz: r.ctcss_hz ?? null, source: 'guidance' };
    }
    const e = pair ? radioEligibility(pair) : { is_eligible: false, eligibility_reason: 'no frequency guidance for this satellite' };
    if (manual && !e.is_eligible) throw badRequest(`test pair not eligible: ${e.eligibility_reason}`, { eligibility_reason: e.eligibility_reason }, 'not_eligible');
    const { eligibility_reason: _, ...rest } = this.s;
    this.s = { ...rest, is_eligible: e.is_eligible, ...(e.is_eligible ? {} : { eligibility_reason: e.eligibility_reason! }), test_pair: e.is_eligible ? pair : null, has_test_pair: e.is_eligible && pair !== null };
    return this.view();
  }

  async test(): Promise<SessionView> {
    this.requireSelected('Test', ['idle', 'released', 'completed']);
    const pair = this.requirePair('Test');
    this.d.controller.requireRig();
    this.snap = await this.capture();
    await this.d.controller.writePair(
      { rx_hz: pair.downlink_hz, rx_mode: pair.downlink_mode, tx_hz: pair.uplink_hz, tx_mode: pair.uplink_mode },
      { satellite: true, tone_hz: this.d.settings().default_apply_mode_and_tone ? pair.ctcss_hz : undefined, what: 'session test pair' },
    );
    this.d.controller.patch({ control_mode: 'manual_applied', active_sat_id: this.s.selected_sat_id });
    this.move('test', 'test_applied', true);
    return this.view();
  }

  async confirm(): Promise<SessionView> {
    if (this.s.screen_state !== 'test') throw illegal('Confirm', this.s);
    await this.release(null);
    return this.view();
  }

  async start(): Promise<SessionView> {
    this.requireSelected('Start', ['idle', 'released']);
    this.requirePair('Start');
    this.d.controller.requireRig();
    const now = this.d.clock.now();
    if (now >= this.los_ms) throw new AppError(409, 'pass_over', `the selected pass ended at ${iso(this.los_ms)}: select an upcoming pass`);
    this.losTimer = this.d.clock.setTimeout(() => void this.atLos(), this.los_ms - now);
    if (now < this.aos_ms) {
      this.move('armed', 'armed_waiting_aos', true);
      this.aosTimer = this.d.clock.setTimeout(() => void this.atAos(), this.aos_ms - now);
      return this.view();
    }
    await this.beginTracking();
    return this.view();
  }

  async stop(): Promise<SessionView> {
    if (this.s.screen_state !== 'active' && this.s.screen_state !== 'armed') throw illegal('Stop', this.s);
    await this.release(null);
    return this.view();
  }

  async clear(): Promise<SessionView> {
    if (this.holdsRig()) await this.release('session cleared');
    this.clearTimers();
    this.s = restingSessionView();
    return this.view();
  }

  /** Stops everything at shutdown: a stopping appliance must not leave the rig tracking. */
  async shutdown(): Promise<void> {
    this.clearTimers();
    if (this.holdsRig()) await this.release('service stopping');
  }

  private async atAos(): Promise<void> {
    this.aosTimer = null;
    if (this.s.screen_state !== 'armed') return;
    try {
      await this.beginTracking();
    } catch (err) {
      // The rig may be back in a moment (unplugged cable): try again until LOS.
      this.d.controller.fail('op', `session could not start tracking at AOS: ${errorMessage(err)}; retrying`);
      if (this.d.clock.now() < this.los_ms) this.aosTimer = this.d.clock.setTimeout(() => void this.atAos(), this.d.settings().poll_interval_ms);
    }
  }

  private async atLos(): Promise<void> {
    this.losTimer = null;
    if (!this.holdsRig()) return;
    const restored = await this.endControl();
    // Spec: a failed restore leaves the session released; a clean end is completed/ended.
    if (restored) this.move('completed', 'ended', false);
    else this.move('released', 'released', false);
    this.s = { ...this.s, ended_reason: 'LOS' };
    log.info(`session ${this.s.selected_sat_id} ended at LOS (${restored ? 'rig restored' : 'restore failed'})`);
  }

  private async beginTracking(): Promise<void> {
    this.snap ??= await this.capture();
    const st = this.d.settings();
    await this.d.tracker.start({
      sat_id: this.s.selected_sat_id!,
      interval_ms: st.auto_track_interval_ms,
      column: null,
      owner: 'session',
      apply_mode_and_tone: st.default_apply_mode_and_tone,
    });
    this.move('active', 'tracking_active', true);
  }

  /** Control ends: tracking stops, the snapshot goes back; true when the rig was restored. */
  private async endControl(): Promise<boolean> {
    this.clearTimers();
    if (this.d.tracker.active?.owner === 'session') this.d.tracker.stop();
    this.d.controller.patch({ control_mode: 'idle', active_sat_id: null });
    const snap = this.snap;
    this.snap = null;
    if (!snap) return true;
    if (!this.d.controller.rig) {
      this.d.controller.fail('op', 'restoring the rig snapshot failed: the rig is not connected');
      return false;
    }
    return this.d.controller.restore(snap);
  }

  private async release(reason: string | null): Promise<void> {
    await this.endControl();
    this.move('released', 'released', false);
    this.s = { ...this.s, ended_reason: reason };
  }

  /** Captures the rig state to put back; a rig that cannot is still usable, without restore. */
  private async capture(): Promise<RigSnapshot | null> {
    try {
      return await this.d.controller.snapshot();
    } catch (err) {
      this.d.controller.fail('op', `rig snapshot not captured (nothing to restore afterwards): ${errorMessage(err)}`);
      return null;
    }
  }

  private move(screen: RadioSession['screen_state'], control: RadioSession['control_state'], active: boolean): void {
    this.s = { ...this.s, screen_state: screen, control_state: control, active };
  }

  private requireSelected(what: string, from: RadioSession['screen_state'][]): void {
    if (!this.s.selected_sat_id) throw new AppError(409, 'no_session', `${what}: no satellite is selected (POST /api/v1/radio/session/select first)`);
    if (!from.includes(this.s.screen_state)) throw illegal(what, this.s);
  }

  private requirePair(what: string): TestPair {
    if (!this.s.is_eligible || !this.s.test_pair) {
      throw new AppError(409, 'not_eligible', `${what}: the session is not eligible for radio control: ${this.s.eligibility_reason ?? 'no test pair'}`, {
        eligibility_reason: this.s.eligibility_reason ?? null,
      });
    }
    return this.s.test_pair;
  }

  private clearTimers(): void {
    this.aosTimer?.cancel();
    this.losTimer?.cancel();
    this.aosTimer = this.losTimer = null;
  }
}
