import * as v from 'valibot';
import { choice } from '../util/choice.js';

// Consumed by the kiosk rotator page. null means "do not force".
export const KIOSK_SCENES = ['overview', 'pass', 'iss_video', 'radio', 'aprs', 'lite'] as const;
export const PASS_PHASES = ['aos', 'early', 'mid', 'late', 'los'] as const;

export const DeveloperOverridesSchema = v.object({
  enabled: v.boolean(),
  force_scene: v.nullable(
    choice(KIOSK_SCENES, {
      overview: 'the upcoming passes table',
      pass: 'the live pass: sky plot, countdown to LOS, the pair to tune',
      iss_video: 'the ISS: its Earth-view stream when eligible, else its ground track',
      radio: 'the pinned radio session: state, satellite, pair, time to AOS or LOS',
      aprs: 'the APRS station',
      lite: "the lite page's focus pass (the pass scene)",
    }),
  ),
  force_sat_id: v.nullable(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))),
  simulate_pass_phase: v.nullable(
    choice(PASS_PHASES, {
      aos: 'just after AOS (a tenth into the pass)',
      early: 'early in the pass (three tenths in)',
      mid: 'the middle of the pass',
      late: 'late in the pass (seven tenths in)',
      los: 'just before LOS (nine tenths in)',
    }),
  ),
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
