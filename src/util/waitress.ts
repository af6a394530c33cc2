import { systemClock, type Clock, type Timer } from './clock.js';
import { stallAwareTimeout } from './stall-aware-timeout.js';

// "Wait for the message that matches, or time out" (zigbee-herdsman's waitress): a protocol
// layer offers every incoming message; the oldest waiter whose matcher accepts it gets it.

export class TimeoutError extends Error {
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what}: no answer within ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

interface Waiter<T> {
  match: (msg: T) => boolean;
  resolve: (msg: T) => void;
  reject: (err: Error) => void;
  timer: Timer;
}

export class Waitress<T> {
  private waiters: Waiter<T>[] = [];
  constructor(private readonly clock: Clock = systemClock) {}

  /** Resolves with the first offered message match() accepts; rejects with TimeoutError after ms. */
  wait(match: (msg: T) => boolean, ms: number, what: string): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const w: Waiter<T> = {
        match,
        resolve,
        reject,
        // A late timer means our loop stalled, not that no answer came: see stall-aware-timeout.ts.
        timer: stallAwareTimeout(this.clock, ms, () => {
          this.remove(w);
          reject(new TimeoutError(what, ms));
        }),
      };
      this.waiters.push(w);
    });
  }

  /** Offers a message; true when a waiter took it. */
  offer(msg: T): boolean {
    for (const w of this.waiters) {
      if (!w.match(msg)) continue;
      this.remove(w);
      w.timer.cancel();
      w.resolve(msg);
      return true;
    }
    return false;
  }

  /** Fails every waiter at once (the link closed). */
  rejectAll(err: Error): void {
    const all = this.waiters;
    this.waiters = [];
    for (const w of all) {
      w.timer.cancel();
      w.reject(err);
    }
  }

  get size(): number {
    return this.waiters.length;
  }

  private remove(w: Waiter<T>): void {
    const i = this.waiters.indexOf(w);
    if (i >= 0) this.waiters.splice(i, 1);
  }
}
