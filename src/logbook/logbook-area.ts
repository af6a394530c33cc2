// The logbook as the app holds it: the settings (always there, a small JSON store) and the
// logbook itself (journal, push queue, ADIF writer, Cloudlog driver), loaded on first use, not
// at boot. One exception: with the push on, a previous run may have left QSOs pending, so the
// area loads right after start to resume them (without holding the boot up). With the push off
// and nobody logging, none of the logbook's modules is ever read.
import type { JsonStore } from '../store/json-store.js';
import { LazyPart } from '../util/lazy-part.js';
import { errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import type { LogbookService, LogbookServiceDeps } from './logbook-service.js';
import type { LogbookSettings, LogbookSettingsSchema } from './schemas.js';

const log = logger('logbook');
/** A load started in the background that failed: said, and tried again on the next use. */
const loadFailed = (err: unknown) => log.warn(`the logbook did not load: ${errorMessage(err)}`);

export type LogbookAreaDeps = Omit<LogbookServiceDeps, 'settings'> & { store: JsonStore<typeof LogbookSettingsSchema> };

export class LogbookArea {
  readonly name = 'logbook';
  private readonly part: LazyPart<LogbookService>;
  private unsubscribe: () => void = () => {};
  private seen: LogbookSettings;
  private stopped = false;

  constructor(private readonly d: LogbookAreaDeps) {
    this.seen = d.store.get();
    this.part = new LazyPart('the logbook', async () => {
      const { LogbookService } = await import('./logbook-service.js');
      return LogbookService.open({ ...d, settings: () => d.store.get() });
    });
  }

  start(): void {
    this.unsubscribe = this.d.store.onChange((next) => {
      const prev = this.seen;
      this.seen = next;
      if (this.stopped) return;
      // Turning the push on loads the logbook (its pending QSOs go out); a loaded one follows every change.
      if (next.cloudlog_enabled || this.part.current) void this.get().then((l) => l.settingsChanged(prev, next)).catch(loadFailed);
    });
    if (this.seen.cloudlog_enabled) void this.get().catch(loadFailed);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe();
    await (await this.part.settled())?.stop();
  }

  /** The logbook, loaded on first use. */
  get(): Promise<LogbookService> {
    return this.part.get();
  }

  /** Whether the logbook has been loaded. */
  get loaded(): boolean {
    return this.part.current !== null;
  }

  settings(): LogbookSettings {
    return this.d.store.get();
  }
}
