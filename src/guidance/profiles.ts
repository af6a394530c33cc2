import * as v from 'valibot';
import type { Catalog } from '../catalog/types.js';
import { ProfileEntrySchema, ProfileFileSchema, type FrequencyProfile, type ProfileEntry } from './schemas.js';

// Guidance profiles: validated entry by entry (a bad one is skipped with its reason), keyed by
// norad_id and given the catalog's sat_id, so slug naming in the catalog cannot orphan a profile.

export interface SkippedProfile {
  index: number;
  norad_id: number | null;
  reason: string;
}

export interface ParsedProfiles {
  entries: ProfileEntry[];
  skipped: SkippedProfile[];
}

function issueText(issues: readonly v.BaseIssue<unknown>[]): string {
  const i = issues[0];
  const path = i.path?.map((p) => String(p.key)).join('.') ?? '';
  return path ? `${path}: ${i.message}` : i.message;
}

export function parseProfileFile(raw: unknown): ParsedProfiles {
  const file = v.safeParse(ProfileFileSchema, raw);
  if (!file.success) return { entries: [], skipped: [{ index: -1, norad_id: null, reason: `profile file: ${issueText(file.issues)}` }] };
  const entries: ProfileEntry[] = [];
  const skipped: SkippedProfile[] = [];
  const seen = new Set<number>();
  file.output.profiles.forEach((item, index) => {
    const norad = typeof (item as { norad_id?: unknown })?.norad_id === 'number' ? (item as { norad_id: number }).norad_id : null;
    const r = v.safeParse(ProfileEntrySchema, item);
    if (!r.success) return skipped.push({ index, norad_id: norad, reason: issueText(r.issues) });
    if (seen.has(r.output.norad_id)) return skipped.push({ index, norad_id: norad, reason: 'duplicate norad_id (first entry kept)' });
    seen.add(r.output.norad_id);
    entries.push(r.output);
  });
  return { entries, skipped };
}

/**
 * A profile file of the bundle itself (data/profiles.json, data/transmitter-profiles.json) taken as
 * it is: each is tested at every commit to parse with no entry skipped and nothing changed
 * (test/guidance/bundled-profiles.test.ts), so a boot does not validate it again (issue 36: ~4–6 ms
 * of cold valibot runs at every start here, ten times that at a tenth of a core). Never for a file
 * from anywhere else: those go through parseProfileFile.
 */
export function checkedProfileFile(file: unknown): ParsedProfiles {
  // The array is the caller's own; the entries are the module's (read, never changed, as a parse's are).
  return { entries: [...(file as { profiles: ProfileEntry[] }).profiles], skipped: [] };
}

export interface ProfileIndex {
  bySatId: ReadonlyMap<string, FrequencyProfile>;
  /** Profiles whose norad_id the catalog does not hold (unreachable until a refresh adds them). */
  unresolved: readonly ProfileEntry[];
}

/** Fills sat_id from the catalog (byNorad) and indexes by it. */
export function indexProfiles(entries: readonly ProfileEntry[], catalog: Pick<Catalog, 'byNorad'>): ProfileIndex {
  const bySatId = new Map<string, FrequencyProfile>();
  const unresolved: ProfileEntry[] = [];
  for (const e of entries) {
    const sat = catalog.byNorad.get(e.norad_id);
    if (sat) bySatId.set(sat.sat_id, { ...e, sat_id: sat.sat_id });
    else unresolved.push(e);
  }
  return { bySatId, unresolved };
}
