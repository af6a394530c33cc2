// The tracked set (lite settings' tracked_sat_ids) leads every satellite list of a page: its
// satellites first, the rest of the catalogue found by a search instead of scrolled through.

export interface NamedSat {
  sat_id: string;
  name: string;
}

/** Letters and digits only: "so50", "SO-50" and "so 50" find "SAUDISAT 1C (SO-50)". */
const folded = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** True when the query (case, spaces and punctuation aside) is in the name or the sat_id; an empty query matches nothing. */
export function satMatches(s: NamedSat, query: string): boolean {
  const q = folded(query);
  return q !== '' && (folded(s.name).includes(q) || folded(s.sat_id).includes(q));
}

/** Items of tracked satellites and the others, each in their given order. */
export function byTracked<T extends { sat_id: string }>(items: readonly T[], tracked: ReadonlySet<string>): { tracked: T[]; others: T[] } {
  const out = { tracked: [] as T[], others: [] as T[] };
  for (const it of items) (tracked.has(it.sat_id) ? out.tracked : out.others).push(it);
  return out;
}

/**
 * One pass list, by AOS: the tracked set's own list (complete) and the other satellites' from the
 * whole catalogue's list (cut at its limit, so it may miss a tracked pass late in the window).
 */
export function withTracked<T extends { sat_id: string; aos: string }>(all: readonly T[], ofTracked: readonly T[], tracked: ReadonlySet<string>): T[] {
  // UTC ISO strings of one format sort as text.
  return [...ofTracked, ...all.filter((p) => !tracked.has(p.sat_id))].sort((a, b) => (a.aos < b.aos ? -1 : a.aos > b.aos ? 1 : 0));
}
