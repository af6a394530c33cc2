import { logger } from './logger.js';

// A part of the station loaded on first use (radio control, the LAN transport, the APRS
// station): its modules, their tables and the Node built-ins they need stay out of memory until
// the operator turns the area on. The build splits each lazily imported module into its own
// chunk of dist/ (build.mjs), so an area never enabled is never even read from disk.

const log = logger('load');

export class LazyPart<T> {
  private pending: Promise<T> | null = null;
  private value: T | null = null;

  constructor(
    /** What the log calls it once loaded. */
    readonly what: string,
    private readonly make: () => Promise<T>,
  ) {}

  /** The part if it has been loaded; null before. */
  get current(): T | null {
    return this.value;
  }

  /** Whether the part was asked for: loaded, or its load under way. */
  get asked(): boolean {
    return this.pending !== null;
  }

  /** Loads the part once (concurrent callers share the load); a failed load is tried again next time. */
  get(): Promise<T> {
    this.pending ??= this.make().then(
      (v) => {
        this.value = v;
        log.info(`${this.what} loaded`);
        return v;
      },
      (err) => {
        this.pending = null;
        throw err;
      },
    );
    return this.pending;
  }

  /** The part once a load under way has settled; null when it was never asked for or failed. */
  async settled(): Promise<T | null> {
    if (!this.pending) return null;
    return this.pending.catch(() => null);
  }
}
