import * as v from 'valibot';
import { DEFAULT_LOCATION } from '../orbit/location-types.js';
import { fromLocator, LOCATOR_PATTERN, toLocator } from './maidenhead.js';
import { choice } from '../util/choice.js';

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

const altitude = () => num('alt_m', ALT_RANGE_M, ' m');

export const LocationPointSchema = v.object({
  lat: num('lat', LAT_RANGE, '°'),
  lon: num('lon', LON_RANGE, '°'),
  alt_m: altitude(),
});
export type LocationPoint = v.InferOutput<typeof LocationPointSchema>;

export const ProfileIdSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/, 'must be 1–32 letters, digits, _ or -'));

const ProfileNameSchema = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(64));

export const LocationProfileSchema = v.object({
  id: ProfileIdSchema,
  name: ProfileNameSchema,
  point: LocationPointSchema,
});
export type LocationProfile = v.InferOutput<typeof LocationProfileSchema>;

/** A Maidenhead locator of 4, 6 or 8 characters, any case (JO01, jo01cf, JO01cf52). */
export const LocatorSchema = v.pipe(v.string(), v.trim(), v.regex(LOCATOR_PATTERN, 'must be a Maidenhead locator of 4, 6 or 8 characters, e.g. JO01, JO01cf or JO01cf52'));

/**
 * add_profile as the operator may give it: a point, or a locator (the centre of its square) with
 * an optional alt_m (default 0). One object with both ways optional rather than a union, so a
 * mistake is named at its own field (add_profile.locator, add_profile.point.lat), never as
 * "matches neither shape". The output is the stored profile: a locator is not kept, it is
 * always derived from the point (GET shows every profile's 6-character locator).
 */
export const LocationProfileInputSchema = v.pipe(
  v.object({
    id: ProfileIdSchema,
    name: ProfileNameSchema,
    point: v.optional(LocationPointSchema),
    locator: v.optional(LocatorSchema),
    alt_m: v.optional(altitude()),
  }),
  v.description('Either point {lat, lon, alt_m}, or locator (4, 6 or 8 characters; the centre of its square) with an optional alt_m (default 0).'),
  v.check((p) => p.point !== undefined || p.locator !== undefined, 'needs a point {lat, lon, alt_m} or a Maidenhead locator'),
  v.forward(
    v.check((p) => p.point === undefined || p.locator === undefined, 'give a point or a locator, not both'),
    ['locator'],
  ),
  v.forward(
    v.check((p) => p.locator !== undefined || p.alt_m === undefined, 'alt_m goes with a locator; a point carries its own point.alt_m'),
    ['alt_m'],
  ),
  v.transform((p): LocationProfile => ({ id: p.id, name: p.name, point: p.point ?? locatorPoint(p.locator!, p.alt_m ?? 0) })),
);

/** The centre of a locator's square (validated by LocatorSchema before this runs). */
function locatorPoint(locator: string, alt_m: number): LocationProfile['point'] {
  const c = fromLocator(locator);
  if (!c) throw new RangeError(`not a locator: ${locator}`);
  return { lat: c.lat, lon: c.lon, alt_m };
}

/** What the GPS process writes: a point and the UTC time of the fix. */
export const GpsFixSchema = v.object({
  ...LocationPointSchema.entries,
  timestamp: v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 UTC timestamp')),
});
export type GpsFix = v.InferOutput<typeof GpsFixSchema>;

/** Hams think in locators: every point the operator is shown comes with its 6-character one. */
export type WithLocator<T> = T & { locator: string };
export const locatorOf = (p: { lat: number; lon: number }): string => toLocator(p.lat, p.lon);
export const withLocator = <T extends { lat: number; lon: number }>(p: T): WithLocator<T> => ({ ...p, locator: locatorOf(p) });
/** The response schema of a locator (always 6 characters: field, square, subsquare). */
export const Locator6Schema = v.pipe(v.string(), v.regex(/^[A-R]{2}[0-9]{2}[a-x]{2}$/), v.description('Maidenhead locator, 6 characters, e.g. JO01cf'));

export const SOURCE_MODES = ['manual', 'gps'] as const;
const SourceModeSchema = choice(SOURCE_MODES, {
  manual: 'the selected profile',
  gps: 'the GPS fix while it is fresh (under 10 minutes old), else the selected profile',
});

export const LocationStateSchema = v.pipe(
  v.object({
    source_mode: SourceModeSchema,
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
  source_mode: v.optional(SourceModeSchema),
  /** Adds a profile, or replaces the one with the same id. */
  add_profile: v.optional(LocationProfileInputSchema),
  selected_profile_id: v.optional(ProfileIdSchema),
  remove_profile_id: v.optional(ProfileIdSchema),
});
export type LocationPatch = v.InferOutput<typeof LocationPatchSchema>;
