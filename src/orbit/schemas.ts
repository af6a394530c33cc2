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
