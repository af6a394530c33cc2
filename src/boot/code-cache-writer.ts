import { backgroundSlicer } from '../util/loop-slices.js';
import { logger } from '../util/logger.js';
import type { CodeCacheFlush, CodeCacheStatus } from './code-cache-status.js';

const log = logger('main');

const envMs = (name: string, def: number): number => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 100 ? v : def;
};

/**
 * When the scripts compiled from source get their cache written: the boot's functions have all
 * been compiled by then, and the first requests are over. A lazy area loaded later is written at
 * the next look. CODE_CACHE_WRITE_MS changes the period (tests).
 */
const WRITE_MS = envMs('CODE_CACHE_WRITE_MS', 30_000);
/**
 * When the caches are written anew with what the run has compiled since (the request paths, the
 * areas in use), and ahead for the chunks no area has loaded yet: 10 minutes after the start, then
 * hourly, and at a stop. A station switched off at the wall never stops cleanly, so the stop alone
 * is not enough. CODE_CACHE_GROWN_MS (tests).
 */
const GROWN_FIRST_MS = envMs('CODE_CACHE_GROWN_MS', 10 * 60_000);
const GROWN_EVERY_MS = Math.max(GROWN_FIRST_MS, 60 * 60_000);
const GROWN = 'written anew with what this run compiled';
const AHEAD = 'written ahead for the areas not loaded yet';

/**
 * Writes the V8 code cache of the server's scripts (src/boot/code-cache-loader.ts) while it
 * serves: one script a quiet turn (main.cjs's alone is ~3 ms of CPU here, a loop block of ~40 ms at
 * a tenth of a core), and everything at once at a stop, after the listener has closed.
 */
export class CodeCacheWriter {
  private busy = false;
  private stopped = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(private readonly cache: CodeCacheStatus) {}

  start(): void {
    this.timers.push(setInterval(() => void this.sliced(() => this.pendingJobs(), 'written'), WRITE_MS).unref());
    const later = async () => {
      await this.sliced(() => this.cache.grown(), GROWN);
      await this.sliced(() => this.cache.ahead(), AHEAD);
    };
    this.timers.push(setTimeout(() => {
      void later();
      this.timers.push(setInterval(() => void later(), GROWN_EVERY_MS).unref());
    }, GROWN_FIRST_MS).unref());
  }

  /**
   * At a stop: every script whose cache grew, at once (one never written has none, so it grew),
   * then the chunks no area has loaded yet (a first stop after an install or upgrade: ~60 ms of CPU
   * here for all of dist/chunks); nothing is written after.
   */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.report(this.cache.grown().map((job) => job()), 'written at the stop');
    this.report(this.cache.ahead().map((job) => job()), AHEAD);
    const c = this.cache;
    log.info(`code cache at the stop: ${c.fromCache} scripts read from it this run, ${c.compiled} compiled${c.rejected ? ` (${c.rejected} caches rejected)` : ''}`);
  }

  private pendingJobs(): Array<() => CodeCacheFlush> {
    return Array.from({ length: this.cache.pending() }, () => () => this.cache.flush(1));
  }

  private async sliced(jobs: () => Array<() => CodeCacheFlush>, what: string): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    const results: CodeCacheFlush[] = [];
    try {
      for (const job of jobs()) {
        await backgroundSlicer.yieldTo();
        if (this.stopped) return; // the stop writes the rest
        results.push(job());
      }
      this.report(results, what);
    } finally {
      this.busy = false;
    }
  }

  private report(results: CodeCacheFlush[], what: string): void {
    const written = results.reduce((n, r) => n + r.written, 0);
    const bytes = results.reduce((n, r) => n + r.bytes, 0);
    const error = results.find((r) => r.error)?.error;
    if (written) log.info(`code cache: ${written} scripts ${what} (${Math.round(bytes / 1024)} KiB) to ${this.cache.dir}`);
    if (error) log.warn(`code cache not written to ${this.cache.dir}: ${error} (the next start compiles from source)`);
  }
}
