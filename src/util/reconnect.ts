import type { Clock, Timer } from './clock.js';
import { backoffMs } from './queue.js';

// Reconnect-with-backoff, once for every outside link (the rig's line, KISS over TCP, the Wi-Fi
// session, the Dire Wolf sidecar, APRS-IS): retries on the injected clock so tests can run a
// whole outage in a second, capped exponential delays, one retry pending at a time.

export interface ReconnectTiming {
  /** First retry after base_ms, doubling to max_ms. */
  base_ms: number;
  max_ms: number;
  /**
   * A link that stayed up at least this long starts the next outage from base_ms again; a link
   * that flaps keeps backing off. Without it, any up() starts over (the line opened: it works).
   */
  stable_ms?: number;
}

export interface ReconnectOptions {
  /** Spreads each delay by up to +fraction (many clients losing the same server at once). */
  spread?: { fraction: number; random: () => number };
}

export class Reconnect {
  private attempt = 0;
  private timer: Timer | null = null;
  private dueAt: number | null = null;
  private upAt: number | null = null;

  constructor(
    private readonly clock: Clock,
    private readonly timing: ReconnectTiming,
    private readonly o: ReconnectOptions = {},
  ) {}

  /** The link is up: with stable_ms the backoff resets only once it has lasted that long. */
  up(): void {
    if (this.timing.stable_ms === undefined) this.attempt = 0;
    else this.upAt = this.clock.now();
  }

  /** Starts over from base_ms (the operator asked to connect, or a fresh start). */
  reset(): void {
    this.attempt = 0;
    this.upAt = null;
  }

  /**
   * Runs retry after the next backoff delay; answers the delay in ms, or null when a retry is
   * already pending (one outage, one timer). The retry schedules again itself if it fails.
   */
  schedule(retry: () => void): number | null {
    if (this.timer) return null;
    const stable = this.timing.stable_ms;
    if (stable !== undefined && this.upAt !== null && this.clock.now() - this.upAt >= stable) this.attempt = 0;
    this.upAt = null;
    const base = backoffMs(this.attempt++, this.timing.base_ms, this.timing.max_ms);
    const s = this.o.spread;
    const ms = s ? Math.round(base * (1 + s.fraction * s.random())) : base;
    this.dueAt = this.clock.now() + ms;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      this.dueAt = null;
      retry();
    }, ms);
    return ms;
  }

  cancel(): void {
    this.timer?.cancel();
    this.timer = null;
    this.dueAt = null;
  }

  get pending(): boolean {
    return this.timer !== null;
  }

  /** When the pending retry runs (epoch ms on the clock), for status; null when none is pending. */
  get nextAt(): number | null {
    return this.dueAt;
  }

  /** Retries scheduled since the last reset. */
  get attempts(): number {
    return this.attempt;
  }
}
