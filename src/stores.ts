import { removeStaleTempsIn } from './store/atomic-file.js';
import { JsonStore } from './store/json-store.js';
import type { Clock } from './util/clock.js';
import { DeveloperOverridesSchema, defaultDeveloperOverrides } from './station/developer-overrides.js';
import { GpsSettingsSchema, defaultGpsSettings } from './station/gps-settings.js';
import { PassFilterSchema, defaultPassFilter } from './station/pass-filter.js';
import { LocationStateSchema, defaultLocationState } from './station/location-state.js';
import { LiteSettingsSchema, defaultLiteSettings } from './station/lite-settings.js';
import { IssDisplaySchema, TimezoneSchema, defaultIssDisplay, defaultTimezone } from './station/display-settings.js';
import { NetworkSchema, defaultNetwork } from './station/network.js';
import { RadioSettingsSchema, defaultRadioSettings } from './radio/settings.js';
import { RotatorSettingsSchema, defaultRotatorSettings } from './rotator/settings.js';
import { HamlibSettingsSchema, defaultHamlibSettings } from './hamlib/settings.js';
import { AprsSettingsSchema, defaultAprsSettings } from './aprs/settings.js';
import { CatalogSourcesSchema, defaultCatalogSources } from './catalog/sources.js';
import { AccessFileSchema, defaultAccessFile } from './access/schemas.js';
import { RecordingSettingsSchema, defaultRecordingSettings } from './recording/settings.js';
import { DEFAULT_LOGBOOK_SETTINGS, LOGBOOK_SECRETS, LogbookSettingsSchema } from './logbook/schemas.js';

// The flat-file stores, one module every side may import (no area imports another through it).

/** Every flat-file resource of the station, one JSON file each under DATA_DIR (its stale temp files removed first, once for all). */
export function createStores(dir: string, clock: Clock) {
  removeStaleTempsIn(dir); // each folder's owner cleans its own; this one holds the settings
  const now = () => clock.now();
  const tempsSwept = true;
  return {
    developerOverrides: new JsonStore({ dir, tempsSwept, name: 'developer-overrides', schema: DeveloperOverridesSchema, defaults: defaultDeveloperOverrides, now }),
    gps: new JsonStore({ dir, tempsSwept, name: 'gps-settings', schema: GpsSettingsSchema, defaults: defaultGpsSettings, now }),
    passFilter: new JsonStore({ dir, tempsSwept, name: 'pass-filter', schema: PassFilterSchema, defaults: defaultPassFilter, now }),
    location: new JsonStore({ dir, tempsSwept, name: 'location', schema: LocationStateSchema, defaults: defaultLocationState, now }),
    lite: new JsonStore({ dir, tempsSwept, name: 'lite-settings', schema: LiteSettingsSchema, defaults: defaultLiteSettings, now }),
    issDisplay: new JsonStore({ dir, tempsSwept, name: 'iss-display', schema: IssDisplaySchema, defaults: defaultIssDisplay, now }),
    timezone: new JsonStore({ dir, tempsSwept, name: 'timezone', schema: TimezoneSchema, defaults: defaultTimezone, now }),
    network: new JsonStore({ dir, tempsSwept, name: 'network', schema: NetworkSchema, defaults: defaultNetwork, now }),
    // These hold the rig's LAN password (it can key the transmitter): owner-only, and write-only in the API.
    radio: new JsonStore({ dir, tempsSwept, name: 'radio-settings', schema: RadioSettingsSchema, defaults: defaultRadioSettings, now, mode: 0o600, secrets: ['wifi_password', 'uplink_rig.wifi_password'] }),
    rotator: new JsonStore({ dir, tempsSwept, name: 'rotator-settings', schema: RotatorSettingsSchema, defaults: defaultRotatorSettings, now }),
    hamlib: new JsonStore({ dir, tempsSwept, name: 'hamlib-settings', schema: HamlibSettingsSchema, defaults: defaultHamlibSettings, now }),
    aprs: new JsonStore({ dir, tempsSwept, name: 'aprs-settings', schema: AprsSettingsSchema, defaults: defaultAprsSettings, now, mode: 0o600, secrets: ['wifi_password', 'uplink_rig.wifi_password'] }),
    catalogSources: new JsonStore({ dir, tempsSwept, name: 'catalog-sources', schema: CatalogSourcesSchema, defaults: defaultCatalogSources, now }),
    // The operator token's hash: readable by the service user only.
    access: new JsonStore({ dir, tempsSwept, name: 'access', schema: AccessFileSchema, defaults: defaultAccessFile, now, mode: 0o600 }),
    // The Cloudlog/Wavelog API key can write to the operator's log: owner-only, write-only in the API.
    logbook: new JsonStore({ dir, tempsSwept, name: 'logbook-settings', schema: LogbookSettingsSchema, defaults: () => DEFAULT_LOGBOOK_SETTINGS, now, mode: 0o600, secrets: LOGBOOK_SECRETS }),
    recording: new JsonStore({ dir, tempsSwept, name: 'recording-settings', schema: RecordingSettingsSchema, defaults: defaultRecordingSettings, now }),
  };
}
export type Stores = ReturnType<typeof createStores>;
