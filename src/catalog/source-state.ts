// What we remember per source across restarts: politeness and caching (last success, validators,
// max-age, 403/429 backoff) and the records of its last good fetch, so a source inside its
// politeness window still contributes what we hold.
import { join } from 'node:path';
import * as v from 'valibot';
import { removeStaleTempsIn, writeFileAtomic } from '../store/atomic-file.js';
import { JsonStore } from '../store/json-store.js';
import { jsonArrayPartsSteps } from '../util/json-bytes.js';
import { elementTexts, packElementsSteps, sameElements } from './element-table.js';
import { drainSliced } from '../util/loop-slices.js';
import { nodeCrypto } from '../util/lazy-builtins.js';
import { fetchSource } from './fetch-source.js';
import { parseCatalogSliced } from './parse.js';
import { MAX_SOURCE_BYTES } from './sources.js';
import type { Catalog, OmmElements } from './types.js';

const ms = v.nullable(v.number());
export const SourceStateSchema = v.object({
  last_success_ms: ms,
  last_attempt_ms: ms,
  etag: v.nullable(v.string()),
  last_modified: v.nullable(v.string()),
  /** Cache-Control max-age from the last answer: no fetch before this. */
  fresh_until_ms: ms,
  /** 403/429 (Retry-After or exponential): no fetch before this. */
  backoff_until_ms: ms,
  failures: v.number(),
  last_error: v.nullable(v.string()),
  /** Objects in the last good fetch: a sudden large drop marks a broken source. */
  last_count: v.number(),
});
export type SourceState = v.InferOutput<typeof SourceStateSchema>;
const StateFileSchema = v.record(v.string(), SourceStateSchema);

export const emptySourceState = (): SourceState => ({
  last_success_ms: null,
  last_attempt_ms: null,
  etag: null,
  last_modified: null,
  fresh_until_ms: null,
  backoff_until_ms: null,
  failures: 0,
  last_error: null,
  last_count: 0,
});

/** Held records compared with the catalog's between two yields. */
const SHARE_STEP = 1024;

/** A local file: only a stuck disk takes this long. */
const HELD_READ_TIMEOUT_MS = 30_000;

/** File (under DATA_DIR/catalog/sources) holding a source's last good records. */
export const heldFileName = (source: string) => nodeCrypto().createHash('sha1').update(source).digest('hex').slice(0, 16) + '.json';

export class SourceStateStore {
  private store: JsonStore<typeof StateFileSchema>;
  private readonly heldCache = new Map<string, OmmElements[] | null>();

  constructor(private readonly dir: string, now: () => number) {
    this.store = new JsonStore({ dir, name: 'sources-state', schema: StateFileSchema, defaults: () => ({}), now });
    removeStaleTempsIn(join(dir, 'sources'));
  }

  get(source: string): SourceState {
    return this.store.get()[source] ?? emptySourceState();
  }

  async set(source: string, state: SourceState): Promise<void> {
    await this.store.set({ ...this.store.get(), [source]: state });
  }

  private heldPath(source: string): string {
    return join(this.dir, 'sources', heldFileName(source));
  }

  /**
   * Records of the last good fetch: kept in memory once read or fetched (after a refresh they
   * are the catalog's own records where it holds the same: shareHeldSteps), else read from disk
   * like a source (regular file, size cap) and validated again in slices, since the file may be
   * damaged.
   */
  async held(source: string): Promise<OmmElements[] | null> {
    if (this.heldCache.has(source)) return this.heldCache.get(source)!;
    const res = await fetchSource(this.heldPath(source), { timeoutMs: HELD_READ_TIMEOUT_MS, maxBytes: MAX_SOURCE_BYTES, nowMs: 0 });
    const records = res.kind === 'data' ? (await parseCatalogSliced(res.body, {}))?.records ?? [] : [];
    const held = records.length ? records : null;
    this.heldCache.set(source, held);
    return held;
  }

  /** Forget held records of sources no longer configured (they are no longer in the catalog either). */
  retainHeld(sources: readonly string[]): void {
    for (const s of this.heldCache.keys()) if (!sources.includes(s)) this.heldCache.delete(s);
  }

  async hold(source: string, records: OmmElements[]): Promise<void> {
    this.heldCache.set(source, records);
    await writeFileAtomic(this.heldPath(source), await drainSliced(jsonArrayPartsSteps(elementTexts(records))));
  }

  /**
   * The held records the catalog holds too (the same elements), replaced by the catalog's own. A
   * catalog packs its elements into a table of its own (catalog-build.ts), so a source's records
   * were in memory twice: for the 16k active catalogue ~2.8 MiB, at the refresh's memory peak. The
   * rest (records another source's newer epoch replaced, repeats the merge dropped) are packed
   * into a small table of their own, so no list keeps the whole table of its parse alive.
   */
  *shareHeldSteps(catalog: Catalog): Generator<void, void, undefined> {
    let n = 0;
    for (const [source, records] of [...this.heldCache]) {
      if (!records) continue;
      const shared: OmmElements[] = new Array(records.length);
      const rest: number[] = [];
      for (let i = 0; i < records.length; i++) {
        const own = catalog.byNorad.get(records[i].NORAD_CAT_ID)?.elements;
        if (own && sameElements(own, records[i])) shared[i] = own;
        else rest.push(i);
        if (++n % SHARE_STEP === 0) yield;
      }
      if (rest.length) {
        const table = yield* packElementsSteps(rest.map((i) => records[i]));
        for (let k = 0; k < rest.length; k++) shared[rest[k]] = table.row(k);
      }
      // A list held anew meanwhile is this refresh's no longer.
      if (this.heldCache.get(source) === records) this.heldCache.set(source, shared);
    }
  }

  flush(): Promise<void> {
    return this.store.flush();
  }
}
