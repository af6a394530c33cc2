// The logbook as the app holds it: the settings (always there, a small JSON store) and the
// logbook itself (journal, push queue, ADIF writer, Cloudlog driver), loaded on first use, not
// at boot. One exception: with the push on, a previous run may have left QSOs pending, so the
// area loads right after start to resume them (without holding the boot up). With the push off
// and nobody logging, none of the logbook's modules is ever read.
import type { JsonStore } from '../store/json-store.js';
import { EnabledArea } from '../util/enabled-area.js';
import type { LogbookService, LogbookServiceDeps } from './logbook-service.js';
import type { LogbookSettings, LogbookSettingsSchema } from './schemas.js';

export type LogbookAreaDeps = Omit<LogbookServiceDeps, 'settings'> & { store: JsonStore<typeof LogbookSettingsSchema> };

export class LogbookArea extends EnabledArea<LogbookService, LogbookSettings> {
  constructor(d: LogbookAreaDeps) {
    super({
      name: 'logbook',
      what: 'the logbook',
      settings: d.store,
      // Turning the push on loads the logbook (its pending QSOs go out); a loaded one follows every change.
      enabled: (s) => s.cloudlog_enabled,
      boot: 'background',
      load: async () => (await import('./logbook-service.js')).LogbookService.open({ ...d, settings: () => d.store.get(), changed: () => this.updates.emit() }),
      follow: (book, prev, next) => book.settingsChanged(prev, next),
    });
  }
}
