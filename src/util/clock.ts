// The clock is injected everywhere so tests can fix "now", and its timers with it: the radio's
// poll loop, auto-track and the session's AOS/LOS timers run on the clock they are given, so a
// test can run a whole pass in a second.
export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): number; // epoch milliseconds
  /** Calls fn once, ms from now on this clock. */
  setTimeout(fn: () => void, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const h = setTimeout(fn, Math.max(0, ms));
    return { cancel: () => clearTimeout(h) };
  },
};

interface Pending {
  due: number;
  seq: number;
  fn: () => void;
  live: boolean;
}

/** A clock tests set and advance; its timers fire, in time order, as time moves past them. */
export class FixedClock implements Clock {
  private timers: Pending[] = [];
  private seq = 0;
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): Timer {
    const p: Pending = { due: this.t + Math.max(0, ms), seq: this.seq++, fn, live: true };
    this.timers.push(p);
    return {
      cancel: () => {
        p.live = false;
      },
    };
  }
  /** Timers still waiting (cancelled ones excluded). */
  get pendingTimers(): number {
    return this.timers.filter((p) => p.live).length;
  }
  set(t: number | string | Date): void {
    const to = typeof t === 'number' ? t : new Date(t).getTime();
    if (to > this.t) this.advance(to - this.t);
    else this.t = to; // moving back fires nothing
  }
  /** Moves time forward, firing each due timer at its own instant (a timer may arm another). */
  advance(ms: number): void {
    const end = this.t + ms;
    for (let fired = 0; ; fired++) {
      const next = this.nextDue(end);
      if (!next) break;
      this.t = next.due;
      next.live = false;
      next.fn();
      // A long jump fires a re-arming timer many times (a once-a-second tick over days): the
      // spent ones go now and then, so each search looks at the timers still waiting only.
      if (fired % 64 === 63) this.timers = this.timers.filter((p) => p.live);
    }
    this.timers = this.timers.filter((p) => p.live);
    this.t = end;
  }
  /**
   * advance() in steps, yielding to the event loop after each so async work a timer started
   * (a serial exchange, a file write) runs between them: a whole pass in a second of real time.
   */
  async run(ms: number, stepMs = 1000, realPauseMs = 0): Promise<void> {
    for (let left = ms; left > 0; left -= stepMs) {
      this.advance(Math.min(stepMs, left));
      await new Promise((r) => setTimeout(r, realPauseMs));
    }
  }
  private nextDue(end: number): Pending | null {
    let best: Pending | null = null;
    for (const p of this.timers) {
      if (!p.live || p.due > end) continue;
      if (!best || p.due < best.due || (p.due === best.due && p.seq < best.seq)) best = p;
    }
    return best;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
