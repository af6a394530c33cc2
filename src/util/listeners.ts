import type { Logger } from './logger.js';

/** Change listeners: a failing listener is logged, never fatal, and never stops the others. */
export class Listeners<T> {
  private readonly set = new Set<(value: T) => void>();

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  /** Returns the unsubscribe function. */
  add(fn: (value: T) => void): () => void {
    this.set.add(fn);
    return () => this.set.delete(fn);
  }

  get size(): number {
    return this.set.size;
  }

  /** emit, then forget every listener: for events that happen once (closed, lost). */
  emitOnce(value: T): void {
    const fns = [...this.set];
    this.set.clear();
    for (const fn of fns) this.call(fn, value);
  }

  emit(value: T): void {
    for (const fn of this.set) this.call(fn, value);
  }

  /**
   * emit with `turn` awaited before each listener: for a value whose listeners each do a few ms of
   * work (a 16k catalogue), so they do not add up inside one turn of the event loop.
   */
  async emitSpaced(value: T, turn: () => Promise<void>): Promise<void> {
    for (const fn of [...this.set]) {
      await turn();
      if (this.set.has(fn)) this.call(fn, value);
    }
  }

  private call(fn: (value: T) => void, value: T): void {
    try {
      fn(value);
    } catch (err) {
      this.log.error(`${this.what} listener failed`, err);
    }
  }
}

/**
 * Something that happens at most once and is remembered (a file's first failure): the first
 * value is kept and told to every listener, and one added afterwards hears it at once (on a
 * microtask, so a caller never runs its listener inside its own call).
 */
export class Latch<T> {
  private fired: { value: T } | null = null;
  private readonly fns: Listeners<T>;

  constructor(log: Logger, what: string) {
    this.fns = new Listeners(log, what);
  }

  /** The value, once it happened; null before. */
  get value(): T | null {
    return this.fired ? this.fired.value : null;
  }

  /** Fires with value if it has not fired yet; false when it already had. */
  fire(value: T): boolean {
    if (this.fired) return false;
    this.fired = { value };
    this.fns.emitOnce(value);
    return true;
  }

  /** Returns the unsubscribe. */
  on(fn: (value: T) => void): () => void {
    const f = this.fired;
    if (!f) return this.fns.add(fn);
    queueMicrotask(() => fn(f.value));
    return () => {};
  }
}

/** A subscription: add fn, get its unsubscribe back. */
export type Subscribe = (fn: () => void) => () => void;

/** Subscribes fn to every source (news of one thing from several places); returns one unsubscribe for all. */
export function listenAll(fn: () => void, sources: readonly Subscribe[]): () => void {
  const offs = sources.map((on) => on(fn));
  return () => {
    for (const off of offs) off();
  };
}
