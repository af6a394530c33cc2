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

  private call(fn: (value: T) => void, value: T): void {
    try {
      fn(value);
    } catch (err) {
      this.log.error(`${this.what} listener failed`, err);
    }
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
