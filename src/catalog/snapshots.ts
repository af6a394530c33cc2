// Catalog snapshots: a copy of the elements and ids in use at a moment, one file each under
// DATA_DIR/snapshots with an index. Retention: the newest SNAPSHOT_RETENTION snapshots and at
// most SNAPSHOT_MAX_BYTES in total; the oldest go first (bounded SD-card use).
import { statOf, unlinkFile } from '../util/fs-calls.js';
import { join } from 'node:path';
import * as v from 'valibot';
import { copyFileAtomic, removeStaleTempsIn, writeFileAtomic } from '../store/atomic-file.js';
import { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { logger } from '../util/logger.js';
import { catalogDocumentSteps, type CatalogService } from './catalog-service.js';
import { drainSliced } from '../util/loop-slices.js';

const log = logger('snapshots');

export const SNAPSHOT_RETENTION = 20;
export const SNAPSHOT_MAX_BYTES = 50 * 1024 * 1024;

export const SnapshotSchema = v.object({
  id: v.string(),
  source: v.string(),
  created_at: v.string(),
  satellite_count: v.number(),
  catalog_version: v.string(),
  bytes: v.number(),
});
export type Snapshot = v.InferOutput<typeof SnapshotSchema>;
const IndexSchema = v.object({ seq: v.number(), items: v.array(SnapshotSchema) });

export class SnapshotService {
  readonly dir: string;
  private index: JsonStore<typeof IndexSchema>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, private readonly clock: Clock, private readonly catalog: CatalogService) {
    this.dir = join(dataDir, 'snapshots');
    removeStaleTempsIn(this.dir); // snapshot copies a kill interrupted
    this.index = new JsonStore({ dir: this.dir, name: 'index', schema: IndexSchema, defaults: () => ({ seq: 0, items: [] }), now: () => clock.now() });
  }

  /** Newest first. */
  list(): Snapshot[] {
    return [...this.index.get().items].reverse();
  }

  latest(): Snapshot | null {
    const items = this.index.get().items;
    return items.length ? items[items.length - 1] : null;
  }

  /**
   * Record the catalog in use. With `dedupe`, an unchanged catalog (same version as the newest
   * snapshot) returns that snapshot instead of writing another copy. Calls are serialized.
   */
  record(source: string, opts: { dedupe?: boolean } = {}): Promise<{ snapshot: Snapshot; total: number; created: boolean }> {
    const run = () => this.doRecord(source, opts.dedupe ?? false);
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  private async doRecord(source: string, dedupe: boolean) {
    const cat = this.catalog.current();
    const last = this.latest();
    if (dedupe && last && last.catalog_version === cat.version) {
      return { snapshot: last, total: this.index.get().items.length, created: false };
    }
    const nowMs = this.clock.now();
    const created_at = new Date(nowMs).toISOString();
    const seq = this.index.get().seq + 1;
    const id = `${created_at.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${seq}`;
    // The snapshot file is the catalog document (elements, ids, version); its metadata is in the index.
    const file = join(this.dir, `${id}.json`);
    const persisted = this.catalog.persistedFileOfCurrent();
    let bytes: number;
    if (persisted) {
      // A copy of the persisted refresh: no second multi-megabyte JSON.stringify for big catalogs.
      await copyFileAtomic(persisted, file);
      bytes = (await statOf(file)).size;
    } else {
      const body = await drainSliced(catalogDocumentSteps(cat, '', [cat.origin]));
      await writeFileAtomic(file, body);
      bytes = Buffer.byteLength(body);
    }
    const snapshot: Snapshot = { id, source, created_at, satellite_count: cat.satellites.length, catalog_version: cat.version, bytes };
    const items = [...this.index.get().items, snapshot];
    const removed: Snapshot[] = [];
    let total = items.reduce((n, s) => n + s.bytes, 0);
    while (items.length > 1 && (items.length > SNAPSHOT_RETENTION || total > SNAPSHOT_MAX_BYTES)) {
      const old = items.shift()!;
      total -= old.bytes;
      removed.push(old);
    }
    try {
      await this.index.set({ seq, items });
    } catch (err) {
      // The index did not take it (a full disk): a file no index lists is half a snapshot.
      await unlinkFile(file).catch((e) => log.warn(`cannot remove unlisted snapshot ${id}`, e));
      throw err;
    }
    for (const old of removed) {
      await unlinkFile(join(this.dir, `${old.id}.json`)).catch((err) => log.warn(`cannot remove snapshot ${old.id}`, err));
    }
    log.info(`snapshot ${id} (${source}): ${snapshot.satellite_count} satellites, ${items.length} kept`);
    return { snapshot, total: items.length, created: true };
  }

  flush(): Promise<void> {
    return this.index.flush();
  }
}
