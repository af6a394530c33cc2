import * as v from 'valibot';
import { ISS_SAT_ID } from '../catalog/types.js';

// Lite settings (spec part 2 and "Lite snapshot rules"). Up to 8 ids are accepted (more is a
// 400); the spec's other figure, 5, is not applied: the snapshot renders every accepted id.
export const MAX_TRACKED = 8;

export const LiteSettingsSchema = v.object({
  tracked_sat_ids: v.pipe(
    v.array(v.pipe(v.string(), v.maxLength(64))),
    v.maxLength(MAX_TRACKED, `at most ${MAX_TRACKED} tracked satellites`),
  ),
  setup_complete: v.boolean(),
});
export type LiteSettings = v.InferOutput<typeof LiteSettingsSchema>;
export const defaultLiteSettings = (): LiteSettings => ({ tracked_sat_ids: [ISS_SAT_ID], setup_complete: false });

export interface TrackedSet {
  ids: string[];
  /** Ids dropped because the catalog does not know them (or repeated). */
  dropped: string[];
  /** True when nothing valid was left and the ISS stood in. */
  fell_back: boolean;
}

/**
 * The tracked set rule, shared by POST /settings/lite and the snapshot: keep ids the catalog
 * knows, first occurrence wins, and fall back to the ISS when nothing valid is left (an empty
 * list when the catalog has no ISS either).
 */
export function normalizeTracked(ids: readonly string[], has: (id: string) => boolean): TrackedSet {
  const out: string[] = [];
  const dropped: string[] = [];
  for (const id of ids) {
    if (has(id) && !out.includes(id)) out.push(id);
    else dropped.push(id);
  }
  if (out.length > 0) return { ids: out, dropped, fell_back: false };
  return { ids: has(ISS_SAT_ID) ? [ISS_SAT_ID] : [], dropped, fell_back: true };
}
