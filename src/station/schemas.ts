import * as v from 'valibot';
import { FrequencyMatrixSchema, FrequencyRecommendationSchema } from '../guidance/schemas.js';
import { LiveSampleSchema, PassItemSchema, PathPointSchema } from '../orbit/schemas.js';
import { AprsSettingsSchema } from '../aprs/settings.js';
import { RotatorSettingsSchema } from '../rotator/settings.js';
import { RotatorRuntimeSchema, RotatorSummarySchema } from '../rotator/schemas.js';
import { RecordingRuntimeSchema, RecordingSummarySchema } from '../recording/schemas.js';
import { RecordingSettingsSchema } from '../recording/settings.js';
import { HamlibSettingsSchema } from '../hamlib/settings.js';
import { HamlibRuntimeSchema } from '../hamlib/schemas.js';
import { GpsSettingsSchema } from './gps-settings.js';
import { ISS_DISPLAY_MODES } from './display-settings.js';
import { ISS_MODES } from './iss-state.js';
import { LiteSettingsSchema } from './lite-settings.js';
import { Locator6Schema } from './location-state.js';
import { PASS_PROFILES } from './pass-filter.js';
import { RadioSettingsSchema } from '../radio/settings.js';

// Response schemas of the station's read routes: they document /docs (route `response:`).

const ts = () => v.pipe(v.string(), v.description('UTC ISO 8601'));
const deg = () => v.number();

export const IssFlagsSchema = v.object({
  sunlit: v.boolean(),
  aboveHorizon: v.boolean(),
  videoEligible: v.boolean(),
  streamHealthy: v.boolean(),
  mode: v.picklist(ISS_MODES),
  activeStreamUrl: v.string(),
});

export const IssStateResponseSchema = v.object({ timestamp: ts(), issTrack: v.nullable(LiveSampleSchema), state: IssFlagsSchema });

const ResolvedSchema = v.object({ source: v.picklist(['manual', 'gps']), lat: deg(), lon: deg(), alt_m: v.number() });
const Horizontal = { az_deg: deg(), el_deg: deg() };
const Open = () => v.looseObject({});

export const SystemStateSchema = v.object({
  timestamp: ts(),
  location: v.object({ ...ResolvedSchema.entries, locator: Locator6Schema }),
  settings: v.object({
    iss_display_mode: v.picklist(ISS_DISPLAY_MODES),
    display_timezone: v.string(),
    pass_profile: v.picklist(PASS_PROFILES),
  }),
  iss: IssFlagsSchema,
  activeTrack: v.nullable(LiveSampleSchema),
  activePass: v.nullable(v.omit(PassItemSchema, ['name', 'frequencyRecommendation', 'frequencyMatrix'])),
  frequencyRecommendation: v.nullable(FrequencyRecommendationSchema),
  frequencyMatrix: v.nullable(FrequencyMatrixSchema),
  radioSettings: RadioSettingsSchema,
  radioRuntime: Open(),
  radioControlSession: Open(),
  aprsSettings: AprsSettingsSchema,
  aprsRuntime: Open(),
  aprsPreviewTarget: Open(),
  rotatorSettings: RotatorSettingsSchema,
  rotatorRuntime: RotatorRuntimeSchema,
  hamlibSettings: HamlibSettingsSchema,
  hamlibRuntime: HamlibRuntimeSchema,
  recordingSettings: RecordingSettingsSchema,
  recordingRuntime: RecordingRuntimeSchema,
  stationIdentity: v.object({ valid: v.boolean(), callsign: v.string(), reason: v.optional(v.string()) }),
  bodies: v.object({
    sun: v.object(Horizontal),
    moon: v.object({ ...Horizontal, illuminated_fraction: v.number() }),
  }),
});

const LitePassSchema = v.omit(PassItemSchema, ['frequencyRecommendation', 'frequencyMatrix']);

export const LiteSnapshotSchema = v.object({
  timestamp: ts(),
  generated_at: ts(),
  trackedSatIds: v.array(v.string()),
  tracks: v.array(LiveSampleSchema),
  passes: v.array(LitePassSchema),
  focusSatId: v.nullable(v.string()),
  focusTrack: v.nullable(LiveSampleSchema),
  focusPass: v.nullable(LitePassSchema),
  focusCue: v.optional(v.object({ type: v.literal('aos'), sat_id: v.string(), az_deg: deg(), el_deg: deg(), aos: ts() })),
  focusPath: v.array(v.omit(PathPointSchema, ['t_ms', 'range_rate_km_s'])),
  frequencyRecommendation: v.nullable(FrequencyRecommendationSchema),
  frequencyMatrix: v.nullable(FrequencyMatrixSchema),
  location: v.object({
    ...ResolvedSchema.entries,
    locator: Locator6Schema,
    requested_source: v.nullable(v.string()),
    tracking_source: v.string(),
    gps_fix_fresh: v.boolean(),
    gps_fix_age_s: v.nullable(v.number()),
  }),
  network: v.object({ online: v.boolean(), offline: v.boolean(), reason: v.string() }),
  iss: v.object({ issTrack: v.nullable(LiveSampleSchema), state: IssFlagsSchema, tracked: v.boolean() }),
  satellites: v.array(Open()),
  radioControl: Open(),
  aprs: Open(),
  rotator: RotatorSummarySchema,
  recording: RecordingSummarySchema,
  timezone: v.object({ display_timezone: v.string(), utc_offset_minutes: v.number() }),
  gpsSettings: GpsSettingsSchema,
  liteSettings: LiteSettingsSchema,
  freshness: v.object({
    generated_at: ts(),
    catalog_origin: v.string(),
    catalog_loaded_at: ts(),
    oldest_epoch: v.nullable(ts()),
    catalog_epoch_age_h: v.nullable(v.number()),
    stale_warning_after_h: v.number(),
    reference_only_after_h: v.number(),
  }),
});
