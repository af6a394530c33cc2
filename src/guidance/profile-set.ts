import type { ProfileEntry } from './schemas.js';

// The served profile set: one entry per satellite from three sources, the operator's edit first,
// then the profile built from transmitter data, then the bundled file. Pure.

export const PROFILE_SOURCES = ['bundled', 'transmitters', 'operator'] as const;
export type ProfileSource = (typeof PROFILE_SOURCES)[number];

export interface SourcedEntry {
  entry: ProfileEntry;
  source: ProfileSource;
  /** When that source's data is from (ISO UTC): file date, transmitter data date, operator save time. */
  date: string;
}

export interface SourceLayer {
  source: ProfileSource;
  date: string;
  entries: readonly ProfileEntry[];
}

/** Layers in rising precedence; an operator layer may carry a date per entry. */
export function mergeProfileSources(bundled: SourceLayer, transmitters: SourceLayer | null, operator: readonly { entry: ProfileEntry; saved_at: string }[]): SourcedEntry[] {
  const byNorad = new Map<number, SourcedEntry>();
  for (const layer of transmitters ? [bundled, transmitters] : [bundled]) {
    for (const entry of layer.entries) byNorad.set(entry.norad_id, { entry, source: layer.source, date: layer.date });
  }
  for (const o of operator) byNorad.set(o.entry.norad_id, { entry: o.entry, source: 'operator', date: o.saved_at });
  return [...byNorad.values()].sort((a, b) => a.entry.norad_id - b.entry.norad_id);
}

export interface KeptProfile {
  norad_id: number;
  name: string;
  reason: string;
}

/**
 * A rebuild must not lose a working profile: every satellite the previous set covered and the
 * new one does not keeps its previous entry, with the reason the new data gave none.
 */
export function keepLostProfiles(
  previous: readonly ProfileEntry[],
  next: readonly ProfileEntry[],
  whyMissing: (norad_id: number) => string,
): { entries: ProfileEntry[]; kept: KeptProfile[] } {
  const have = new Set(next.map((e) => e.norad_id));
  const kept: KeptProfile[] = [];
  const entries = [...next];
  for (const e of previous) {
    if (have.has(e.norad_id)) continue;
    entries.push(e);
    kept.push({ norad_id: e.norad_id, name: e.name, reason: `kept the previous profile: ${whyMissing(e.norad_id)}` });
  }
  return { entries, kept };
}
