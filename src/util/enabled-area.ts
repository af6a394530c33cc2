import { LazyPart } from './lazy-part.js';

// An area of the station that loads when its settings first say `enabled` (at boot, or the
// moment they change) or when it is first used, and never before: radio control and the rotator.
// The part's start() runs once, right after its load; stop() stops it if it was ever loaded.

/** What the area reads of its settings store. */
export interface EnabledSettings {
  get(): { enabled: boolean };
  onChange(fn: (s: { enabled: boolean }) => void): () => void;
}

export class EnabledArea<T extends { start(): Promise<void>; stop(): Promise<void> }> {
  private readonly part: LazyPart<T>;
  private unsubscribe: () => void = () => {};
  private stopped = false;

  constructor(
    what: string,
    private readonly settings: EnabledSettings,
    load: () => Promise<T>,
  ) {
    this.part = new LazyPart(what, async () => {
      const p = await load();
      await p.start();
      return p;
    });
  }

  async start(): Promise<void> {
    this.unsubscribe = this.settings.onChange((s) => {
      if (s.enabled && !this.stopped) void this.get().catch(() => {});
    });
    if (this.settings.get().enabled) await this.get();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await (await this.part.settled())?.stop();
  }

  /** The part, loaded and started on first use. */
  get(): Promise<T> {
    return this.part.get();
  }

  /** The part if loaded; null before. */
  get current(): T | null {
    return this.part.current;
  }
}
