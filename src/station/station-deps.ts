import type { CatalogProvider } from '../catalog/types.js';
import type { OrbitService, PassEvent } from '../orbit/types.js';
import type { Clock } from '../util/clock.js';
import type { AprsStatusSource } from '../aprs/types.js';
import type { LiteSettingsService } from './lite-settings-service.js';
import type { LocationService } from './location-service.js';
import type { NetworkService } from './network.js';
import type { RadioStatusSource } from '../radio/types.js';
import type { RotatorRuntime } from '../rotator/schemas.js';
import type { HamlibRuntime } from '../hamlib/schemas.js';
import type { Stores } from '../stores.js';

/** The guidance model every route embeds (spec part 4 rule 10); GuidanceService implements it. */
export interface GuidanceEmbedder {
  embed(
    sat_id: string,
    now_ms: number,
    pass?: PassEvent | null,
    selected_column_index?: number | null,
  ): { frequencyRecommendation: unknown; frequencyMatrix: unknown };
}

/** What system state, ISS state and the lite snapshot are composed from. */
export interface StationDeps {
  clock: Clock;
  stores: Stores;
  catalog: CatalogProvider;
  orbit: OrbitService;
  guidance: GuidanceEmbedder;
  location: LocationService;
  network: NetworkService;
  liteSettings: LiteSettingsService;
  /** Replaced by the radio and APRS services when they land (defaults until then). */
  radioStatus: () => RadioStatusSource;
  aprsStatus: () => AprsStatusSource;
  /** The rotator's runtime (resting while it is not loaded). */
  rotatorRuntime: () => RotatorRuntime;
  /** The Hamlib servers' runtime (resting while they are not loaded). */
  hamlibRuntime: () => HamlibRuntime;
}
