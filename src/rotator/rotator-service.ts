import { openRotator, type OpenRotatorOptions } from './drivers/open-rotator.js';
import { RotatorGarbled, RotatorSilent, type RotatorDriver, type RotatorPosition, type RotatorTimeouts } from './drivers/rotator-driver.js';
import { planPass, PassTracker, type PassPlan, type TrackCommand } from './planner.js';
import { NoPosition, passToTrack, type RotatorSky } from './pass-source.js';
import { azFromWire, azToWire, checkGoto, gotoAzimuth, insideLimits, limitsOf } from './coordinates.js';
import { restingRotatorRuntime, type RotatorPlanView, type RotatorRuntime } from './schemas.js';
import type { RotatorSettings } from './settings.js';
import type { SerialDriver } from '../links/serial-driver.js';
import type { JsonStore } from '../store/json-store.js';
import type { RotatorSettingsSchema } from './settings.js';
import { AppError, badRequest, errorMessage } from '../util/errors.js';
import { notConnected, rotatorDisabled } from './rotator-errors.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { Reconnect } from '../util/reconnect.js';
import { logger } from '../util/logger.js';

// The antenna rotator (issue 25): the controller's connection, the poll loop that reads the
// position back, manual goto/stop/park, and tracking a pass through the pure planner (planner.ts:
// decided once per pass at track start, then one tick per poll). Faults never escape as crashes:
// a silent, garbled or unplugged controller sets last_error, commanding stops, the link is
// reopened with backoff while the operator wants it connected, and the service keeps serving.

const log = logger('rotator');

/** How fast a lost controller is reopened: from base_ms, doubling, up to max_ms. */
const RECONNECT = { base_ms: 1000, max_ms: 30_000 } as const;
/** Read-backs that fail in a row before the link is taken as lost and reopened. */
const POLL_FAILURES_BEFORE_RELINK = 3;
/** A change smaller than this between two read-backs is not motion (encoder noise). */
const MOVING_EPS_DEG = 0.2;

/** The radio's pass-pinned session as the rotator follows it. */
export interface FollowedSession {
  screen_state: string;
  selected_sat_id: string | null;
  pass_aos: string | null;
  pass_los: string | null;
}

export interface RotatorServiceDeps {
  clock: Clock;
  store: JsonStore<typeof RotatorSettingsSchema>;
  serial: SerialDriver;
  /** The passes and look angles to track (the orbit engine). */
  sky: RotatorSky;
  knows(sat_id: string): boolean;
  /** The radio's session (follow_radio_session); null when radio control is not loaded. */
  radioSession(): FollowedSession | null;
  timeouts?: Partial<RotatorTimeouts>;
  /** Tests point this at a fake TCP peer; production opens rotctld over the ground TCP driver. */
  open?: (o: OpenRotatorOptions) => Promise<RotatorDriver>;
  /** The runtime's state changed (STATE_FIELDS), whatever caused it: a route, a pass ending, a fault. */
  changed?: () => void;
  /** Anything of the runtime changed, the position read back and the target included. */
  updated?: () => void;
}

/**
 * What the runtime says about the rotator's state, as the lite line and the pages show it. The
 * position and target change at every poll and are left to the readers' own polling.
 */
const STATE_FIELDS = ['connected', 'control_mode', 'active_sat_id', 'last_error'] as const;

export class RotatorService {
  private current: RotatorRuntime = restingRotatorRuntime();
  private driver: RotatorDriver | null = null;
  private want = false;
  private pollFailures = 0;
  private poller: Timer | null = null;
  private tracker: PassTracker | null = null;
  private plan: PassPlan | null = null;
  /** The session's pass the tracker follows (follow_radio_session), to release it when the session ends. */
  private followed: string | null = null;
  private unsubscribe: () => void = () => {};

  private readonly reconnect: Reconnect;

  constructor(private readonly d: RotatorServiceDeps) {
    this.reconnect = new Reconnect(d.clock, RECONNECT);
  }

  /** Every change of the runtime goes through here, so a change of state is announced wherever it happens. */
  private get rt(): RotatorRuntime {
    return this.current;
  }
  private set rt(next: RotatorRuntime) {
    const prev = this.current;
    this.current = next;
    if (STATE_FIELDS.some((k) => prev[k] !== next[k])) this.d.changed?.();
    this.d.updated?.();
  }

  settings(): RotatorSettings {
    return this.d.store.get();
  }
  runtime(): RotatorRuntime {
    return this.rt;
  }
  planView(): RotatorPlanView | null {
    const p = this.plan;
    if (!p || this.rt.control_mode !== 'tracking') return null;
    return { sat_id: p.sat_id, aos: iso(p.aos_ms), los: iso(p.los_ms), flip: p.flip, az_wrap: p.az_wrap, preposition_az_deg: p.preposition_az_deg, preposition_el_deg: p.preposition_el_deg };
  }

  async start(): Promise<void> {
    let prev = this.settings();
    this.unsubscribe = this.d.store.onChange((next) => {
      const relink = (['protocol', 'serial_device', 'baud_rate', 'rotctld_host', 'rotctld_port'] as const).some((k) => next[k] !== prev[k]);
      prev = next;
      if (!next.enabled) void this.disconnect();
      else if (relink && this.want) void this.disconnect().then(() => this.connect().catch(() => {}));
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe();
    await this.disconnect();
  }

  // --- connection ----------------------------------------------------------------------------

  async connect(): Promise<void> {
    const s = this.settings();
    if (!s.enabled) throw rotatorDisabled();
    if (s.protocol !== 'rotctld' && !s.serial_device) throw badRequest('no serial device is set: choose the rotator controller’s port in the rotator settings', { field: 'serial_device' }, 'no_serial_device');
    if (this.driver) return;
    this.want = true;
    this.reconnect.cancel();
    this.reconnect.reset();
    try {
      await this.open();
    } catch (err) {
      const e = openError(err);
      this.rt = { ...this.rt, last_error: e.message };
      this.scheduleRetry();
      throw e;
    }
  }

  async disconnect(): Promise<void> {
    this.want = false;
    this.reconnect.cancel();
    this.endTracking();
    this.stopPolling();
    const d = this.driver;
    this.driver = null;
    await d?.close().catch(() => {});
    this.rt = { ...this.rt, connected: false, moving: false, control_mode: this.rt.control_mode === 'stopped' ? 'stopped' : 'idle' };
  }

  private async open(): Promise<void> {
    const s = this.settings();
    const driver = await (this.d.open ?? openRotator)({
      protocol: s.protocol,
      serial: this.d.serial,
      serial_device: s.serial_device,
      baud_rate: s.baud_rate,
      rotctld_host: s.rotctld_host,
      rotctld_port: s.rotctld_port,
      clock: this.d.clock,
      timeouts: this.d.timeouts,
    });
    if (!this.want) {
      await driver.close().catch(() => {});
      return;
    }
    this.driver = driver;
    this.reconnect.up();
    this.pollFailures = 0;
    driver.onClose((err) => {
      if (err) this.lost(driver, `the rotator controller went away: ${errorMessage(err)}`);
    });
    this.rt = { ...this.rt, connected: true, last_error: null };
    log.info(`connected (${s.protocol} on ${s.protocol === 'rotctld' ? `${s.rotctld_host}:${s.rotctld_port}` : s.serial_device})`);
    this.schedulePoll(0);
  }

  private lost(driver: RotatorDriver, why: string): void {
    if (this.driver !== driver) return;
    this.driver = null;
    this.stopPolling();
    void driver.close().catch(() => {});
    this.rt = { ...this.rt, connected: false, moving: false, last_error: `${why}; commanding stopped, reconnecting` };
    log.warn(this.rt.last_error!);
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (!this.want) return;
    this.reconnect.schedule(() => {
      if (!this.want || this.driver) return;
      this.open().catch((err) => {
        this.rt = { ...this.rt, last_error: `reconnecting: ${errorMessage(err)}` };
        this.scheduleRetry();
      });
    });
  }

  // --- the poll loop: read back, then one tracking tick ---------------------------------------

  private schedulePoll(ms: number): void {
    this.stopPolling();
    this.poller = this.d.clock.setTimeout(() => void this.pollOnce(), ms);
  }

  private stopPolling(): void {
    this.poller?.cancel();
    this.poller = null;
  }

  private async pollOnce(): Promise<void> {
    this.poller = null;
    const driver = this.driver;
    if (!driver) return;
    let pos: RotatorPosition | null = null;
    try {
      pos = this.fromWire(await driver.position());
      this.pollFailures = 0;
      const prev = this.rt;
      const moving = prev.az_deg !== null && prev.el_deg !== null && (Math.abs(pos.az_deg - prev.az_deg) > MOVING_EPS_DEG || Math.abs(pos.el_deg - prev.el_deg) > MOVING_EPS_DEG);
      this.rt = { ...this.rt, az_deg: round1(pos.az_deg), el_deg: round1(pos.el_deg), moving, last_poll_at: iso(this.d.clock.now()), last_error: this.rt.connected ? null : this.rt.last_error };
      if (this.rt.control_mode === 'parking' && this.arrived(pos)) this.rt = { ...this.rt, control_mode: 'idle' };
    } catch (err) {
      this.rt = { ...this.rt, last_error: `reading the position: ${errorMessage(err)}` };
      if (++this.pollFailures >= POLL_FAILURES_BEFORE_RELINK) return this.lost(driver, this.rt.last_error!);
    }
    try {
      this.followSession();
      await this.trackTick(pos);
    } catch (err) {
      this.rt = { ...this.rt, last_error: `tracking: ${errorMessage(err)}` };
    }
    if (this.driver === driver) this.schedulePoll(this.settings().update_interval_ms);
  }

  private arrived(pos: RotatorPosition): boolean {
    const { target_az_deg: az, target_el_deg: el } = this.rt;
    const db = this.settings().deadband_deg;
    return az !== null && el !== null && Math.abs(pos.az_deg - az) <= db && Math.abs(pos.el_deg - el) <= db;
  }

  private async trackTick(pos: RotatorPosition | null): Promise<void> {
    const t = this.tracker;
    if (!t || !this.driver) return;
    let cmd: TrackCommand | null;
    try {
      cmd = t.tick(this.d.clock.now(), pos);
    } catch (err) {
      if (!(err instanceof NoPosition)) throw err;
      // No position, no stand-in: nothing more is commanded (the antenna stays on its last real target), and the operator is told.
      this.endTracking();
      this.rt = { ...this.rt, control_mode: 'idle', last_error: `tracking stopped: ${err.message}` };
      log.warn(this.rt.last_error!);
      return;
    }
    if (cmd && cmd.phase !== 'done') await this.command(cmd.az_deg, cmd.el_deg);
    if (t.done) {
      const parked = this.settings().park_after_pass;
      this.endTracking();
      this.rt = { ...this.rt, control_mode: 'idle' };
      log.info(`pass over${parked ? ', parked' : ''}`);
    }
  }

  /** The one place a target goes to the controller: clamped into the limits, converted for the wire. */
  private async command(az: number, el: number): Promise<void> {
    const driver = this.driver;
    if (!driver) throw notConnected();
    const s = this.settings();
    const t = insideLimits(s, az, el);
    this.rt = { ...this.rt, target_az_deg: round1(t.az_deg), target_el_deg: round1(t.el_deg) };
    await driver.goto({ az_deg: azToWire(s, t.az_deg), el_deg: t.el_deg });
  }

  private fromWire(p: RotatorPosition): RotatorPosition {
    return { az_deg: azFromWire(this.settings(), p.az_deg, this.rt.target_az_deg ?? this.rt.az_deg), el_deg: p.el_deg };
  }

  // --- manual control --------------------------------------------------------------------------

  async goto(az_deg: number, el_deg: number): Promise<void> {
    const t = checkGoto(this.settings(), az_deg, el_deg, this.rt.az_deg);
    if (this.rt.control_mode === 'tracking') throw new AppError(409, 'rotator_tracking', 'the rotator is tracking a pass: POST /api/v1/rotator/track/stop first');
    if (!this.driver) throw notConnected();
    this.rt = { ...this.rt, control_mode: 'manual' };
    await this.command(t.az_deg, t.el_deg);
  }

  /** Halts motion now (the driver's stop jumps every queued command) and ends any tracking. */
  async halt(): Promise<void> {
    this.endTracking();
    this.rt = { ...this.rt, control_mode: 'stopped', moving: false };
    const driver = this.driver;
    if (driver) {
      try {
        await driver.stop();
      } catch (err) {
        this.rt = { ...this.rt, last_error: `stop: ${errorMessage(err)}` };
        throw new AppError(504, 'rotator_timeout', `the controller did not confirm the stop: ${errorMessage(err)}`);
      }
    }
    log.warn('stopped');
  }

  async park(): Promise<void> {
    if (!this.driver) throw notConnected();
    const s = this.settings();
    this.endTracking();
    this.rt = { ...this.rt, control_mode: 'parking' };
    const az = gotoAzimuth(s, s.park_az_deg, this.rt.az_deg) ?? s.park_az_deg;
    await this.command(az, s.park_el_deg);
  }

  // --- tracking -------------------------------------------------------------------------------

  async startTracking(sat_id: string, window?: { aos_ms: number; los_ms: number }): Promise<void> {
    if (!this.d.knows(sat_id)) throw badRequest(`unknown satellite ${sat_id}`, { field: 'sat_id' }, 'unknown_satellite');
    if (!this.driver) throw notConnected();
    const now = this.d.clock.now();
    const pass = passToTrack(this.d.sky, sat_id, now, window);
    if (!pass) throw new AppError(409, 'no_pass', `${sat_id} has no pass in the pass table to track`, { sat_id });
    const s = this.settings();
    const limits = limitsOf(s);
    this.plan = planPass(pass, limits);
    this.tracker = new PassTracker(this.plan, limits, pass.look, {
      lead_s: s.lead_s,
      deadband_deg: s.deadband_deg,
      update_interval_ms: s.update_interval_ms,
      preposition_s: s.preposition_s,
      park: s.park_after_pass ? { az_deg: s.park_az_deg, el_deg: s.park_el_deg } : null,
    });
    this.rt = { ...this.rt, control_mode: 'tracking', active_sat_id: sat_id };
    log.info(`tracking ${sat_id}: AOS ${iso(pass.aos_ms)}, LOS ${iso(pass.los_ms)}${this.plan.flip ? ', over the top' : ''}${this.plan.az_wrap === 'overlap' ? ', in the overlap' : ''}`);
    this.schedulePoll(0);
  }

  stopTracking(): void {
    this.endTracking();
    if (this.rt.control_mode === 'tracking') this.rt = { ...this.rt, control_mode: 'idle' };
  }

  private endTracking(): void {
    this.tracker = null;
    this.plan = null;
    this.followed = null;
    this.rt = { ...this.rt, active_sat_id: null };
  }

  /** follow_radio_session: the session's armed/active pass is tracked, its end releases the rotator. */
  private followSession(): void {
    if (!this.settings().follow_radio_session || !this.driver) return;
    const s = this.d.radioSession();
    const live = s && (s.screen_state === 'armed' || s.screen_state === 'active') && s.selected_sat_id && s.pass_aos && s.pass_los;
    if (live) {
      const key = `${s.selected_sat_id}/${s.pass_aos}`;
      if (this.followed === key || this.rt.control_mode === 'stopped') return;
      void this.startTracking(s.selected_sat_id!, { aos_ms: Date.parse(s.pass_aos!), los_ms: Date.parse(s.pass_los!) })
        .then(() => (this.followed = key))
        .catch((err) => (this.rt = { ...this.rt, last_error: `following the radio session: ${errorMessage(err)}` }));
    } else if (this.followed) {
      // The session released the rig (stopped, completed, cleared): the rotator goes home too.
      this.followed = null;
      this.endTracking();
      if (this.settings().park_after_pass) void this.park().catch((err) => (this.rt = { ...this.rt, last_error: `parking after the session: ${errorMessage(err)}` }));
      else this.rt = { ...this.rt, control_mode: 'idle' };
    }
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** A failed open, in the operator's words, with the status a client can act on. */
function openError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  const msg = errorMessage(err);
  if (err instanceof RotatorSilent) return new AppError(504, 'rotator_timeout', `the rotator controller did not answer: ${msg} (check the port, baud rate and protocol)`);
  if (err instanceof RotatorGarbled) return new AppError(502, 'rotator_garbled', `${msg} (a wrong baud rate or protocol?)`);
  return new AppError(502, 'rotator_unreachable', `cannot open the rotator controller: ${msg}`);
}
