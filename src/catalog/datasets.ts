// Datasets: composes the catalog refresh, status enrichment and snapshots, and owns their
// schedules (catalog refresh daily, status every 12 h, log pruning). Nothing here runs on the
// request path except the explicit refresh routes.
import { readDir, unlinkFile } from '../util/fs-calls.js';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { JsonStore } from '../store/json-store.js';
import type { CatalogSourcesSchema } from './sources.js';
import type { Clock } from '../util/clock.js';
import { logger } from '../util/logger.js';
import type { Scheduler } from '../util/scheduler.js';
import type { CatalogService } from './catalog-service.js';
import { CatalogRefresh, type RefreshReport } from './refresh-service.js';
import { SnapshotService } from './snapshots.js';
import { heldFileName } from './source-state.js';
import { StatusService, type StatusReport } from './status-service.js';
import { TransmittersRefresh, type TransmittersConsumer, type TransmittersSummary } from './transmitters-refresh.js';

const log = logger('datasets');

export const LOG_PRUNE_CRON = '23 3 * * *';

export interface DatasetsDeps {
  config: Config;
  clock: Clock;
  stores: { catalogSources: JsonStore<typeof CatalogSourcesSchema> };
  catalog: CatalogService;
  /** The operator's offline switch (station network resource): refreshes are skipped while on. */
  isOffline: () => boolean;
  scheduler: Scheduler;
  /** Guidance's profile rebuild from transmitter records; absent: no transmitters refresh (tools, older wiring). */
  transmitters?: TransmittersConsumer;
}

export class Datasets {
  readonly name = 'datasets';
  readonly refresher: CatalogRefresh;
  readonly status: StatusService;
  readonly snapshots: SnapshotService;
  readonly transmitters: TransmittersRefresh | null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly d: DatasetsDeps) {
    const isOffline = d.isOffline;
    this.snapshots = new SnapshotService(d.config.dataDir, d.clock, d.catalog);
    this.refresher = new CatalogRefresh({ config: d.config, clock: d.clock, stores: d.stores, catalog: d.catalog, snapshots: this.snapshots, isOffline });
    this.status = new StatusService(d.catalog, d.clock, () => d.stores.catalogSources.get(), isOffline);
    this.transmitters = d.transmitters
      ? new TransmittersRefresh({
          dir: d.catalog.dir,
          clock: d.clock,
          settings: () => d.stores.catalogSources.get(),
          isOffline,
          inCatalog: (norad) => d.catalog.current().byNorad.has(norad),
          consumer: d.transmitters,
        })
      : null;
  }

  /**
   * Catalog refresh, the (12-hour guarded) status refresh and the transmitters (daily guard, which
   * `forceTransmitters` passes: the operator asked). Their sources are contacted together, so
   * unreachable hosts cost the caller one wait, not one each (issue 32); the status and the
   * transmitters are applied after the catalog, so new satellites count.
   */
  async refresh(trigger: string, opts: { forceTransmitters?: boolean } = {}): Promise<{ catalog: RefreshReport; status: StatusReport; transmitters: TransmittersSummary | null }> {
    const refreshing = this.refresher.refresh(trigger);
    const after = refreshing.catch(() => {});
    const [catalog, status, transmitters] = await Promise.all([
      refreshing,
      this.status.refresh(trigger, { after }),
      this.transmitters?.refresh(trigger, { force: opts.forceTransmitters, after }) ?? null,
    ]);
    return { catalog, status, transmitters };
  }

  start(): void {
    // Not awaited: the first /health does not wait for 500 KiB of JSON; refreshes wait for it.
    void this.transmitters?.loadPersisted().catch((err) => log.warn('loading the persisted transmitters failed', err));
    this.schedule();
    this.unsubscribe = this.d.stores.catalogSources.onChange(() => this.schedule());
    this.d.scheduler.onPrune('catalog-held-sources', () => this.pruneHeldSources());
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.refresher.stop();
    await this.status.stop();
    await this.transmitters?.stop();
    await this.snapshots.flush();
  }

  private schedule(): void {
    const s = this.d.stores.catalogSources.get();
    this.d.scheduler.add('catalog-refresh', s.refresh_cron, async () => {
      // A scheduled refresh leaves the lite cache alone: only the spec's routes clear it, and an
      // entry lives 15 s at most.
      const r = await this.refresher.refresh('schedule');
      if (r.error) throw new Error(r.error);
    });
    this.d.scheduler.add('status-refresh', s.status_cron, async () => {
      const r = await this.status.refresh('schedule');
      if (r.error) throw new Error(r.error);
    });
    const transmitters = this.transmitters;
    if (transmitters) {
      this.d.scheduler.add('transmitters-refresh', s.transmitters_cron, async () => {
        const r = await transmitters.refresh('schedule');
        if (r.error) throw new Error(r.error);
      });
    }
    this.d.scheduler.add('log-pruning', LOG_PRUNE_CRON, () => this.d.scheduler.prune());
  }

  /** Held records of sources no longer configured would otherwise stay on the card forever. */
  private async pruneHeldSources(): Promise<void> {
    const dir = join(this.d.catalog.dir, 'sources');
    const keep = new Set(this.refresher.sources().map(heldFileName));
    let names: string[];
    try {
      names = await readDir(dir);
    } catch {
      return;
    }
    for (const n of names) {
      if (keep.has(n) || !n.endsWith('.json')) continue;
      await unlinkFile(join(dir, n)).catch(() => {});
      log.info(`pruned held records ${n} (source no longer configured)`);
    }
  }
}
