// The Cloudlog/Wavelog push queue: pending QSOs go out one at a time, oldest first, each answer
// persisted as the QSO's push state before the next push.
//   pushed (or a duplicate: the logger already has it)  → 'pushed'
//   rejected (bad key, wrong station, no API there)      → 'failed' with push_error, not retried;
//                                                          a refusal of the target itself (401,
//                                                          403, 404, a redirect, a bad URL) also
//                                                          pauses the queue until the settings
//                                                          change or a new QSO comes: the others
//                                                          would only be refused the same way
//   failed (timeout, refused connection, 5xx, 429)       → stays 'pending' with push_error, and the
//                                                          queue waits (capped exponential backoff,
//                                                          at least the logger's Retry-After)
// Exactly once as the logger sees it: a push whose answer was lost (kill -9, timeout) is pushed
// again, and the logger answers that second one as a duplicate, which counts as delivered.
// Idle it costs nothing: no timer while nothing is pending or while the push is off; a new QSO
// or a settings change kicks it.
import type { Clock, Timer } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import type { PushResult } from './cloudlog-client.js';
import type { PushState, QsoRecord } from './schemas.js';

export interface Backoff {
  /** Wait after the first transient failure. */
  firstMs: number;
  /** The longest wait between tries. */
  maxMs: number;
  /** The longest Retry-After honoured (a logger asking for a day is retried sooner). */
  retryAfterCapMs: number;
}

export const DEFAULT_BACKOFF: Backoff = { firstMs: 5_000, maxMs: 5 * 60_000, retryAfterCapMs: 60 * 60_000 };

/** The wait before try n+1 after n transient failures in a row (pure). */
export function backoffMs(failures: number, retryAfterMs: number | null, b: Backoff): number {
  const exp = Math.min(b.maxMs, b.firstMs * 2 ** Math.max(0, failures - 1));
  return retryAfterMs === null ? exp : Math.max(exp, Math.min(retryAfterMs, b.retryAfterCapMs));
}

/** A refusal of the logger's address or credentials rather than of this QSO (pure). */
export function refusesTarget(r: PushResult): boolean {
  if (r.kind !== 'rejected') return false;
  return r.status === null || r.status === 401 || r.status === 403 || r.status === 404 || (r.status >= 300 && r.status < 400);
}

export interface PushQueueDeps {
  clock: Clock;
  /** Whether the push is on (settings); off: the queue does nothing and arms no timer. */
  enabled: () => boolean;
  /** The oldest pending QSO, or null. */
  next: () => QsoRecord | null;
  /** One push (the driver bound to the current settings); never throws. */
  push: (q: QsoRecord, signal: AbortSignal) => Promise<PushResult>;
  /** Persists a push state change (the journal); may reject (a full disk). */
  mark: (id: string, state: PushState, error: string | null) => Promise<void>;
  backoff?: Backoff;
  log: Logger;
}

export interface PushQueueStatus {
  running: boolean;
  /** When the next try after a transient failure is due (ISO), or null. */
  retry_at: string | null;
  /** Transient failures in a row. */
  failures: number;
}

export class PushQueue {
  private running = false;
  private stopped = false;
  private timer: Timer | null = null;
  private retryAt: number | null = null;
  private failures = 0;
  private inFlight: AbortController | null = null;
  private loop: Promise<void> = Promise.resolve();
  private readonly backoff: Backoff;

  constructor(private readonly d: PushQueueDeps) {
    this.backoff = d.backoff ?? DEFAULT_BACKOFF;
  }

  get status(): PushQueueStatus {
    return { running: this.running, retry_at: this.retryAt === null ? null : new Date(this.retryAt).toISOString(), failures: this.failures };
  }

  /** Whether a retry timer is armed (the idle test: none while nothing is pending). */
  get timerArmed(): boolean {
    return this.timer !== null;
  }

  /** Something may be pending: push now unless a push runs or a backoff wait is under way. */
  kick(): void {
    if (this.stopped || this.running || this.timer) return;
    this.start();
  }

  /** The target changed (settings): a backoff wait is cut short and the queue tries now. */
  retryNow(): void {
    if (this.stopped) return;
    this.clearTimer();
    this.failures = 0;
    if (!this.running) this.start();
  }

  /** Settles the queue (a push under way is aborted and stays pending); no timer remains. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimer();
    this.inFlight?.abort();
    await this.loop;
  }

  /** Resolves when the queue has nothing under way (tests and shutdown). */
  idle(): Promise<void> {
    return this.loop;
  }

  private start(): void {
    this.running = true;
    this.loop = this.run();
  }

  private async run(): Promise<void> {
    try {
      await this.pushAll();
    } finally {
      // Synchronously at the loop's end, so a kick() right after sees it idle and starts anew.
      this.running = false;
    }
  }

  private async pushAll(): Promise<void> {
    for (;;) {
      if (this.stopped || !this.d.enabled()) return;
      const q = this.d.next();
      if (!q) {
        this.failures = 0;
        return;
      }
      const ctl = new AbortController();
      this.inFlight = ctl;
      const r = await this.d.push(q, ctl.signal);
      this.inFlight = null;
      if (this.stopped) return; // aborted by stop(): it stays pending for the next start
      try {
        if (r.kind === 'pushed') {
          this.failures = 0;
          await this.d.mark(q.id, 'pushed', null);
          continue;
        }
        if (r.kind === 'rejected') {
          this.d.log.warn(`logbook: the logger refused ${q.call} (${q.id}): ${r.message}`);
          await this.d.mark(q.id, 'failed', r.message);
          if (refusesTarget(r)) return;
          continue;
        }
        this.failures++;
        if (q.push_error !== r.message) await this.d.mark(q.id, 'pending', r.message);
        this.wait(backoffMs(this.failures, r.retryAfterMs, this.backoff));
        return;
      } catch (err) {
        // The state could not be written (a full disk): wait as for a transient failure; a second
        // push of what the logger already has is answered as a duplicate.
        this.failures++;
        this.d.log.warn(`logbook: push state of ${q.id} not saved (${(err as Error).message}); retrying later`);
        this.wait(backoffMs(this.failures, null, this.backoff));
        return;
      }
    }
  }

  private wait(ms: number): void {
    this.retryAt = this.d.clock.now() + ms;
    this.timer = this.d.clock.setTimeout(() => {
      this.timer = null;
      this.retryAt = null;
      if (!this.running) this.start();
    }, ms);
  }

  private clearTimer(): void {
    this.timer?.cancel();
    this.timer = null;
    this.retryAt = null;
  }
}
