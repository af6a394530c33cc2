import * as v from 'valibot';

// Spec part 2 resources the orbit engine produces: one schema each, for /docs and for anyone
// who re-exposes them (system state, lite snapshot).

export const LiveSampleSchema = v.object({
  sat_id: v.string(),
  name: v.string(),
  timestamp: v.string(),
  az_deg: v.number(),
  el_deg: v.number(),
  range_km: v.number(),
  range_rate_km_s: v.number(),
  sunlit: v.boolean(),
});

export const PathPointSchema = v.object({
  sat_id: v.string(),
  timestamp: v.string(),
  t_ms: v.number(),
  az_deg: v.number(),
  el_deg: v.number(),
  range_km: v.number(),
  range_rate_km_s: v.number(),
  sunlit: v.boolean(),
});

/** A path point with its sub-satellite point (GET /api/v1/track/path; the lite focus path omits it). */
export const GroundPathPointSchema = v.object({
  ...PathPointSchema.entries,
  lat_deg: v.number(),
  lon_deg: v.number(),
  alt_km: v.number(),
});

export const PassItemSchema = v.object({
  sat_id: v.string(),
  name: v.string(),
  aos: v.string(),
  tca: v.string(),
  los: v.string(),
  max_el_deg: v.number(),
  frequencyRecommendation: v.nullable(v.unknown()),
  frequencyMatrix: v.nullable(v.unknown()),
});
