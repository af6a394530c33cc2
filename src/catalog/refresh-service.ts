// Catalog refresh from the configured sources: polite fetching, validation, merge by NORAD
// (newest epoch wins), atomic replacement, snapshot. Never throws: the report says what happened.
import type { Config } from '../config.js';
import type { JsonStore } from '../store/json-store.js';
import type { CatalogSourcesSchema } from './sources.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { drainSliced } from '../util/loop-slices.js';
import type { CatalogService } from './catalog-service.js';
import { dropRepeatedSteps, mergeByNoradSteps } from './merge.js';
import { pollSource, type SourceOutcome } from './poll-source.js';
import type { SnapshotService, Snapshot } from './snapshots.js';
import { SourceStateStore } from './source-state.js';
import { effectiveSources } from './sources.js';
import type { OmmElements } from './types.js';
import { LazyAbort } from '../util/lazy-abort.js';

const log = logger('catalog-refresh');

export interface SourceReport {
  source: string;
  status: SourceOutcome['status'];
  /** Objects this source contributed (fresh or held). */
  count: number;
  skipped: number;
  message: string;
}

export interface RefreshReport {
  /** No source failed and the result (if any) is in use. */
  ok: boolean;
  /** At least one source answered (200 or 304) during this call. */
  fetched: boolean;
  /** The elements changed and the catalog version was bumped. */
  replaced: boolean;
  count: number;
  version: string;
  sources: SourceReport[];
  error: string | null;
  /** "Ephemeris" = the orbital elements behind the pass tables: ok when freshly fetched elements are in use. */
  ephemeris: { ok: boolean };
  snapshot: Snapshot | null;
}

export interface RefreshDeps {
  config: Config;
  clock: Clock;
  stores: { catalogSources: JsonStore<typeof CatalogSourcesSchema> };
  catalog: CatalogService;
  snapshots: SnapshotService;
  /** The operator's offline switch (station network resource). */
  isOffline: () => boolean;
}

export class CatalogRefresh {
  readonly state: SourceStateStore;
  private running: Promise<RefreshReport> | null = null;
  /** Aborted on stop, so a slow source or a long parse never holds up shutdown. */
  private readonly stopping = new LazyAbort();

  constructor(private readonly d: RefreshDeps) {
    this.state = new SourceStateStore(d.catalog.dir, () => d.clock.now());
  }

  sources(): string[] {
    return effectiveSources(this.d.config.catalogSources, this.d.stores.catalogSources.get());
  }

  /** One refresh at a time: a second caller shares the one in flight. */
  refresh(trigger: string): Promise<RefreshReport> {
    if (!this.running) {
      this.running = this.run(trigger).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running?.catch(() => {});
    await this.state.flush();
  }

  private report(partial: Partial<RefreshReport> & { error: string | null }): RefreshReport {
    const cat = this.d.catalog.current();
    return { ok: false, fetched: false, replaced: false, count: cat.satellites.length, version: cat.version, sources: [], ephemeris: { ok: false }, snapshot: null, ...partial };
  }

  private async run(trigger: string): Promise<RefreshReport> {
    const sources = this.sources();
    if (this.stopping.aborted) return this.report({ error: 'stopping' });
    if (this.d.isOffline()) {
      return this.report({ error: 'offline switch is on: no source contacted, catalog unchanged' });
    }
    if (sources.length === 0) return this.report({ error: 'no catalog sources configured' });
    const settings = this.d.stores.catalogSources.get();
    this.state.retainHeld(sources);
    const outcomes: SourceOutcome[] = [];
    for (const source of sources) {
      outcomes.push(await pollSource(source, this.state, { nowMs: this.d.clock.now(), timeoutMs: settings.fetch_timeout_ms, maxBytes: settings.max_bytes, signal: this.stopping.signal }));
    }
    if (this.stopping.aborted) return this.report({ error: 'stopped before the refresh completed: catalog unchanged' });
    const reports: SourceReport[] = outcomes.map((o) => ({ source: o.source, status: o.status, count: o.records?.length ?? 0, skipped: o.skipped, message: o.message }));
    const failed = outcomes.filter((o) => o.status === 'failed');
    const fetched = outcomes.some((o) => o.status === 'fetched' || o.status === 'not-modified');
    const error = failed.length ? `${failed.length} of ${outcomes.length} sources failed: ${failed.map((o) => `${o.source}: ${o.message}`).join('; ')}` : null;
    for (const r of reports) log.info(`${trigger}: ${r.source}: ${r.status}, ${r.count} objects: ${r.message}`);

    const contributions = outcomes.map((o) => o.records);
    if (contributions.every((c) => c === null)) return this.report({ sources: reports, error: error ?? 'no source has data' });
    const elements = await this.merge(contributions);
    try {
      const before = this.d.catalog.current().version;
      const cat = elements.length ? await this.d.catalog.replace(elements, sources) : this.d.catalog.current();
      const replaced = cat.version !== before;
      await drainSliced(this.state.shareHeldSteps(cat));
      const snapshot = replaced ? (await this.d.snapshots.record(`refresh (${trigger})`)).snapshot : null;
      return {
        ok: failed.length === 0,
        fetched,
        replaced,
        count: cat.satellites.length,
        version: cat.version,
        sources: reports,
        error,
        ephemeris: { ok: fetched },
        snapshot,
      };
    } catch (err) {
      log.error('replacing the catalog failed', err);
      return this.report({ sources: reports, error: `replacing the catalog failed: ${errorMessage(err)}` });
    }
  }

  /**
   * Newest epoch per NORAD id across the sources; what we hold now also takes part for the
   * objects the sources name, so older records never replace newer ones. When a source has no
   * data at all (failed and never fetched), everything we hold is kept so its objects stay.
   */
  private async merge(contributions: (OmmElements[] | null)[]): Promise<OmmElements[]> {
    const fresh = contributions.filter((c): c is OmmElements[] => c !== null);
    const keepAll = contributions.some((c) => c === null);
    const satellites = this.d.catalog.current().satellites;
    const merged = await drainSliced(
      (function* () {
        // 16k objects per list: every pass over them yields as it goes.
        const named = new Set<number>();
        let n = 0;
        for (const c of fresh) {
          for (const e of c) {
            named.add(e.NORAD_CAT_ID);
            if ((++n & 1023) === 0) yield;
          }
        }
        const current: OmmElements[] = [];
        for (const s of satellites) {
          if (keepAll || named.has(s.norad_id)) current.push(s.elements);
          if ((++n & 1023) === 0) yield;
        }
        return yield* mergeByNoradSteps([...fresh, current]);
      })(),
    );
    const { kept, dropped } = await drainSliced(dropRepeatedSteps([...merged.values()]));
    if (dropped.length) log.info(`merge: ${dropped.length} objects repeat another object's elements and are not tracked`);
    return kept;
  }
}
