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

  emit(value: T): void {
    for (const fn of this.set) {
      try {
        fn(value);
      } catch (err) {
        this.log.error(`${this.what} listener failed`, err);
      }
    }
  }
}
