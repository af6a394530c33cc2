import { join } from 'node:path';
import type * as v from 'valibot';
import { ISS_SAT_ID } from '../catalog/types.js';
import type { GuidanceService } from '../guidance/guidance-service.js';
import type { OrbitEngine } from '../orbit/orbit-service.js';
import type { PassTable } from '../orbit/pass-table.js';
import type { PassItemSchema } from '../orbit/schemas.js';
import type { PassEvent, PassList } from '../orbit/types.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { backgroundSlicer, drain, drainSliced, nextTurn } from '../util/loop-slices.js';
import { PassBytesCache } from './pass-bytes-cache.js';
import { passFilterSatIds, type PassFilter } from './pass-filter.js';
import { encodePassItemsSteps, PASS_ITEMS_FILE, readPassItems, writePassItems } from './pass-items-file.js';

// The /passes items (each pass with its frequency guidance) as the answers' bytes: kept in
// memory (pass-bytes-cache.ts), warmed in the background after each new pass table, and kept
// across restarts (pass-items-file.ts), so the first /passes after boot is a concatenation.

const log = logger('passes');

/**
 * Passes in one answer: ~500 bytes each with guidance, so 2000 is ~1 MiB. The 16k catalog has
 * ~300k passes in 48 h, which no client can use and no 96 MiB heap can build at once.
 */
export const MAX_PASS_ITEMS = 2000;

export type PassItem = v.InferOutput<typeof PassItemSchema>;

/**
 * The one place a pass gets its frequency guidance (spec part 4 rule 10): guidance.embed, the
 * same model /system/state, the lite snapshot and /frequency-guides/recommendation use.
 */
export function passItem(guidance: GuidanceService, p: PassEvent, now_ms: number): PassItem {
  const g = guidance.embed(p.sat_id, now_ms, p);
  return {
    sat_id: p.sat_id,
    name: p.name,
    aos: p.aos,
    tca: p.tca,
    los: p.los,
    max_el_deg: p.max_el_deg,
    frequencyRecommendation: g.frequencyRecommendation,
    frequencyMatrix: g.frequencyMatrix,
  };
}

export interface PassItemsDeps {
  clock: Clock;
  orbit: OrbitEngine;
  guidance: GuidanceService;
  passFilter: { get(): PassFilter };
  dataDir: string;
}

export interface PassItemsQuery {
  hours: number;
  min_max_el_deg: number;
  sat_ids: readonly string[] | undefined;
  include_ongoing: boolean;
  limit: number;
  /** Names the query's answer among the kept ones (the route's parameters). */
  key: string;
}

export class PassItemsService {
  readonly name = 'pass items';
  /** Two of the largest answers' items fit, so the kiosk's and /radio's queries keep theirs. */
  readonly bytes = new PassBytesCache(2 * MAX_PASS_ITEMS);
  private warming: Promise<unknown> = Promise.resolve();
  private warmedTable: PassTable | null = null;
  /** The items file being written, if any: a stop waits for it (nothing else of a warm-up). */
  private writing: Promise<void> | null = null;
  /** The basis the last run's rates and items were read back for, and whether the file was for it. */
  private readFor: unknown = null;
  private reading: Promise<void> = Promise.resolve();
  private fileMatched = false;
  /** bytes.stats.itemsBuilt when the file last matched what is kept (written, or read back with nothing built). */
  private writtenBuilt = 0;
  private unsubscribe: () => void = () => {};
  private stopped = false;

  constructor(private readonly d: PassItemsDeps) {}

  start(): void {
    this.unsubscribe = this.d.orbit.table.onTable((t) => this.warm(t));
    const t = this.d.orbit.table.current();
    if (t) this.warm(t);
  }

  /**
   * A warm-up under way ends at its next step (it may be waiting for a 16k table); a file write is
   * finished, and items built since the last write (by requests, or a warm-up cut short) are written.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await this.writing;
    if (this.bytes.stats.itemsBuilt !== this.writtenBuilt) await this.writeKept(this.d.clock.now(), false).catch((err) => log.warn(`pass items not kept: ${errorMessage(err)}`));
  }

  /** Resolves once the warm-ups asked for so far are over, their file written (tests, the bench). */
  async settled(): Promise<void> {
    await this.warming;
  }

  /** The passes a query selects and their items' `[...]` bytes; `hit` when reused whole. */
  async answer(q: PassItemsQuery, now_ms: number): Promise<{ passes: PassList; items: Buffer; hit: boolean }> {
    const passes = await this.d.orbit.passesWhenReady({ from_ms: now_ms, hours: q.hours, min_max_el_deg: q.min_max_el_deg, sat_ids: q.sat_ids, include_ongoing: q.include_ongoing, limit: q.limit });
    // The catalog and the guidance profiles: a profile added or removed shows in the next answer.
    const basis = this.d.guidance.basis();
    const stored = this.bytes.answer(q.key, basis, passes, now_ms);
    if (stored) return { passes, items: stored, hit: true };
    // A request before the warm-up had its quiet takes what the last run kept first.
    await this.readBack(now_ms);
    // New items get their guidance and JSON in slices (2000 cold items are ~100 ms here).
    const items = await drainSliced(this.bytes.build(q.key, basis, passes, now_ms, this.itemOf(now_ms)));
    return { passes, items, hit: false };
  }

  /**
   * Each table that becomes current has the items of its whole horizon under the pass filter (a
   * superset of the 24 h / and the kiosk ask for, and of /radio's 48 h) made ready in the
   * background: read back from the last run, else built in the background's short slices.
   */
  private warm(t: PassTable): void {
    if (t === this.warmedTable) return;
    this.warmedTable = t;
    this.warming = this.warming
      .then(() => this.warmNow())
      // A warm-up that fails leaves the first answer to build its items, as before.
      .catch((err) => log.warn(`warming /passes items failed: ${errorMessage(err)}`));
  }

  private async warmNow(): Promise<void> {
    // Nothing of it before the requests right after boot are served: it reads the items file (and
    // the rates file when an item must be built) and selects ~1000 passes, ~0.5 s at a tenth of a
    // core (a request needing the items reads them itself).
    await backgroundSlicer.yieldTo();
    if (this.stopped) return;
    const { orbit, guidance } = this.d;
    const now = this.d.clock.now();
    // Only what the current table covers: a table that no longer does is the table service's to
    // extend (its new table warms again), not work for a background warm-up to set off.
    const table = orbit.table.current();
    if (!table || !table.covers(now, now + orbit.horizonHours * 3600_000)) return;
    const filter = this.d.passFilter.get();
    const passes = await orbit.passesWhenReady({
      from_ms: now,
      hours: orbit.horizonHours,
      min_max_el_deg: filter.min_el_deg,
      sat_ids: passFilterSatIds(filter, ISS_SAT_ID),
      include_ongoing: false,
      limit: MAX_PASS_ITEMS,
    });
    if (this.stopped) return;
    await this.readBack(now);
    // In the background's short slices: a request meanwhile builds what is not warm yet itself.
    const basis = guidance.basis();
    await drainSliced(this.whileRunning(this.bytes.warm(basis, passes, now, this.itemOf(now)), 0), backgroundSlicer);
    await guidance.persistPassRates(now, backgroundSlicer.yieldTo);
    // Written when something was built since the file last matched (here or by requests).
    if (!this.stopped && (this.bytes.stats.itemsBuilt !== this.writtenBuilt || !this.fileMatched)) await this.writeKept(now, true);
  }

  /**
   * One pass's item. Its guidance reads the phase range rates the last run kept (a JSON file of
   * ~1000 passes, ~4–8 ms of CPU as the first code of its kind a run executes): read with the first
   * item built, not with the items read back, so an answer made only of kept items reads none (the
   * first /passes after boot, when no quiet spell let the warm-up run before it).
   */
  private itemOf(now_ms: number): (p: PassEvent) => PassItem {
    return (p) => {
      this.d.guidance.loadPassRates();
      return passItem(this.d.guidance, p, now_ms);
    };
  }

  /** What the last run kept for the guidance's current basis, read once per basis: the items themselves. */
  private readBack(now_ms: number): Promise<void> {
    const basis = this.d.guidance.basis();
    if (this.readFor === basis) return this.reading;
    this.readFor = basis;
    // Never rejects: it is shared by every later caller for this basis (a failed read-back leaves
    // the items to be built).
    this.reading = (async () => {
      // A turn of its own: a request waiting is answered first.
      await nextTurn();
      if (this.d.guidance.basis() !== basis) return; // a new catalog or profile set meanwhile
      // The basis's key (a hash of the profile set's JSON) and the file's read and parse in turns
      // of their own: together ~8 ms of CPU, a loop block past 100 ms at a tenth of a core.
      const key = this.d.guidance.basisKey();
      await nextTurn();
      if (this.d.guidance.basis() !== basis) return;
      const read = readPassItems(join(this.d.dataDir, PASS_ITEMS_FILE), key, now_ms);
      this.fileMatched = read.entries !== null;
      if (read.entries) {
        this.bytes.adopt(basis, read.entries);
        this.writtenBuilt = this.bytes.stats.itemsBuilt;
      }
      log.debug(() => `pass items from the last run: ${read.note}`);
    })().catch((err) => log.warn(`pass items of the last run not read: ${errorMessage(err)}`));
    return this.reading;
  }

  /** Writes the items kept for passes after `now_ms`, when they were built against the guidance's current basis. */
  private async writeKept(now_ms: number, sliced: boolean): Promise<void> {
    const basis = this.d.guidance.basis();
    if (this.bytes.currentBasis !== basis) return; // built against an older catalog or profile set
    const built = this.bytes.stats.itemsBuilt;
    const steps = encodePassItemsSteps(this.d.guidance.basisKey(), this.bytes.keptItems(now_ms));
    const parts = sliced ? await drainSliced(this.whileRunning(steps, null), backgroundSlicer) : drain(steps);
    if (!parts) return;
    await (this.writing = writePassItems(join(this.d.dataDir, PASS_ITEMS_FILE), parts).finally(() => (this.writing = null)));
    this.writtenBuilt = built;
  }

  /** `g`'s steps until it ends, or `stopped` once the service stops. */
  private *whileRunning<T, S>(g: Generator<void, T, undefined>, stopped: S): Generator<void, T | S, undefined> {
    for (;;) {
      if (this.stopped) return stopped;
      const r = g.next();
      if (r.done) return r.value;
      yield;
    }
  }
}
