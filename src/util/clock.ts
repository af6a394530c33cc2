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

const DAY_MS = 86_400_000;
/** The last instant toISOString writes with a four-digit year: 9999-12-31T23:59:59.999Z. */
const ISO_FAST_MAX_MS = 253_402_300_799_999;
const D0 = 48; // '0'
// The civil date of the day last formatted: a snapshot's 140-odd texts fall on one or two days.
let isoDay = Number.NaN;
let isoY = 0;
let isoM = 0;
let isoD = 0;

/** The proleptic Gregorian date of a day counted from 1970-01-01 (H. Hinnant's civil_from_days). */
function setIsoDay(day: number): void {
  const z = day + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  isoD = doy - Math.floor((153 * mp + 2) / 5) + 1;
  isoM = mp < 10 ? mp + 3 : mp - 9;
  isoY = yoe + era * 400 + (isoM <= 2 ? 1 : 0);
  isoDay = day;
}

/**
 * `new Date(ms).toISOString()`, the same text, ~5x cheaper (issue 36): a lite snapshot writes
 * ~140 of these and /passes three per item, and V8's builtin makes a Date and formats through
 * the runtime each time (~0.8 us here, ~1.3 us before it is optimised). The text is made by
 * one String.fromCharCode, so it is flat (a concatenation would be a tree of parts V8 keeps as
 * such: docs/decisions/latency.md). Outside 1970-9999, or a fraction of a millisecond, the
 * builtin answers (its own rules, its RangeError for an invalid time).
 */
export function iso(ms: number): string {
  if (!(ms >= 0 && ms <= ISO_FAST_MAX_MS) || ms !== Math.floor(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== isoDay) setIsoDay(day);
  let r = ms - day * DAY_MS;
  const h = Math.floor(r / 3_600_000);
  r -= h * 3_600_000;
  const mi = Math.floor(r / 60_000);
  r -= mi * 60_000;
  const s = Math.floor(r / 1000);
  const f = r - s * 1000;
  const y = isoY;
  return String.fromCharCode(
    D0 + Math.floor(y / 1000), D0 + (Math.floor(y / 100) % 10), D0 + (Math.floor(y / 10) % 10), D0 + (y % 10), 45,
    D0 + Math.floor(isoM / 10), D0 + (isoM % 10), 45, D0 + Math.floor(isoD / 10), D0 + (isoD % 10), 84,
    D0 + Math.floor(h / 10), D0 + (h % 10), 58, D0 + Math.floor(mi / 10), D0 + (mi % 10), 58,
    D0 + Math.floor(s / 10), D0 + (s % 10), 46, D0 + Math.floor(f / 100), D0 + (Math.floor(f / 10) % 10), D0 + (f % 10), 90,
  );
}
