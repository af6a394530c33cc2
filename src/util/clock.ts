// The clock is injected everywhere so tests can fix "now".
export interface Clock {
  now(): number; // epoch milliseconds
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests can set and advance. */
export class FixedClock implements Clock {
  constructor(private t: number) {}
  now(): number {
    return this.t;
  }
  set(t: number | string | Date): void {
    this.t = typeof t === 'number' ? t : new Date(t).getTime();
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
