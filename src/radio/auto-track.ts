import type { RadioController } from './controller.js';
import { KnobWatch, followKnob, initialPosition, legNeedsWrite, targetsFor, type RigTargets, type TrackPlan } from './tracking.js';
import type { AutoTrackStatus } from './types.js';
import type { FrequencyProfile } from '../guidance/schemas.js';
import { badRequest } from '../util/errors.js';
import { iso, type Clock, type Timer } from '../util/clock.js';
import { logger } from '../util/logger.js';

// The auto-track loop: every interval, the Doppler-corrected pair for the moment the command
// will reach the rig (now + a small CAT lead), written leg by leg only when a leg moved past its
// deadband. On linear transponders the operator's receive knob is followed: once two reads agree
// on a new receive frequency, the uplink moves to the same spot of the passband. While the knob
// is moving the loop leaves the rig alone.

const log = logger('radio:track');
const yes = () => true;
const no = () => false;

/** How far ahead of "now" targets are computed: the time a write takes to reach the rig. */
export const TRACK_LEAD_MS = 250;

export interface AutoTrackDeps {
  clock: Clock;
  controller: RadioController;
  profile(sat_id: string): FrequencyProfile | null;
  rangeRate(sat_id: string, at_ms: number): number | null;
  leadMs?: number;
}

export interface TrackStart {
  sat_id: string;
  interval_ms: number;
  column: number | null;
  owner: AutoTrackStatus['owner'];
  /** Write modes and the CTCSS tone on the first apply. */
  apply_mode_and_tone: boolean;
}

interface Loop {
  start: TrackStart;
  plan: TrackPlan;
  written: { rx: number | null; tx: number | null };
  knob: KnobWatch;
  settled: number | null;
  timer: Timer | null;
  /** The rig came back after an unplug: write the whole pair again. */
  full: boolean;
  status: AutoTrackStatus;
  unobserve: () => void;
}

export class AutoTracker {
  private loop: Loop | null = null;
  private readonly targets: RigTargets = { rx_hz: 0, tx_hz: null };

  constructor(private readonly d: AutoTrackDeps) {}

  get active(): AutoTrackStatus | null {
    return this.loop?.status ?? null;
  }

  /** Writes the whole pair with the satellite extras, then keeps it tracked. */
  async start(o: TrackStart): Promise<AutoTrackStatus> {
    const profile = this.d.profile(o.sat_id);
    if (!profile) throw badRequest(`no frequency profile for ${o.sat_id}: auto-track needs the satellite's guidance`, { sat_id: o.sat_id }, 'no_guidance');
    this.stop();
    const c = this.d.controller;
    c.requireRig();
    const plan: TrackPlan = { profile, position: initialPosition(profile, o.column) };
    const loop: Loop = {
      start: o,
      plan,
      written: { rx: null, tx: null },
      knob: new KnobWatch(profile.mode),
      settled: null,
      timer: null,
      full: false,
      status: {
        sat_id: o.sat_id,
        interval_ms: o.interval_ms,
        owner: o.owner,
        last_tick_at: null,
        writes: 0,
        position: { uplink_hz: plan.position.up_hz, downlink_hz: plan.position.down_hz },
        targets: null,
        knob: { following: profile.mode === 'linear', last_follow_at: null, note: null },
      },
      unobserve: () => {},
    };
    await this.writeFull(loop);
    this.loop = loop;
    loop.unobserve = c.onRx((hz) => this.observe(loop, hz));
    c.patch({ control_mode: 'auto_tracking', active_sat_id: o.sat_id, auto_track: loop.status });
    this.arm(loop);
    return loop.status;
  }

  stop(): boolean {
    const loop = this.loop;
    if (!loop) return false;
    loop.timer?.cancel();
    loop.unobserve();
    this.loop = null;
    this.d.controller.patch({ control_mode: 'idle', active_sat_id: null, auto_track: null });
    return true;
  }

  /** The rig went away: the next tick after it is back writes the whole pair again. */
  rigLost(): void {
    if (this.loop) this.loop.full = true;
  }

  /** Targets for now + lead and which legs need a write (no I/O): the tick's arithmetic. */
  compute(now_ms: number, loop: Loop | null = this.loop): { targets: RigTargets; rx: boolean; tx: boolean } | null {
    if (!loop) return null;
    const rr = this.d.rangeRate(loop.start.sat_id, now_ms + (this.d.leadMs ?? TRACK_LEAD_MS)) ?? 0;
    const t = targetsFor(loop.plan, rr, this.targets);
    const mode = loop.plan.profile.mode;
    const tx = t.tx_hz !== null && this.d.controller.txAllowed(t.tx_hz) && legNeedsWrite(mode, loop.written.tx, t.tx_hz);
    return { targets: t, rx: legNeedsWrite(mode, loop.written.rx, t.rx_hz), tx };
  }

  private observe(loop: Loop, hz: number): void {
    if (loop.plan.profile.mode !== 'linear') return; // FM stays on its channel pair
    const settled = loop.knob.observe(hz, loop.written.rx);
    if (settled !== null) loop.settled = settled;
  }

  private arm(loop: Loop): void {
    loop.timer = this.d.clock.setTimeout(() => {
      loop.timer = null;
      if (this.loop !== loop) return;
      this.tick(loop).finally(() => this.loop === loop && this.arm(loop));
    }, loop.start.interval_ms);
  }

  private async tick(loop: Loop): Promise<void> {
    const c = this.d.controller;
    if (!c.rig) return;
    const now = this.d.clock.now();
    try {
      if (loop.full) return await this.writeFull(loop);
      if (loop.settled !== null) this.follow(loop, loop.settled, now);
      else if (loop.knob.moving) return; // the operator's hand is on the knob
      const step = this.compute(now, loop);
      if (!step || (!step.rx && !step.tx)) return;
      const { rx_hz, tx_hz } = step.targets;
      // Each leg on its own: with two radios one that fails must not stop the other tracking
      // (operate() records the fault, naming the leg); a leg not written is tried next tick.
      let wrote = false;
      if (step.rx && (await c.operate('auto-track step', (rig) => rig.writeLeg('rx', rx_hz)).then(yes, no))) {
        loop.written.rx = rx_hz;
        wrote = true;
      }
      if (step.tx && tx_hz !== null && (await c.operate('auto-track step', (rig) => rig.writeLeg('tx', tx_hz)).then(yes, no))) {
        loop.written.tx = tx_hz;
        wrote = true;
      }
      if (!wrote) return;
      loop.status.writes++;
      loop.status.targets = { rx_hz, tx_hz };
    } catch {
      // operate() recorded the fault in last_error; the next tick tries again
    } finally {
      loop.status.last_tick_at = iso(now);
      if (this.loop === loop) c.patch({ auto_track: { ...loop.status } }); // a stop() meanwhile wins
    }
  }

  /** The knob settled on rx_hz: move the position there, and the uplink with it on a linear transponder. */
  private follow(loop: Loop, rx_hz: number, now: number): void {
    const rr = this.d.rangeRate(loop.start.sat_id, now) ?? 0;
    const f = followKnob(loop.plan, rx_hz, rr);
    loop.plan.position = f.position;
    loop.written.rx = rx_hz; // the rig is where the operator put it: not a write to make
    loop.settled = null;
    loop.knob.reset();
    loop.status.position = { uplink_hz: f.position.up_hz, downlink_hz: f.position.down_hz };
    loop.status.knob = {
      following: true,
      last_follow_at: iso(now),
      note: f.uplink_follows ? null : 'receive tuned outside the downlink passband: uplink left where it was',
    };
    log.info(() => `knob-follow ${loop.start.sat_id}: downlink ${f.position.down_hz} Hz, uplink ${f.position.up_hz ?? '-'} Hz`);
  }

  private async writeFull(loop: Loop): Promise<void> {
    const p = loop.plan.profile;
    const c = this.d.controller;
    const now = this.d.clock.now();
    const rr = this.d.rangeRate(loop.start.sat_id, now + (this.d.leadMs ?? TRACK_LEAD_MS)) ?? 0;
    const t = targetsFor(loop.plan, rr, { rx_hz: 0, tx_hz: null });
    const tx = t.tx_hz !== null && c.txAllowed(t.tx_hz) ? t.tx_hz : null;
    const withModes = loop.start.apply_mode_and_tone;
    await c.writePair(
      { rx_hz: t.rx_hz, rx_mode: withModes ? p.downlink_mode : null, tx_hz: tx, tx_mode: withModes ? p.uplink_mode : null },
      { satellite: true, tone_hz: withModes ? (p.ctcss_hz ?? null) : undefined, what: `auto-track ${loop.start.sat_id}` },
    );
    loop.written = { rx: t.rx_hz, tx };
    loop.full = false;
    loop.status.targets = { rx_hz: t.rx_hz, tx_hz: tx };
    loop.status.writes++;
    if (t.tx_hz !== null && tx === null) c.fail('op', `uplink ${(t.tx_hz / 1e6).toFixed(3)} MHz is outside the transmit bands: tracking receive only (safe transmit guard)`);
  }
}
