import * as v from 'valibot';

// Pass filter profile (spec part 2): IssOnly hides non-ISS passes, Favorites keeps only the
// listed satellites, All keeps everything. /api/v1/passes honours it unless include_all_sats.
export const PASS_PROFILES = ['All', 'IssOnly', 'Favorites'] as const;

export const PassFilterSchema = v.object({
  pass_profile: v.picklist(PASS_PROFILES),
  favorites: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))), v.maxLength(64)),
});
export type PassFilter = v.InferOutput<typeof PassFilterSchema>;

export const defaultPassFilter = (): PassFilter => ({ pass_profile: 'All', favorites: [] });

/** The sat_ids a profile lets through, or undefined for "all". */
export function passFilterSatIds(f: PassFilter, issSatId: string): readonly string[] | undefined {
  if (f.pass_profile === 'IssOnly') return [issSatId];
  if (f.pass_profile === 'Favorites') return f.favorites;
  return undefined;
}
