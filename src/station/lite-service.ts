import { LITE_CACHE_TTL_MS, LiteCache, type ReplyWrapper } from './lite-cache.js';
import type { Timer } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { backgroundSlicer } from '../util/loop-slices.js';
import { LiteBaseMemo } from './lite-base.js';
import { buildLiteSnapshot, type LiteRequest } from './lite-snapshot.js';
import type { StationService } from './station-service.js';

const log = logger('lite');

/**
 * The lite snapshot behind its cache. Key: sorted tracked ids, requested focus,
 * location_source, rounded resolved location (spec part 4); 15 s on the injected clock.
 */
export class LiteService<R> {
  readonly name = 'lite';
  readonly cache: LiteCache<R>;
  /** The tracked set's part of the snapshots built in one second, shared by their misses. */
  readonly bases: LiteBaseMemo;
  private readonly invalidated = new Listeners<void>(log, 'lite invalidation');
  private news: Timer | null = null;
  private warmGate: Promise<unknown> = Promise.resolve();
  private warmable: (now_ms: number) => boolean = () => true;
  private running = false;
  /** Default snapshots built by the warm-up (tests). */
  warmed = 0;

  constructor(
    readonly station: StationService,
    wrap: ReplyWrapper<R>,
  ) {
    this.cache = new LiteCache(wrap);
    this.bases = new LiteBaseMemo(station);
  }

  /**
   * The warm-up waits for `gate` (the server listening and the pass table ready: /health first),
   * and runs only if `warmable` then says so (the table covers the snapshot's passes: a search on
   * demand, or the table's extension it would start, is work of its own, not a warm-up's).
   */
  warmAfter(gate: Promise<unknown>, warmable: (now_ms: number) => boolean): void {
    this.warmGate = gate;
    this.warmable = warmable;
  }

  /**
   * Once after boot, at the first quiet moment: the default snapshot built and thrown away. The
   * first build after a start runs each of its parts for the first time (their code, each tracked
   * satellite's SGP4 record, the summaries of every area): at a tenth of a core it was 100-200 ms,
   * the first screen's wait. Built again at the request, not kept: a cached entry would make the
   * first request a hit or a miss by how fast the station booted.
   */
  start(): void {
    this.running = true;
    void this.warmGate
      .then(() => backgroundSlicer.yieldTo())
      .then(() => {
        if (!this.running || !this.warmable(this.station.deps.clock.now())) return;
        buildLiteSnapshot(this.station, {});
        this.warmed++;
      })
      .catch((err) => log.warn(`lite warm-up: ${(err as Error).message}`));
  }

  stop(): void {
    this.running = false;
  }

  /** Cached bytes on a hit; a fresh build (then cached) on a miss. */
  reply(req: { sat_id?: string; location_source?: LiteRequest['location_source'] }): R {
    const d = this.station.deps;
    const now = d.clock.now();
    d.location.resolved(); // re-resolves (fix freshness) so the key below is current
    const key = `${d.liteSettings.tracked().key}|${req.sat_id ?? ''}|${req.location_source ?? ''}|${d.location.key}`;
    const hit = this.cache.get(key, now);
    if (hit) return hit.hit;
    return this.cache.put(key, now, JSON.stringify(buildLiteSnapshot(this.station, req, this.bases))).miss;
  }

  invalidate(): void {
    this.cache.clear();
    this.bases.clear();
    this.invalidated.emit();
  }

  /**
   * What the snapshot shows changed with no route that clears the cache (the rig's own fault): the
   * spec names the routes that clear it, so the entries stay, and the news goes out once every
   * entry made before now has expired (a build then shows the change), as a poll would have seen it.
   */
  changedOnExpiry(): void {
    // Nobody follows the lite news (no page on the socket): nothing to tell, no timer.
    if (this.news || !this.followed) return;
    this.news = this.station.deps.clock.setTimeout(() => {
      this.news = null;
      this.invalidated.emit();
    }, LITE_CACHE_TTL_MS + 1);
  }

  /** Someone follows the lite news (a page on the push hub's lite topic). */
  get followed(): boolean {
    return this.invalidated.size > 0;
  }

  /** Called at every invalidation: what the snapshot shows changed (the push hub's lite topic); returns the unsubscribe. */
  onInvalidate(fn: () => void): () => void {
    return this.invalidated.add(fn);
  }
}
