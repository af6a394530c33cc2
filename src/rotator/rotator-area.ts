import type { RotatorService, RotatorServiceDeps } from './rotator-service.js';
import { restingRotatorRuntime, type RotatorPlanView, type RotatorRuntime } from './schemas.js';
import type { RotatorSettings } from './settings.js';
import { checkGoto, limitsOf } from './coordinates.js';
import { controllerRange } from './plan/controller-range.js';
import { notConnected, rotatorDisabled } from './rotator-errors.js';
import { EnabledArea } from '../util/enabled-area.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';

// The rotator as the routes and the station see it. The service, its drivers, the planner and
// the serial binding load when the rotator is first enabled or used, never at boot while it is
// off; until then the answers are the resting ones (not connected, idle, no plan). The stop
// never loads anything: with nothing loaded nothing can be moving.

export class RotatorArea extends EnabledArea<RotatorService, RotatorSettings> {
  private readonly changed = new Listeners<void>(logger('rotator'), 'rotator state');

  constructor(d: RotatorServiceDeps) {
    super({
      name: 'rotator',
      what: 'the rotator',
      settings: d.store,
      enabled: (s) => s.enabled,
      load: async () => new (await import('./rotator-service.js')).RotatorService({ ...d, changed: () => this.changed.emit(), updated: () => this.updates.emit() }),
    });
  }

  /** The rotator's state changed (connected, mode, satellite, fault), whoever caused it; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    return this.changed.add(fn);
  }

  runtime(): RotatorRuntime {
    return this.current?.runtime() ?? restingRotatorRuntime();
  }
  plan(): RotatorPlanView | null {
    return this.current?.planView() ?? null;
  }
  state() {
    return { settings: this.settings(), runtime: this.runtime(), plan: this.plan() };
  }

  // --- what a Hamlib rotctld client sees (issue 26) -------------------------------------------

  /** How far the rotator travels, in controller coordinates (what rotctld's \dump_state announces). */
  travelLimits() {
    const s = this.settings();
    const r = controllerRange(limitsOf(s));
    return { min_az_deg: r.lo, max_az_deg: r.hi, min_el_deg: s.el_min_deg, max_el_deg: s.el_max_deg };
  }
  /** The position the poll loop read back last (at most one update interval old while connected). */
  position(): { az_deg: number; el_deg: number } {
    const rt = this.runtime();
    if (!rt.connected || rt.az_deg === null || rt.el_deg === null) throw notConnected();
    return { az_deg: rt.az_deg, el_deg: rt.el_deg };
  }

  async connect(): Promise<void> {
    if (!this.settings().enabled) throw rotatorDisabled();
    await (await this.engine()).connect();
  }
  async disconnect(): Promise<void> {
    await this.current?.disconnect();
  }
  async goto(az_deg: number, el_deg: number): Promise<void> {
    const e = this.current;
    if (e) return e.goto(az_deg, el_deg);
    checkGoto(this.settings(), az_deg, el_deg, null); // a bad target is a 400 first, as when loaded
    throw notConnected();
  }
  /** Always answers, and loads nothing. */
  async halt(): Promise<void> {
    await this.current?.halt();
  }
  async park(): Promise<void> {
    const e = this.current;
    if (!e) throw notConnected();
    await e.park();
  }
  async startTracking(sat_id: string): Promise<void> {
    const e = this.current;
    if (!e) throw notConnected();
    await e.startTracking(sat_id);
  }
  stopTracking(): void {
    this.current?.stopTracking();
  }
}
