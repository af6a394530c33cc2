import { LazyPart } from './lazy-part.js';
import { errorMessage } from './errors.js';
import { logger } from './logger.js';
import { Listeners, listenAll } from './listeners.js';

// An area of the station whose service loads when its settings first ask for it (at boot, or the
// moment they change) or when it is first used, and never before: radio control, the rotator, the
// Hamlib servers, the logbook. Each area extends this class with the answers it gives while its
// service is not loaded (the resting ones). The service's start() runs once, right after its load;
// stop() stops it if it was ever loaded. After stop() no settings change loads anything.

const log = logger('load');

/** The area's settings store, as the area reads it (a JsonStore implements it). */
export interface AreaSettings<S> {
  get(): S;
  onChange(fn: (s: S) => void): () => void;
}

/** The loaded service: started once after its load, stopped with the area. */
export interface AreaService {
  start?(): void | Promise<void>;
  stop(): Promise<void>;
}

export interface EnabledAreaOptions<T extends AreaService, S> {
  /** The area's name as a lifecycle part ('radio'). */
  name: string;
  /** What the log calls the service once loaded ('radio control'). */
  what: string;
  settings: AreaSettings<S>;
  /** Whether these settings ask for the service: loaded at boot, or when a change says so. */
  enabled(s: S): boolean;
  /** Imports and builds the service (a dynamic import: its code stays out of memory until then). */
  load(): Promise<T>;
  /**
   * A service its settings ask for at boot is loaded before start() returns ('wait', the default),
   * or while the boot goes on ('background': the logbook resumes its pending pushes, /health does
   * not wait for it).
   */
  boot?: 'wait' | 'background';
  /** Tells a loaded service of every settings change (the logbook starts or stops its push queue). */
  follow?(service: T, prev: S, next: S): void | Promise<void>;
}

export class EnabledArea<T extends AreaService, S> {
  readonly name: string;
  /** The loaded service's own news (the area hands `() => this.updates.emit()` to it). */
  protected readonly updates: Listeners<void>;
  private readonly part: LazyPart<T>;
  private unsubscribe: () => void = () => {};
  private stopped = false;

  constructor(private readonly area: EnabledAreaOptions<T, S>) {
    this.name = area.name;
    this.updates = new Listeners(logger(area.name), `${area.what} update`);
    this.part = new LazyPart(area.what, async () => {
      const service = await area.load();
      await service.start?.();
      return service;
    });
  }

  async start(): Promise<void> {
    let seen = this.area.settings.get();
    this.unsubscribe = this.area.settings.onChange((next) => {
      const prev = seen;
      seen = next;
      // Settings that ask for the service load it; one loaded (or on its way) follows every change.
      if (!this.stopped && (this.area.enabled(next) || this.part.asked)) void this.follow(prev, next);
    });
    if (!this.area.enabled(seen)) return;
    if (this.area.boot === 'background') void this.engine().catch((err) => this.loadFailed(err));
    else await this.engine();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await (await this.part.settled())?.stop();
  }

  /** The service, loaded (and started) on first use. */
  engine(): Promise<T> {
    return this.part.get();
  }

  /** The service if loaded; null before. */
  get current(): T | null {
    return this.part.current;
  }

  /** Whether the service has been loaded. */
  get loaded(): boolean {
    return this.part.current !== null;
  }

  /**
   * Anything the area's state shows changed, loaded or not: its settings, or what the service
   * announces (the push hub's topics follow this). Returns the unsubscribe.
   */
  onUpdate(fn: () => void): () => void {
    return listenAll(fn, [(f) => this.updates.add(f), (f) => this.area.settings.onChange(() => f())]);
  }

  /** The area's settings: always there (a small JSON store), loaded or not. */
  settings(): S {
    return this.area.settings.get();
  }

  private async follow(prev: S, next: S): Promise<void> {
    let service: T;
    try {
      service = await this.engine();
    } catch (err) {
      return this.loadFailed(err);
    }
    try {
      await this.area.follow?.(service, prev, next);
    } catch (err) {
      log.warn(`${this.area.what} did not take its new settings: ${errorMessage(err)}`);
    }
  }

  /** A load nobody waits on failed: said, and tried again on the next use or change. */
  private loadFailed(err: unknown): void {
    log.warn(`${this.area.what} did not load: ${errorMessage(err)}`);
  }
}
