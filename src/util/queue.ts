// One at a time: a bus that carries one command in flight (CI-V, KISS) runs its jobs through
// this, and so does every single writer (the APRS log's file, the systemd notify messages).
// Bounded, so a stalled device cannot grow memory; clear() fails what waits (unplug).

export class QueueFullError extends Error {
  constructor(max: number) {
    super(`busy: ${max} commands already waiting`);
    this.name = 'QueueFullError';
  }
}

interface Job {
  run: () => Promise<unknown>;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

export class OneAtATime {
  private jobs: Job[] = [];
  private running = false;
  private idleFns: Array<() => void> = [];
  constructor(private readonly maxWaiting = 32) {}

  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.jobs.length >= this.maxWaiting) return Promise.reject(new QueueFullError(this.maxWaiting));
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({ run: fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Runs fn next, ahead of every waiting job (an emergency unkey); never refused for a full queue. */
  runFirst<T>(fn: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.unshift({ run: fn, resolve: resolve as (v: unknown) => void, reject });
      if (!this.running) void this.drain();
    });
  }

  /** Rejects every job not yet started; the one running finishes on its own. */
  clear(err: Error): void {
    const waiting = this.jobs;
    this.jobs = [];
    for (const j of waiting) j.reject(err);
  }

  /** Resolves once nothing runs and nothing waits (a flush). */
  idle(): Promise<void> {
    if (!this.running && !this.jobs.length) return Promise.resolve();
    return new Promise((resolve) => this.idleFns.push(resolve));
  }

  get busy(): boolean {
    return this.running;
  }
  get waiting(): number {
    return this.jobs.length;
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.jobs.length) {
      const j = this.jobs.shift()!;
      try {
        j.resolve(await j.run());
      } catch (e) {
        j.reject(e);
      }
    }
    this.running = false;
    const idle = this.idleFns;
    this.idleFns = [];
    for (const fn of idle) fn();
  }
}

/** Capped exponential backoff: base, 2·base, 4·base … up to max. */
export const backoffMs = (attempt: number, baseMs: number, maxMs: number): number => Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
