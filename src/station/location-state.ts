import * as v from 'valibot';
import { DEFAULT_LOCATION } from '../orbit/location-types.js';

// Location state (spec part 2), one flat file: location.json. The operator edits source_mode
// and profiles through POST /api/v1/location; a separate GPS process writes only `gps_fix`
// (atomically: temp file + rename). A malformed fix is read as "no fix" instead of making the
// whole file corrupt, so a bad GPS writer can never cost the operator their profiles.

export const LAT_RANGE = [-90, 90] as const;
export const LON_RANGE = [-180, 180] as const;
export const ALT_RANGE_M = [-500, 10_000] as const;
export const MAX_PROFILES = 32;

const num = (field: string, [min, max]: readonly [number, number], unit = '') =>
  v.pipe(v.number(), v.finite(), v.minValue(min, `${field} must be at least ${min}${unit}`), v.maxValue(max, `${field} must be at most ${max}${unit}`));

export const LocationPointSchema = v.object({
  lat: num('lat', LAT_RANGE, '°'),
  lon: num('lon', LON_RANGE, '°'),
  alt_m: num('alt_m', ALT_RANGE_M, ' m'),
});
export type LocationPoint = v.InferOutput<typeof LocationPointSchema>;

export const ProfileIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'must be 1–32 letters, digits, _ or -'));

export const LocationProfileSchema = v.object({
  id: ProfileIdSchema,
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(64)),
  point: LocationPointSchema,
});
export type LocationProfile = v.InferOutput<typeof LocationProfileSchema>;

/** What the GPS process writes: a point and the UTC time of the fix. */
export const GpsFixSchema = v.object({
  ...LocationPointSchema.entries,
  timestamp: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 UTC timestamp')),
});
export type GpsFix = v.InferOutput<typeof GpsFixSchema>;

export const SOURCE_MODES = ['manual', 'gps'] as const;

export const LocationStateSchema = v.pipe(
  v.object({
    source_mode: v.picklist(SOURCE_MODES),
    selected_profile_id: ProfileIdSchema,
    profiles: v.pipe(v.array(LocationProfileSchema), v.minLength(1), v.maxLength(MAX_PROFILES)),
    gps_fix: v.optional(v.fallback(v.nullable(GpsFixSchema), null), null),
  }),
  v.check((s) => new Set(s.profiles.map((p) => p.id)).size === s.profiles.length, 'profile ids must be unique'),
  v.check((s) => s.profiles.some((p) => p.id === s.selected_profile_id), 'selected_profile_id must name a profile'),
);
export type LocationState = v.InferOutput<typeof LocationStateSchema>;

export const DEFAULT_PROFILE_ID = 'default';

export const defaultLocationState = (): LocationState => ({
  source_mode: 'manual',
  selected_profile_id: DEFAULT_PROFILE_ID,
  profiles: [
    {
      id: DEFAULT_PROFILE_ID,
      name: 'Default (Greenwich)',
      point: { lat: DEFAULT_LOCATION.lat, lon: DEFAULT_LOCATION.lon, alt_m: DEFAULT_LOCATION.alt_m },
    },
  ],
  gps_fix: null,
});

/** POST /api/v1/location: every field optional; applied remove → add → select → mode. */
export const LocationPatchSchema = v.object({
  source_mode: v.optional(v.picklist(SOURCE_MODES)),
  /** Adds a profile, or replaces the one with the same id. */
  add_profile: v.optional(LocationProfileSchema),
  selected_profile_id: v.optional(ProfileIdSchema),
  remove_profile_id: v.optional(ProfileIdSchema),
});
export type LocationPatch = v.InferOutput<typeof LocationPatchSchema>;
