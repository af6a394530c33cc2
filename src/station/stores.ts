import { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { DeveloperOverridesSchema, defaultDeveloperOverrides } from './developer-overrides.js';
import { GpsSettingsSchema, defaultGpsSettings } from './gps-settings.js';
import { PassFilterSchema, defaultPassFilter } from './pass-filter.js';

/** Every flat-file resource of the station, one JSON file each under DATA_DIR. */
export function createStores(dir: string, clock: Clock) {
  const now = () => clock.now();
  return {
    developerOverrides: new JsonStore({ dir, name: 'developer-overrides', schema: DeveloperOverridesSchema, defaults: defaultDeveloperOverrides, now }),
    gps: new JsonStore({ dir, name: 'gps-settings', schema: GpsSettingsSchema, defaults: defaultGpsSettings, now }),
    passFilter: new JsonStore({ dir, name: 'pass-filter', schema: PassFilterSchema, defaults: defaultPassFilter, now }),
  };
}
export type Stores = ReturnType<typeof createStores>;
