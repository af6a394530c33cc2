import { join } from 'node:path';
import type { Clock } from '../util/clock.js';
import { logger } from '../util/logger.js';
import { Listeners } from '../util/listeners.js';
import { drainSliced, eventLoopSlicer, nextTurn } from '../util/loop-slices.js';
import { CatalogSearch } from './catalog-search.js';
import { loadPassTable, PASS_CACHE_FILE, removePassTable, savePassTable } from './pass-table-file.js';
import { PassTable, sameKey, tableKey, type PassTableKey } from './pass-table.js';
import { OFF_THREAD_FROM_SATELLITES, type Propagator } from './propagator.js';
import type { Observer } from './types.js';
import { monotonicMs } from '../util/monotonic.js';
import { LazyAbort } from '../util/lazy-abort.js';

const log = logger('pass-table');

// Precomputed pass tables, off the request path: the search runs in time slices (setImmediate
// between them), persists to DATA_DIR/pass-table.bin (pass-table-file.ts), reloads at boot, extends itself when the
// node-cron job (PASS_TABLE_CRON, on the app's Scheduler) calls maintain() before the horizon
// runs short, and recomputes when the key (catalog version, rounded location, horizon) changes.
// One computation at a time; a request for a newer key supersedes it. A catalogue too big to keep
// its satrecs (the whole active catalogue) is searched on a worker thread instead
// (pass-search-job.ts), started for that search only.

export interface OrbitSet {
  version: string;
  prop: Propagator;
}

export interface PassTableOptions {
  dataDir: string;
  clock: Clock;
  /** Passes are always available this far ahead of now. */
  horizonHours: number;
  orbits(): OrbitSet;
  observer(): Observer;
  /** Wall-time budget of one slice (ms); the event loop runs between slices. */
  sliceMs?: number;
  /** Computed this far past the horizon so extensions are rare (default 6 h). */
  slackHours?: number;
  /** Catalogues of at least this many satellites are searched on a worker thread (default OFF_THREAD_FROM_SATELLITES); smaller ones in slices on the loop. */
  workerFromSatellites?: number;
}

/** The maintenance tick: cheap when nothing is due; extends the table about every 4 hours. */
export const PASS_TABLE_CRON = '*/15 * * * *';

export interface PassTableStats {
  computations: number;
  extensions: number;
  slices: number;
  /** Longest slice in wall time (includes time the OS gave to other processes). */
  longestSliceMs: number;
  /** Longest slice in process CPU time: what the slice costs on an otherwise idle CPU. */
  longestSliceCpuMs: number;
  lastComputeMs: number;
  lastSatellites: number;
  failedSatellites: number;
  loadedFromDisk: boolean;
  /** Searches done on a worker thread. */
  workerSearches: number;
  /** The last reason a worker search fell back to the loop (null: none did). */
  lastWorkerFailure: string | null;
}

const DEFAULT_SLACK_H = 6;
/** Extend when less than horizon + this remains. */
const EXTEND_MARGIN_MS = 2 * 3600_000;
/** Start a table a little before now (clock skew between compute and query). */
const LEAD_MS = 10 * 60_000;
/** Passes that ended this long ago are pruned when the table is extended. */
const KEEP_PAST_MS = 3600_000;
/** Wall-time budget of one slice; a unit (≤ 1 ms warm here) and a young GC can come on top. */
const DEFAULT_SLICE_MS = 4;

const yieldToLoop = eventLoopSlicer.yieldTo;

export class PassTableService {
  readonly name = 'pass-table';
  readonly path: string;
  readonly stats: PassTableStats = {
    computations: 0,
    extensions: 0,
    slices: 0,
    longestSliceMs: 0,
    longestSliceCpuMs: 0,
    lastComputeMs: 0,
    lastSatellites: 0,
    failedSatellites: 0,
    loadedFromDisk: false,
    workerSearches: 0,
    lastWorkerFailure: null,
  };
  private table: PassTable | null = null;
  private gen = 0;
  /** Aborted when the generation moves on: ends a worker search at once. */
  private genAbort = new LazyAbort();
  private worker: Promise<void> | null = null;
  private dirty = false;
  private runningKey: PassTableKey | null = null;
  private loading: Promise<void> = Promise.resolve();
  private loadGate: Promise<unknown> = Promise.resolve();
  /** Between start() and the end of the persisted table's load. */
  private booting = false;
  private stopped = true;
  /** A new table became current (loaded from disk, computed or extended). */
  private readonly tableListeners = new Listeners<PassTable>(log, 'new pass table');

  constructor(private readonly o: PassTableOptions) {
    this.path = join(o.dataDir, PASS_CACHE_FILE);
  }

  /**
   * The persisted table is read only once `gate` resolves: the app passes its listen, so reading
   * and checking the file (tens of ms on the Pi for a large table) is not part of the boot to
   * /health. /passes and the snapshot wait on ready() meanwhile. Call before start().
   */
  loadAfter(gate: Promise<unknown>): void {
    this.loadGate = gate;
  }

  /** Boot: reload the persisted table in the background, then keep it current. Never blocks. */
  start(): void {
    this.stopped = false;
    this.booting = true;
    this.loading = this.loadGate
      .then(() => yieldToLoop()) // a request already waiting is answered first
      .then(() => this.loadPersisted())
      .catch((err) => log.warn(`pass cache not loaded: ${(err as Error).message}`))
      .finally(() => (this.booting = false));
    void this.loading.then(() => this.maintain());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.supersede();
    await this.loading;
    await this.worker;
  }

  key(): PassTableKey {
    const obs = this.o.observer();
    return tableKey(this.o.orbits().version, obs.lat_deg, obs.lon_deg, obs.alt_m, this.o.horizonHours);
  }

  /** The table for the current key once ready (it may not cover every window; check covers()). */
  current(): PassTable | null {
    const t = this.table;
    return t && sameKey(t.key, this.key()) ? t : null;
  }

  /** Called with each table that becomes current (warm-ups of what is built from it). */
  onTable(fn: (t: PassTable) => void): () => void {
    return this.tableListeners.add(fn);
  }

  /** Resolves once the boot load and any pending computation have finished. */
  async ready(): Promise<PassTable | null> {
    await this.loading;
    while (this.worker) await this.worker;
    return this.current();
  }

  /** Compute, extend or prune as needed (cron tick, catalog or location change, a stale query). */
  maintain(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    // A query during the boot load must not start computing the table the file is about to give.
    if (this.booting) return this.loading.then(() => this.maintain());
    // A computation for another key (the catalogue or location moved on) is abandoned.
    if (this.runningKey && !sameKey(this.runningKey, this.key())) this.supersede();
    if (!this.needsWork()) return this.worker ?? Promise.resolve();
    this.dirty = true;
    if (!this.worker) {
      this.worker = this.run().finally(() => {
        this.worker = null;
      });
    }
    return this.worker;
  }

  /** POST /passes/cache/refresh: drop the persisted cache and the table, recompute in the background. */
  async clear(): Promise<boolean> {
    await this.loading;
    this.supersede();
    while (this.worker) await this.worker;
    const hadTable = this.table !== null;
    this.table = null;
    const hadFile = await removePassTable(this.path);
    void this.maintain();
    return hadFile || hadTable;
  }

  /** The computation under way (if any) is abandoned. */
  private supersede(): void {
    this.gen++;
    this.genAbort.abort();
    this.genAbort = new LazyAbort();
  }

  private needsWork(): boolean {
    const t = this.current();
    const now = this.o.clock.now();
    return !t || !t.covers(now, now + this.o.horizonHours * 3600_000 + EXTEND_MARGIN_MS);
  }

  private async run(): Promise<void> {
    while (this.dirty && !this.stopped) {
      this.dirty = false;
      // A step starts on a turn of its own: maintain() is called from a catalogue change, whose turn
      // has just built the new catalogue's propagator (16k satellites: ~5 ms here), and the step's
      // first slice after it made one block of the two (~19 ms at full speed, the 16k refresh's
      // longest).
      await nextTurn();
      if (this.stopped) break;
      const gen = this.gen;
      try {
        await this.step(gen);
      } catch (err) {
        log.error('pass table computation failed', err);
      } finally {
        this.runningKey = null;
      }
    }
  }

  private async step(gen: number): Promise<void> {
    if (!this.needsWork()) return;
    const orbits = this.o.orbits();
    const obs = this.o.observer();
    const key = this.key();
    this.runningKey = key;
    const now = this.o.clock.now();
    const to = now + (this.o.horizonHours + (this.o.slackHours ?? DEFAULT_SLACK_H)) * 3600_000;
    const base = this.current();
    const t0 = monotonicMs();
    const searchesBefore = this.stats.workerSearches;
    let next: PassTable | null;
    if (base && base.from_ms <= now && base.to_ms > now && base.satIds.length === orbits.prop.size) {
      next = await this.extended(gen, base, key, orbits.prop, obs, now, to);
      if (next) this.stats.extensions++;
    } else {
      next = await this.computed(gen, key, orbits.prop, obs, Math.floor((now - LEAD_MS) / 60_000) * 60_000, to);
      if (next) this.stats.computations++;
    }
    if (!next || gen !== this.gen || this.stopped) return;
    this.table = next;
    this.tableListeners.emit(next);
    this.stats.lastComputeMs = monotonicMs() - t0;
    log.info(`pass table: ${next.size} passes for ${next.satIds.length} satellites to ${new Date(next.to_ms).toISOString()} in ${this.stats.lastComputeMs.toFixed(0)} ms${this.stats.workerSearches > searchesBefore ? ' (searched on a worker thread)' : ''}`);
    try {
      await savePassTable(this.path, next);
    } catch (err) {
      log.warn(`pass cache not saved: ${(err as Error).message}`);
    }
  }

  // Search and build are one call each so the collector's rows (tens of MiB for a 16k catalogue)
  // are garbage once the table is built, not held through the save by the caller's frame.

  /** A new table over [from, to); null when superseded. */
  private async computed(gen: number, key: PassTableKey, prop: Propagator, obs: Observer, from: number, to: number): Promise<PassTable | null> {
    const col = await this.search(gen, prop, obs, from, to, -Infinity);
    return col && PassTable.build(key, prop.ids, prop.names, from, to, col.rows);
  }

  /**
   * `base` extended to `to`: searched only past its end (passes straddling it are already complete
   * in it), passes that ended before KEEP_PAST_MS ago dropped; null when superseded.
   */
  private async extended(gen: number, base: PassTable, key: PassTableKey, prop: Propagator, obs: Observer, now: number, to: number): Promise<PassTable | null> {
    const col = await this.search(gen, prop, obs, base.to_ms, to, base.to_ms);
    if (!col) return null;
    const keepFrom = Math.max(base.from_ms, now - KEEP_PAST_MS);
    const kept = await drainSliced(base.rowsSteps((k) => base.los[k] > keepFrom));
    const rows = new Float64Array(kept.length + col.rows.length);
    rows.set(kept);
    rows.set(col.rows, kept.length);
    return PassTable.build(key, prop.ids, prop.names, keepFrom, to, rows);
  }

  /** The passes of every satellite over [from, to) with AOS ≥ minAos as flat rows; null when superseded. */
  private async search(gen: number, prop: Propagator, obs: Observer, from: number, to: number, minAos: number): Promise<{ rows: Float64Array } | null> {
    this.stats.lastSatellites = prop.size;
    if (prop.size >= (this.o.workerFromSatellites ?? OFF_THREAD_FROM_SATELLITES)) {
      const { searchOffThread } = await import('./pass-search-job.js');
      const r = await searchOffThread(prop, obs, from, to, minAos, this.genAbort.signal);
      if (gen !== this.gen || this.stopped || r.kind === 'aborted') return null;
      if (r.kind === 'done') {
        this.stats.workerSearches++;
        this.stats.failedSatellites = r.value.failed;
        return { rows: r.value.rows };
      }
      this.stats.lastWorkerFailure = r.message;
      log.warn(`pass search on the loop instead: ${r.message}`);
    }
    return this.searchSliced(gen, prop, obs, from, to, minAos);
  }

  /** The search in slices of sliceMs on the event loop; null when superseded. */
  private async searchSliced(gen: number, prop: Propagator, obs: Observer, from: number, to: number, minAos: number): Promise<{ rows: Float64Array } | null> {
    const search = new CatalogSearch(prop, obs, from, to, minAos);
    const sliceMs = this.o.sliceMs ?? DEFAULT_SLICE_MS;
    for (let u = 0; u < search.units; ) {
      const s0 = monotonicMs();
      const cpu0 = process.cpuUsage();
      do search.run(u++);
      while (u < search.units && monotonicMs() - s0 < sliceMs);
      const took = monotonicMs() - s0;
      const cpu = process.cpuUsage(cpu0);
      this.stats.slices++;
      if (took > this.stats.longestSliceMs) this.stats.longestSliceMs = took;
      if ((cpu.user + cpu.system) / 1000 > this.stats.longestSliceCpuMs) this.stats.longestSliceCpuMs = (cpu.user + cpu.system) / 1000;
      await yieldToLoop();
      if (gen !== this.gen || this.stopped) return null;
    }
    this.stats.failedSatellites = search.failed.size;
    return search.col;
  }

  private async loadPersisted(): Promise<void> {
    if (this.stopped) return;
    const t = await loadPassTable(this.path);
    if (!t || this.table) return;
    const prop = this.o.orbits().prop;
    // Same key means same catalog version; the ids must still line up with the satrec indexes.
    if (!sameKey(t.key, this.key()) || t.satIds.length !== prop.size || t.satIds.some((id, k) => prop.ids[k] !== id)) {
      log.info('pass cache is for another catalog, location or horizon; recomputing');
      return;
    }
    this.table = t;
    this.tableListeners.emit(t);
    this.stats.loadedFromDisk = true;
    log.info(`pass cache loaded: ${t.size} passes to ${new Date(t.to_ms).toISOString()}`);
  }
}
