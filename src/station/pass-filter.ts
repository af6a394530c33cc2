import * as v from 'valibot';
import { choice } from '../util/choice.js';

// Pass filter profile (spec part 2): IssOnly hides non-ISS passes, Favorites keeps only the
// listed satellites, All keeps everything. /api/v1/passes honours it unless include_all_sats.
export const PASS_PROFILES = ['All', 'IssOnly', 'Favorites'] as const;
export const DEFAULT_MIN_EL_DEG = 5;

export const PassFilterSchema = v.object({
  pass_profile: choice(PASS_PROFILES, {
    All: "every satellite's passes",
    IssOnly: "the ISS's passes only",
    Favorites: 'the passes of the satellites in favorites only',
  }),
  favorites: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))), v.maxLength(64)),
  // The operator's minimum elevation: passes whose maximum stays below it are not listed by
  // default anywhere (/passes without min_max_el, the lite snapshot, the kiosk). A 0° graze is
  // not workable through trees and roofs; 5° is what most trackers default to. Optional so files
  // written before it existed still load.
  min_el_deg: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0, 'min_el_deg must be at least 0°'), v.maxValue(90, 'min_el_deg must be at most 90°')), DEFAULT_MIN_EL_DEG),
});
export type PassFilter = v.InferOutput<typeof PassFilterSchema>;

export const defaultPassFilter = (): PassFilter => ({ pass_profile: 'All', favorites: [], min_el_deg: DEFAULT_MIN_EL_DEG });

/** The sat_ids a profile lets through, or undefined for "all". */
export function passFilterSatIds(f: PassFilter, issSatId: string): readonly string[] | undefined {
  if (f.pass_profile === 'IssOnly') return [issSatId];
  if (f.pass_profile === 'Favorites') return f.favorites;
  return undefined;
}
