import type { HamlibService, HamlibServiceDeps } from './hamlib-service.js';
import { restingHamlibRuntime, type HamlibRuntime } from './schemas.js';
import type { HamlibSettings } from './settings.js';
import { EnabledArea } from '../util/enabled-area.js';

// The Hamlib servers as the station sees them. The service, the line server, the protocol
// tables and node:net load when either server is first enabled, never while both are off;
// switching them off again closes the listeners (the loaded code stays, as for every area).

export class HamlibArea {
  readonly name = 'hamlib';
  private readonly part: EnabledArea<HamlibService>;

  constructor(private readonly d: HamlibServiceDeps) {
    const enabled = (s: HamlibSettings) => ({ enabled: s.rigctld_enabled || s.rotctld_enabled });
    this.part = new EnabledArea(
      'the Hamlib servers',
      { get: () => enabled(d.store.get()), onChange: (fn) => d.store.onChange((s) => fn(enabled(s))) },
      async () => new (await import('./hamlib-service.js')).HamlibService(d),
    );
  }

  start(): Promise<void> {
    return this.part.start();
  }

  stop(): Promise<void> {
    return this.part.stop();
  }

  get loaded(): boolean {
    return this.part.current !== null;
  }

  /** The service once loaded (tests read the ports it got). */
  get current(): HamlibService | null {
    return this.part.current;
  }

  settings(): HamlibSettings {
    return this.d.store.get();
  }

  runtime(): HamlibRuntime {
    return this.part.current?.runtime() ?? restingHamlibRuntime();
  }

  /** The emergency stop's share: rigctld clients dropped (external control ends). Loads nothing. */
  emergencyStop(): void {
    this.part.current?.dropRigClients();
  }
}
