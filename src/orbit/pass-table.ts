import { iso } from '../util/clock.js';
import type { PassSink } from './pass-finder.js';
import { drain, drainSliced, eventLoopSlicer } from '../util/loop-slices.js';
import { buildColumns, type PassColumns } from './pass-table-build.js';
import type { PassEvent, PassList } from './types.js';

/** Passes copied between two yields of rowsSteps (a few ms cold on the Pi). */
const ROWS_PER_STEP = 10_000;
/** A select step: rows looked at, an event built counting as EVENT_WORK rows (~0.5 ms here). */
const SELECT_WORK_PER_STEP = 16_384;
const EVENT_WORK = 64;
/** A column-build step is 3–7 ms here: one per loop turn. */
const STEP_PER_TURN = { ...eventLoopSlicer, sliceMs: 0 };

// A pass table: every pass of every satellite overlapping [from_ms, to_ms), complete (true AOS
// and LOS even across the edges), stored column-wise sorted by AOS so a 16k-satellite table stays
// compact; PassEvent objects are made on first use and kept (one per pass: the same pass is the
// same object while the table lives, which pass-bytes-cache.ts relies on), each a view of its row.

/** What identifies a table: the same key means the same passes. */
export interface PassTableKey {
  catalog_version: string;
  /** Observer rounded to 0.001° (≈100 m, < 0.02 s of pass timing) and 10 m. */
  lat: number;
  lon: number;
  alt_m: number;
  horizon_h: number;
}

export function tableKey(catalogVersion: string, lat: number, lon: number, altM: number, horizonH: number): PassTableKey {
  return {
    catalog_version: catalogVersion,
    lat: Math.round(lat * 1000) / 1000,
    lon: Math.round(lon * 1000) / 1000,
    alt_m: Math.round(altM / 10) * 10,
    horizon_h: horizonH,
  };
}

export const sameKey = (a: PassTableKey, b: PassTableKey): boolean =>
  a.catalog_version === b.catalog_version && a.lat === b.lat && a.lon === b.lon && a.alt_m === b.alt_m && a.horizon_h === b.horizon_h;

/** Collects passes from the finder into one growing Float64Array (no objects per pass). */
export class PassCollector implements PassSink {
  private buf = new Float64Array(5 * 256);
  private n = 0;
  /** Drop passes starting before this (already in the table being extended). */
  minAos = -Infinity;
  add(sat: number, aos: number, tca: number, los: number, maxEl: number): void {
    if (aos < this.minAos) return;
    if (this.n + 5 > this.buf.length) {
      const bigger = new Float64Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    const b = this.buf;
    b[this.n++] = sat;
    b[this.n++] = Math.round(aos);
    b[this.n++] = Math.round(tca);
    b[this.n++] = Math.round(los);
    b[this.n++] = Math.round(maxEl * 1000) / 1000;
  }
  /** Flat rows [sat, aos, tca, los, max_el]*. */
  get rows(): Float64Array {
    return this.buf.subarray(0, this.n);
  }
}

export interface PassSelection {
  from_ms: number;
  to_ms: number;
  min_max_el_deg: number;
  include_ongoing: boolean;
  /** Dense satellite indexes allowed; null = all. */
  sats: ReadonlySet<number> | null;
  /** At most this many events are built (the earliest by AOS); the rest are only counted. */
  limit?: number;
}

export class PassTable {
  readonly sat: Int32Array;
  readonly aos: Float64Array;
  readonly tca: Float64Array;
  readonly los: Float64Array;
  readonly maxEl: Float64Array;
  readonly maxDurationMs: number;
  /**
   * The events built so far, by row: a Map, not an array of the table's length. A reader asks for
   * a few passes, /passes for up to its limit; a 16k table's ~220k rows made a 1.7 MiB array of
   * holes that every major GC walked.
   */
  private readonly events = new Map<number, PassEvent>();

  /** rows: flat [sat, aos, tca, los, maxEl]* in any order (sorted here), or columns already built. */
  constructor(
    readonly key: PassTableKey,
    readonly satIds: readonly string[],
    readonly names: readonly string[],
    readonly from_ms: number,
    readonly to_ms: number,
    rows: ArrayLike<number> | PassColumns,
  ) {
    const c = 'aos' in rows ? rows : drain(buildColumns(rows));
    this.sat = c.sat;
    this.aos = c.aos;
    this.tca = c.tca;
    this.los = c.los;
    this.maxEl = c.maxEl;
    this.maxDurationMs = c.maxDurationMs;
  }

  /** The same, built in event-loop-friendly steps (large catalogues). */
  static async build(key: PassTableKey, satIds: readonly string[], names: readonly string[], from_ms: number, to_ms: number, rows: ArrayLike<number>): Promise<PassTable> {
    return new PassTable(key, satIds, names, from_ms, to_ms, await drainSliced(buildColumns(rows), STEP_PER_TURN));
  }

  get size(): number {
    return this.aos.length;
  }

  /** True when every pass overlapping [from, to) is in the table. */
  covers(from_ms: number, to_ms: number): boolean {
    return from_ms >= this.from_ms && to_ms <= this.to_ms;
  }

  /** Flat rows again, optionally only those passing `keep` (extension). */
  rows(keep?: (k: number) => boolean): Float64Array {
    return drain(this.rowsSteps(keep));
  }

  /**
   * The same, yielding every ROWS_PER_STEP passes: the extension of a 16k table walks ~200k passes
   * through `keep`, a 20–30 ms stall in one go with cold code.
   */
  *rowsSteps(keep?: (k: number) => boolean): Generator<void, Float64Array> {
    const out = new Float64Array(this.size * 5);
    let n = 0;
    for (let k = 0; k < this.size; k++) {
      if (k % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
      if (keep && !keep(k)) continue;
      out[n++] = this.sat[k];
      out[n++] = this.aos[k];
      out[n++] = this.tca[k];
      out[n++] = this.los[k];
      out[n++] = this.maxEl[k];
    }
    return out.subarray(0, n);
  }

  event(k: number): PassEvent {
    let e = this.events.get(k);
    if (!e) {
      e = new TablePass(this, k);
      this.events.set(k, e);
    }
    return e;
  }

  /** First index with aos ≥ t. */
  private lowerBound(t: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.aos[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Passes starting in [from, to) (or under way at `from` with include_ongoing), sorted by AOS:
   * up to `limit` events built, and `total` counting every match.
   */
  select(q: PassSelection): PassList {
    return drain(this.selectSteps(q));
  }

  /**
   * The same, yielding now and then: 48 h of a 16k table is ~220k passes to count and 2000 events
   * (three ISO texts each) to build, ~10–20 ms here in one go.
   */
  *selectSteps(q: PassSelection): Generator<void, PassList, undefined> {
    const out = [] as unknown as PassList;
    const limit = q.limit ?? Infinity;
    let total = 0;
    let work = 0;
    const start = this.lowerBound(q.include_ongoing ? q.from_ms - this.maxDurationMs : q.from_ms);
    for (let k = start; k < this.size && this.aos[k] < q.to_ms; k++) {
      if (++work >= SELECT_WORK_PER_STEP) {
        work = 0;
        yield;
      }
      if (this.aos[k] < q.from_ms && (!q.include_ongoing || this.los[k] <= q.from_ms)) continue;
      if (this.maxEl[k] < q.min_max_el_deg) continue;
      if (q.sats && !q.sats.has(this.sat[k])) continue;
      if (total++ < limit) {
        out.push(this.event(k));
        work += EVENT_WORK;
      }
    }
    out.total = total;
    return out;
  }

  /** The pass of satellite s under way at t, else its next one. */
  currentOrNext(s: number, t: number): PassEvent | null {
    for (let k = this.lowerBound(t - this.maxDurationMs); k < this.size; k++) {
      if (this.sat[k] === s && this.los[k] > t) return this.event(k);
    }
    return null;
  }
}

/**
 * A pass of the table, read from its columns (issue 36): one small object per pass asked for,
 * where a plain event held four boxed numbers and three ISO texts for as long as the table lives
 * (~9k heap objects for a thousand passes, walked by every major GC). The texts are made when
 * read: /passes serialises an item once and keeps its bytes, the other readers a few passes.
 */
class TablePass implements PassEvent {
  constructor(
    private readonly table: PassTable,
    private readonly k: number,
  ) {}
  get sat_id(): string {
    return this.table.satIds[this.table.sat[this.k]];
  }
  get name(): string {
    return this.table.names[this.table.sat[this.k]];
  }
  get aos_ms(): number {
    return this.table.aos[this.k];
  }
  get tca_ms(): number {
    return this.table.tca[this.k];
  }
  get los_ms(): number {
    return this.table.los[this.k];
  }
  get max_el_deg(): number {
    return this.table.maxEl[this.k];
  }
  get aos(): string {
    return iso(this.table.aos[this.k]);
  }
  get tca(): string {
    return iso(this.table.tca[this.k]);
  }
  get los(): string {
    return iso(this.table.los[this.k]);
  }
  /** The plain event, for JSON.stringify. */
  toJSON(): PassEvent {
    return plainPass(this);
  }
}

/** A pass event as a plain object: copy a table's event with this, since a spread copies no getters. */
export function plainPass(p: PassEvent): PassEvent {
  const { sat_id, name, aos_ms, tca_ms, los_ms, max_el_deg, aos, tca, los } = p;
  return { sat_id, name, aos_ms, tca_ms, los_ms, max_el_deg, aos, tca, los };
}
