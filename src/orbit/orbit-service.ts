import type { CatalogProvider } from '../catalog/types.js';
import type { LocationProvider } from './location-types.js';
import { join } from 'node:path';
import { iso, type Clock } from '../util/clock.js';
import { ArrayJson, jsonArraySteps } from '../util/json-bytes.js';
import { logger } from '../util/logger.js';
import { drainSliced } from '../util/loop-slices.js';
import { DEG, G_ALT, G_LAT, G_LON, GROUND_SIZE, groundFromEci, isSunlit, L_AZ, L_RANGE, L_RANGE_RATE, L_SIN_EL, ObserverFrame, TimeFrame } from './frames.js';
import { LiveSampler, round } from './live-sampler.js';
import { PassFinder } from './pass-finder.js';
import { PassCollector, PassTable, tableKey, type PassSelection } from './pass-table.js';
import { PassTableService, type OrbitSet } from './pass-table-service.js';
import { OFF_THREAD_FROM_SATELLITES, Propagator } from './propagator.js';
import { SATRECS_FILE } from './satrec-file.js';
import { SatrecKeeper } from './satrec-keeper.js';
import type { GroundPathPoint, LiveSample, Observer, OrbitService, PassEvent, PassList, PassQuery, PathPoint } from './types.js';
import { LazyAbort } from '../util/lazy-abort.js';

// The orbit engine as a service: satrec cache per catalog version, live samples shared per
// second, sampled paths, and passes from the precomputed table (or computed on demand for a
// window the table cannot answer yet).

export interface OrbitEngineOptions {
  clock: Clock;
  catalog: CatalogProvider;
  location: LocationProvider;
  dataDir: string;
  /** Pass table horizon (hours); /passes and /track/path are bounded by it. */
  horizonHours?: number;
  /** Whole-catalogue work on a catalogue this big runs on a worker thread (default OFF_THREAD_FROM_SATELLITES). */
  workerFromSatellites?: number;
}

const log = logger('orbit');

export const PASS_HORIZON_HOURS = 48;
/** A /passes request naming at most this many satellites is answered on demand while the table computes. */
const ON_DEMAND_MAX_SATS = 8;

export class OrbitEngine implements OrbitService {
  readonly name = 'orbit';
  readonly table: PassTableService;
  /** The SGP4 records kept between runs (DATA_DIR/satrecs.bin). */
  readonly records: SatrecKeeper;
  readonly horizonHours: number;
  private orbitSet: OrbitSet | null = null;
  private obsFrame: ObserverFrame | null = null;
  private unsubscribe: (() => void)[] = [];
  // Live samples of one second, shared by every caller in that second.
  private liveSecond = Number.NaN;
  private liveSet: OrbitSet | null = null;
  private liveObs: ObserverFrame | null = null;
  private liveSamples: (LiveSample | null | undefined)[] = [];
  private readonly liveTf = new TimeFrame();
  private readonly pathTf = new TimeFrame();
  private readonly sampleTf = new TimeFrame();
  private readonly ground = new Float64Array(GROUND_SIZE);
  /** The sampler of the current orbit set (its scratch arrays shared by live samples and paths; samplerOf()). */
  private sampler: LiveSampler | null = null;
  /** Ends a whole-catalogue job on a worker thread at stop. */
  private readonly stopping = new LazyAbort();
  /** Whole-catalogue /live sweeps made on a worker thread, and the last reason one fell back to the loop. */
  liveSweepsOffThread = 0;
  lastWorkerFailure: string | null = null;

  constructor(private readonly o: OrbitEngineOptions) {
    this.horizonHours = o.horizonHours ?? PASS_HORIZON_HOURS;
    this.table = new PassTableService({
      dataDir: o.dataDir,
      clock: o.clock,
      horizonHours: this.horizonHours,
      orbits: () => this.orbits(),
      observer: () => this.observer(),
      workerFromSatellites: o.workerFromSatellites,
    });
    this.records = new SatrecKeeper({ path: join(o.dataDir, SATRECS_FILE), orbits: () => this.orbits() });
  }

  start(): void {
    this.unsubscribe.push(
      this.o.catalog.onChange(() => {
        void this.table.maintain();
        this.records.keep();
      }),
      this.o.location.onChange(() => void this.table.maintain()),
    );
    this.table.start();
    this.records.start();
  }

  async stop(): Promise<void> {
    for (const u of this.unsubscribe.splice(0)) u();
    this.stopping.abort();
    await this.table.stop();
    await this.records.stop();
  }

  observer(): Observer {
    const r = this.o.location.resolved();
    return { lat_deg: r.lat, lon_deg: r.lon, alt_m: r.alt_m };
  }

  /** The satrec cache, rebuilt only when the catalog version changes. */
  orbits(): OrbitSet {
    const cat = this.o.catalog.current();
    if (!this.orbitSet || this.orbitSet.version !== cat.version) {
      const prop = new Propagator(cat.satellites);
      this.records.adopt(cat.version, prop);
      this.orbitSet = { version: cat.version, prop };
    }
    return this.orbitSet;
  }

  private samplerOf(prop: Propagator): LiveSampler {
    if (this.sampler?.prop !== prop) this.sampler = new LiveSampler(prop);
    return this.sampler;
  }

  private frame(): ObserverFrame {
    const obs = this.observer();
    const f = this.obsFrame;
    if (!f || f.observer.lat_deg !== obs.lat_deg || f.observer.lon_deg !== obs.lon_deg || f.observer.alt_m !== obs.alt_m) {
      this.obsFrame = new ObserverFrame(obs);
    }
    return this.obsFrame!;
  }

  private liveSample(prop: Propagator, i: number, obs: ObserverFrame, tf = this.liveTf): LiveSample | null {
    return this.samplerOf(prop).sample(i, obs, tf);
  }

  /** Samples at the whole second of at_ms, each computed once per second and shared. */
  live(at_ms: number, sat_ids?: readonly string[]): LiveSample[] {
    const { prop } = this.orbits();
    const obs = this.frame();
    const sec = Math.floor(at_ms / 1000) * 1000;
    if (sec !== this.liveSecond || this.liveSet !== this.orbitSet || this.liveObs !== obs) {
      this.liveSecond = sec;
      this.liveSet = this.orbitSet;
      this.liveObs = obs;
      this.liveSamples = new Array(prop.size);
      this.liveTf.set(sec, true);
    }
    const out: LiveSample[] = [];
    const one = (i: number) => {
      let s = this.liveSamples[i];
      if (s === undefined) s = this.liveSamples[i] = this.liveSample(prop, i, obs);
      if (s) out.push(s);
    };
    if (sat_ids) {
      for (const id of sat_ids) {
        const i = prop.index.get(id);
        if (i !== undefined) one(i);
      }
    } else {
      for (let i = 0; i < prop.size; i++) one(i);
    }
    return out;
  }

  /**
   * Every satellite at the whole second of at_ms, yielding every 32: the whole 16k catalogue is
   * ~0.3 s of SGP4 here (seconds on a Pi), so it runs in slices. Its own time frame, because other
   * callers move the shared per-second cache on between slices.
   */
  *liveAllSteps(at_ms: number): Generator<void, { second_ms: number; items: LiveSample[] }, undefined> {
    const { prop } = this.orbits();
    const obs = this.frame();
    const second_ms = Math.floor(at_ms / 1000) * 1000;
    const tf = new TimeFrame();
    tf.set(second_ms, true);
    const items: LiveSample[] = [];
    for (let i = 0; i < prop.size; i++) {
      const s = this.liveSample(prop, i, obs, tf);
      if (s) items.push(s);
      if ((i & 31) === 31) yield;
    }
    return { second_ms, items };
  }

  /**
   * Every satellite at the whole second of at_ms as the bytes of the JSON array of their samples:
   * on a worker thread for a catalogue beyond the satrec cap (live-all-job.ts), else (or when the
   * worker cannot run) in slices here.
   */
  async liveAllJson(at_ms: number): Promise<{ second_ms: number; items: ArrayJson }> {
    const { prop } = this.orbits();
    const second_ms = Math.floor(at_ms / 1000) * 1000;
    if (prop.size >= (this.o.workerFromSatellites ?? OFF_THREAD_FROM_SATELLITES)) {
      const { liveAllOffThread } = await import('./live-all-job.js');
      const r = await liveAllOffThread(prop, this.observer(), second_ms, this.stopping.signal);
      if (r.kind === 'done') {
        this.liveSweepsOffThread++;
        return { second_ms, items: r.value };
      }
      if (r.kind === 'failed') {
        this.lastWorkerFailure = r.message;
        log.warn(`live samples of every satellite on the loop instead: ${r.message}`);
      }
    }
    const { items } = await drainSliced(this.liveAllSteps(at_ms));
    return { second_ms, items: ArrayJson.joined(await drainSliced(jsonArraySteps(items)), items.length) };
  }

  /**
   * One satellite at the whole second of at_ms. The second the live cache holds is read from it;
   * any other (the rotator's planner walking a pass, up to 241 seconds of it) is computed on its
   * own frame, never throwing away the catalogue-sized cache that /live serves.
   */
  sample(sat_id: string, at_ms: number): LiveSample | null {
    const sec = Math.floor(at_ms / 1000) * 1000;
    if (sec === this.liveSecond) return this.live(at_ms, [sat_id])[0] ?? null;
    const { prop } = this.orbits();
    const i = prop.index.get(sat_id);
    if (i === undefined) return null;
    this.sampleTf.set(sec, true);
    return this.liveSample(prop, i, this.frame(), this.sampleTf);
  }

  path(sat_id: string, from_ms: number, minutes: number, step_seconds: number): PathPoint[] {
    return this.walkPath(sat_id, from_ms, minutes, step_seconds, false);
  }

  groundPath(sat_id: string, from_ms: number, minutes: number, step_seconds: number): GroundPathPoint[] {
    return this.walkPath(sat_id, from_ms, minutes, step_seconds, true) as GroundPathPoint[];
  }

  /** One propagation per sample; the ground point is read off the same state when asked. */
  private walkPath(sat_id: string, from_ms: number, minutes: number, step_seconds: number, ground: boolean): PathPoint[] {
    const { prop } = this.orbits();
    const i = prop.index.get(sat_id);
    const out: PathPoint[] = [];
    if (i === undefined || !(step_seconds > 0)) return out;
    const obs = this.frame();
    const tf = this.pathTf;
    const n = Math.floor((minutes * 60) / step_seconds + 1e-9);
    const sampler = this.samplerOf(prop);
    const { lk, st } = sampler;
    const g = this.ground;
    for (let k = 0; k <= n; k++) {
      const t = Math.round(from_ms + k * step_seconds * 1000);
      tf.set(t, true);
      if (!sampler.look(i, obs, tf)) continue;
      const point: PathPoint = {
        sat_id,
        timestamp: iso(t),
        t_ms: t,
        az_deg: round(lk[L_AZ] * DEG, 4),
        el_deg: round(Math.asin(lk[L_SIN_EL]) * DEG, 4),
        range_km: round(lk[L_RANGE], 3),
        range_rate_km_s: round(lk[L_RANGE_RATE], 6),
        sunlit: isSunlit(tf, st),
      };
      if (ground) {
        groundFromEci(tf, st, g);
        (point as GroundPathPoint).lat_deg = round(g[G_LAT] * DEG, 4);
        (point as GroundPathPoint).lon_deg = round(g[G_LON] * DEG, 4);
        (point as GroundPathPoint).alt_km = round(g[G_ALT], 3);
      }
      out.push(point);
    }
    return out;
  }

  /** Last instant /passes and /track/path may reach: the table's end, or now + horizon before it exists. */
  horizonEnd(now_ms: number): number {
    const t = this.table.current();
    return Math.max(t ? t.to_ms : 0, now_ms + this.horizonHours * 3600_000);
  }

  /** From the table when it covers the window; else searched on demand for the asked satellites. */
  passes(q: PassQuery): PassList {
    const sel = this.selection(q);
    const t = this.table.current();
    if (t && t.covers(sel.from_ms, sel.to_ms)) return t.select(sel);
    void this.table.maintain();
    return this.onDemand(sel.sats, sel.from_ms, sel.to_ms).select(sel);
  }

  passSource(): object | null {
    return this.table.current();
  }

  private selection(q: PassQuery): PassSelection {
    const { prop } = this.orbits();
    let sats: Set<number> | null = null;
    if (q.sat_ids) {
      sats = new Set();
      for (const id of q.sat_ids) {
        const i = prop.index.get(id);
        if (i !== undefined) sats.add(i);
      }
    }
    return { from_ms: q.from_ms, to_ms: q.from_ms + q.hours * 3600_000, min_max_el_deg: q.min_max_el_deg, include_ongoing: q.include_ongoing, sats, limit: q.limit };
  }

  /**
   * The route's entry: waits for a table being computed unless the request is small enough to
   * answer now; a table's answer is selected in slices (48 h of the 16k table is ~220k passes).
   */
  async passesWhenReady(q: PassQuery): Promise<PassList> {
    const to = q.from_ms + q.hours * 3600_000;
    let t = this.table.current();
    const few = q.sat_ids !== undefined && q.sat_ids.length <= ON_DEMAND_MAX_SATS;
    if (!(t && t.covers(q.from_ms, to)) && !few) {
      void this.table.maintain();
      await this.table.ready();
      t = this.table.current();
    }
    if (t && t.covers(q.from_ms, to)) return drainSliced(t.selectSteps(this.selection(q)));
    return this.passes(q);
  }

  currentOrNextPass(sat_id: string, at_ms: number): PassEvent | null {
    const { prop } = this.orbits();
    const i = prop.index.get(sat_id);
    if (i === undefined) return null;
    const t = this.table.current();
    if (t && t.covers(at_ms, at_ms + 1)) return t.currentOrNext(i, at_ms);
    void this.table.maintain();
    return this.onDemand(new Set([i]), at_ms, at_ms + this.horizonHours * 3600_000).currentOrNext(i, at_ms);
  }

  private onDemand(sats: ReadonlySet<number> | null, from: number, to: number): PassTable {
    const { prop, version } = this.orbits();
    const obs = this.observer();
    const finder = new PassFinder(prop, this.frame());
    const col = new PassCollector();
    if (sats) for (const i of sats) finder.search(i, from, to, col);
    else for (let i = 0; i < prop.size; i++) finder.search(i, from, to, col);
    return new PassTable(tableKey(version, obs.lat_deg, obs.lon_deg, obs.alt_m, this.horizonHours), prop.ids, prop.names, from, to, col.rows);
  }
}
