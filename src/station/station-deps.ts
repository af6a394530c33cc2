import type { CatalogProvider } from '../catalog/types.js';
import type { OrbitService, PassEvent } from '../orbit/types.js';
import type { Clock } from '../util/clock.js';
import type { StationIdentity } from '../ham/callsign.js';
import type { AprsRuntime, AprsTarget } from '../aprs/types.js';
import type { AprsSettings } from '../aprs/settings.js';
import type { RadioRuntime, RadioStatusSource } from '../radio/types.js';
import type { RadioSettings } from '../radio/settings.js';
import type { RotatorRuntime } from '../rotator/schemas.js';
import type { RotatorSettings } from '../rotator/settings.js';
import type { HamlibRuntime } from '../hamlib/schemas.js';
import type { RecordingRuntime } from '../recording/schemas.js';
import type { RecordingSettings } from '../recording/settings.js';
import type { HamlibSettings } from '../hamlib/settings.js';
import type { LiteSettingsService } from './lite-settings-service.js';
import type { LocationService } from './location-service.js';
import type { NetworkService } from './network.js';
import type { PassFilter } from './pass-filter.js';
import type { IssDisplay, TimezoneSetting } from './display-settings.js';
import type { DeveloperOverrides } from './developer-overrides.js';
import type { LiteSettings } from './lite-settings.js';
import type { GpsSettings } from './gps-settings.js';

// What system state, the ISS state and the lite snapshot are composed from, each input no wider
// than what they read: the station's own settings one resource at a time, and of every other area
// only its settings, its runtime and what the screens show of it. The areas implement these as
// they are (the composition root hands them over); the station never sees the settings files.

/** The guidance model every route embeds (spec part 4 rule 10); GuidanceService implements it. */
export interface GuidanceEmbedder {
  embed(
    sat_id: string,
    now_ms: number,
    pass?: PassEvent | null,
    selected_column_index?: number | null,
  ): { frequencyRecommendation: unknown; frequencyMatrix: unknown };
  /** A new object whenever what every pass's guidance depends on changes (catalog, profile set). */
  basis(): object;
}

/** One settings resource, read whole (a JsonStore implements it). */
export interface SettingsReader<T> {
  get(): T;
}

/** The station's own settings: pass filter, displays, overrides, the lite tracked set, GPS. */
export interface StationSettings {
  passFilter: SettingsReader<PassFilter>;
  issDisplay: SettingsReader<IssDisplay>;
  timezone: SettingsReader<TimezoneSetting>;
  developerOverrides: SettingsReader<DeveloperOverrides>;
  lite: SettingsReader<LiteSettings>;
  gps: SettingsReader<GpsSettings>;
}

/** An area as the screens show it: its settings and its runtime (the resting one while it is not loaded). */
export interface AreaReadout<S, R> {
  settings(): S;
  runtime(): R;
}

/** Radio control (RadioArea): settings (public: the LAN password masked), runtime, the pass-pinned session. */
export interface RadioReadout extends AreaReadout<RadioSettings, RadioRuntime>, RadioStatusSource {
  publicSettings(): RadioSettings;
}

/** The APRS side (AprsService): settings, runtime, the target a send would use, and the station identity. */
export interface AprsReadout extends AreaReadout<AprsSettings, AprsRuntime> {
  publicSettings(): AprsSettings;
  previewTarget(): AprsTarget;
  identity(): StationIdentity;
}

export type RotatorReadout = AreaReadout<RotatorSettings, RotatorRuntime>;
export type HamlibReadout = AreaReadout<HamlibSettings, HamlibRuntime>;
export type RecordingReadout = AreaReadout<RecordingSettings, RecordingRuntime>;

export interface StationDeps {
  clock: Clock;
  settings: StationSettings;
  catalog: CatalogProvider;
  orbit: OrbitService;
  guidance: GuidanceEmbedder;
  location: LocationService;
  network: NetworkService;
  liteSettings: LiteSettingsService;
  radio: RadioReadout;
  aprs: AprsReadout;
  rotator: RotatorReadout;
  hamlib: HamlibReadout;
  recording: RecordingReadout;
}
