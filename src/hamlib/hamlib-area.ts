import type { HamlibService, HamlibServiceDeps } from './hamlib-service.js';
import { restingHamlibRuntime, type HamlibRuntime } from './schemas.js';
import type { HamlibSettings } from './settings.js';
import { EnabledArea } from '../util/enabled-area.js';
import { networkPttBlock, type TransmitRules } from './ptt-rule.js';

// The Hamlib servers as the station sees them. The service, the line server, the protocol
// tables and node:net load when either server is first enabled, never while both are off;
// switching them off again closes the listeners (the loaded code stays, as for every area).
// A network PTT obeys the station's transmit rules (ptt-rule.ts), read from the APRS side and the
// operator lock.

export type HamlibAreaDeps = Omit<HamlibServiceDeps, 'pttBlock'> & TransmitRules;

export class HamlibArea extends EnabledArea<HamlibService, HamlibSettings> {
  constructor(d: HamlibAreaDeps) {
    super({
      name: 'hamlib',
      what: 'the Hamlib servers',
      settings: d.store,
      enabled: (s) => s.rigctld_enabled || s.rotctld_enabled,
      load: async () => new (await import('./hamlib-service.js')).HamlibService({ ...d, pttBlock: () => networkPttBlock(d), changed: () => this.updates.emit() }),
    });
  }

  runtime(): HamlibRuntime {
    return this.current?.runtime() ?? restingHamlibRuntime();
  }

  /** The emergency stop's share: rigctld clients dropped (external control ends). Loads nothing. */
  emergencyStop(): void {
    this.current?.dropRigClients();
  }
}
