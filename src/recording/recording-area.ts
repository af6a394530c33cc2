import type { RecordingService, RecordingServiceDeps } from './recording-service.js';
import { restingRecordingRuntime, type RecordingRuntime } from './schemas.js';
import type { RecordingSettings } from './settings.js';
import type { AreaSettings } from '../util/enabled-area.js';
import { EnabledArea } from '../util/enabled-area.js';
import { AppError } from '../util/errors.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';

// Pass recording as the routes and the station see it. The recorder (capture, encoder, journal,
// library) loads when recording is first enabled, or when the recordings are first listed; never
// at boot while it is off, so a station that does not record holds none of it. Until then the
// runtime is the resting one and no recording can start.

export type RecordingAreaDeps = Omit<RecordingServiceDeps, 'settings' | 'changed' | 'updated'> & { store: AreaSettings<RecordingSettings> };

export class RecordingArea extends EnabledArea<RecordingService, RecordingSettings> {
  private readonly changed = new Listeners<void>(logger('recording'), 'recording state');

  constructor(d: RecordingAreaDeps) {
    super({
      name: 'recording',
      what: 'the recorder',
      settings: d.store,
      enabled: (s) => s.enabled,
      load: async () =>
        (await import('./recording-service.js')).RecordingService.open({
          ...d,
          settings: () => d.store.get(),
          changed: () => this.changed.emit(),
          updated: () => this.updates.emit(),
        }),
      follow: (service, prev, next) => service.settingsChanged(prev, next),
    });
  }

  /** Whether recording, which one, the source and level: the lite line and system state; returns the unsubscribe. */
  onChange(fn: () => void): () => void {
    return this.changed.add(fn);
  }

  runtime(): RecordingRuntime {
    return this.current?.runtime() ?? restingRecordingRuntime();
  }

  /** The logbook's fields for a QSO at that instant; null when nothing is being recorded (nothing loads). */
  mark(at_ms: number): { recording_id: string; recording_offset_s: number } | null {
    return this.current?.mark(at_ms) ?? null;
  }
  noteQso(q: { id: string; call: string; time_on: string; recording_id: string | null }): void {
    this.current?.noteQso(q);
  }

  async startByHand(sat_id: string | undefined): Promise<RecordingRuntime> {
    if (!this.settings().enabled) throw new AppError(409, 'recording_disabled', 'recording is off: turn it on in the recording settings (enabled: true)');
    return (await this.engine()).startByHand(sat_id);
  }
  /** Always answers; loads nothing when nothing is loaded (nothing can be recording). */
  async stopByHand(): Promise<RecordingRuntime> {
    return (await this.current?.stopByHand()) ?? this.runtime();
  }
}
