// Wrong operator tokens, counted per client address: after `maxFailures` inside `windowMs` the
// address is refused until the window that began with its first failure has passed. The table is
// bounded (the oldest address goes first), so a flood of addresses cannot grow it.

export interface AttemptLimiterOptions {
  maxFailures?: number;
  windowMs?: number;
  maxKeys?: number;
}

interface Entry {
  since: number;
  failures: number;
}

export class AttemptLimiter {
  private readonly entries = new Map<string, Entry>();
  readonly maxFailures: number;
  readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(opts: AttemptLimiterOptions = {}) {
    this.maxFailures = opts.maxFailures ?? 5;
    this.windowMs = opts.windowMs ?? 60_000;
    this.maxKeys = opts.maxKeys ?? 256;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string, now: number): number {
    const e = this.entries.get(key);
    if (!e) return 0;
    const left = e.since + this.windowMs - now;
    if (left <= 0) {
      this.entries.delete(key);
      return 0;
    }
    return e.failures >= this.maxFailures ? left : 0;
  }

  /** Counts a failure; returns how many attempts the key has left in its window. */
  fail(key: string, now: number): number {
    let e = this.entries.get(key);
    if (!e || e.since + this.windowMs <= now) {
      this.entries.delete(key);
      if (this.entries.size >= this.maxKeys) this.entries.delete(this.entries.keys().next().value as string);
      e = { since: now, failures: 0 };
      this.entries.set(key, e);
    }
    e.failures++;
    return Math.max(0, this.maxFailures - e.failures);
  }

  succeed(key: string): void {
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}
