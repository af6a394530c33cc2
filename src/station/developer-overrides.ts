import * as v from 'valibot';

// Consumed by the kiosk rotator page. null means "do not force".
export const KIOSK_SCENES = ['overview', 'pass', 'iss_video', 'radio', 'aprs', 'lite'] as const;
export const PASS_PHASES = ['aos', 'early', 'mid', 'late', 'los'] as const;

export const DeveloperOverridesSchema = v.object({
  enabled: v.boolean(),
  force_scene: v.nullable(v.picklist(KIOSK_SCENES)),
  force_sat_id: v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))),
  simulate_pass_phase: v.nullable(v.picklist(PASS_PHASES)),
  force_iss_video_eligible: v.nullable(v.boolean()),
  force_iss_stream_healthy: v.nullable(v.boolean()),
  show_debug_badge: v.boolean(),
});
export type DeveloperOverrides = v.InferOutput<typeof DeveloperOverridesSchema>;

export const defaultDeveloperOverrides = (): DeveloperOverrides => ({
  enabled: false,
  force_scene: null,
  force_sat_id: null,
  simulate_pass_phase: null,
  force_iss_video_eligible: null,
  force_iss_stream_healthy: null,
  show_debug_badge: false,
});
