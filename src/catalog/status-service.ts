// Operational status enrichment from AMSAT, at most once per 12 hours (spec part 8). The guard
// timestamp and the matched statuses persist under DATA_DIR, so a restart neither forgets the
// statuses nor lets a refresh through early.
import * as v from 'valibot';
import { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { buildNameIndex, matchStatuses, parseAmsatStatus } from './amsat-status.js';
import { aliasTable } from './bundled.js';
import type { CatalogService } from './catalog-service.js';
import { fetchSource } from './fetch-source.js';
import type { CatalogSources } from './sources.js';

const log = logger('status');

export const STATUS_GUARD_MS = 12 * 60 * 60 * 1000;
// summary.php for 48 h is a few KiB and the status page a few hundred; JSON.parse of 1 MiB of the
// most hostile shape stays near 10 MiB of heap.
const STATUS_MAX_BYTES = 1024 * 1024;

const StatusStateSchema = v.object({
  last_success_ms: v.nullable(v.number()),
  last_attempt_ms: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  source: v.string(),
  /** NORAD id → status. */
  statuses: v.record(v.string(), v.object({ source: v.string(), summary: v.string(), matched_name: v.string() })),
});

export interface StatusReport {
  /** A fetch happened and the statuses were replaced. */
  refreshed: boolean;
  matched: number;
  message: string;
  error: string | null;
}

export class StatusService {
  private store: JsonStore<typeof StatusStateSchema>;
  private running: Promise<StatusReport> | null = null;

  constructor(
    private readonly catalog: CatalogService,
    private readonly clock: Clock,
    private readonly settings: () => CatalogSources,
    private readonly isOffline: () => boolean,
  ) {
    this.store = new JsonStore({
      dir: catalog.dir,
      name: 'status',
      schema: StatusStateSchema,
      defaults: () => ({ last_success_ms: null, last_attempt_ms: null, last_error: null, source: '', statuses: {} }),
      now: () => clock.now(),
    });
    this.apply();
    // New catalog objects may match names already fetched.
    catalog.onChange(() => this.apply());
  }

  lastSuccessMs(): number | null {
    return this.store.get().last_success_ms;
  }

  /** `after`: the fetched statuses are matched once it settles (a catalog refresh in flight). */
  refresh(trigger: string, opts: { after?: Promise<unknown> } = {}): Promise<StatusReport> {
    if (!this.running) this.running = this.run(trigger, opts.after).finally(() => (this.running = null));
    return this.running;
  }

  async stop(): Promise<void> {
    await this.running?.catch(() => {});
    await this.store.flush();
  }

  private apply(): void {
    const st = this.store.get();
    const cat = this.catalog.current();
    const byNorad = new Map(Object.entries(st.statuses).map(([n, s]) => [Number(n), s] as const));
    // Statuses were matched against an older catalog: keep only satellites still present.
    for (const n of byNorad.keys()) if (!cat.byNorad.has(n)) byNorad.delete(n);
    this.catalog.setStatuses(byNorad);
  }

  private async run(trigger: string, after?: Promise<unknown>): Promise<StatusReport> {
    const now = this.clock.now();
    const st = this.store.get();
    const url = this.settings().status_url;
    if (!url) return { refreshed: false, matched: Object.keys(st.statuses).length, message: 'status source disabled (status_url is empty)', error: null };
    if (st.last_success_ms !== null && now - st.last_success_ms < STATUS_GUARD_MS && now >= st.last_success_ms) {
      const next = new Date(st.last_success_ms + STATUS_GUARD_MS).toISOString();
      return { refreshed: false, matched: Object.keys(st.statuses).length, message: `status refreshed at ${new Date(st.last_success_ms).toISOString()}; unchanged until ${next} (12-hour guard)`, error: null };
    }
    if (this.isOffline()) return { refreshed: false, matched: Object.keys(st.statuses).length, message: 'offline switch is on: status not refreshed', error: null };
    const s = this.settings();
    const res = await fetchSource(url, { timeoutMs: s.fetch_timeout_ms, maxBytes: Math.min(s.max_bytes, STATUS_MAX_BYTES), nowMs: now });
    await after;
    try {
      if (res.kind !== 'data') throw new Error(res.kind === 'error' ? res.message : 'unexpected HTTP 304');
      const names = parseAmsatStatus(res.body.toString('utf8'));
      const cat = this.catalog.current();
      const matched = matchStatuses(names, buildNameIndex(cat.satellites, aliasTable), 'AMSAT');
      await this.store.set({
        last_success_ms: now,
        last_attempt_ms: now,
        last_error: null,
        source: url,
        statuses: Object.fromEntries([...matched].map(([n, status]) => [String(n), status])),
      });
      this.apply();
      const message = `${names.length} AMSAT names, ${matched.size} satellites matched`;
      log.info(`${trigger}: ${message}`);
      return { refreshed: true, matched: matched.size, message, error: null };
    } catch (err) {
      const error = `status refresh failed: ${errorMessage(err)}`;
      log.warn(`${trigger}: ${error}`);
      await this.store.update({ last_attempt_ms: now, last_error: error });
      return { refreshed: false, matched: Object.keys(st.statuses).length, message: error, error };
    }
  }
}
