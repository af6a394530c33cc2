// Stable readable satellite ids (pure). 'iss' for the station; the OSCAR designation when the name
// or the alias table has one (so-50, ao-91, rs-44); else a slug of the name. An id once given is
// never changed or reused: callers persist the map and pass it back in.
import { ISS_NORAD_ID, ISS_SAT_ID } from './types.js';
import { drain } from '../util/loop-slices.js';

/** NORAD id → designation and other names (src/catalog/data/aliases.json). */
export interface AliasEntry {
  /** OSCAR-style designation, e.g. "AO-91", or "" when the satellite has none. */
  designation: string;
  names: string[];
}
export type AliasTable = Record<string, AliasEntry>;

// "AO-7", "SO-50", "IO-117", "PO-101", "RS-44": one to three letters ending in O (OSCAR numbers) or RS.
const DESIGNATION = /(?:^|[^A-Z0-9])((?:[A-Z]{0,2}O|RS)-\d{1,3})(?![0-9A-Z])/;

export function designationFromName(name: string): string | null {
  const m = DESIGNATION.exec(name.toUpperCase());
  return m ? m[1] : null;
}

export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
}

/** The id a satellite would get if nothing else claimed it. */
export function preferredSatId(norad: number, name: string, aliases: AliasTable): string {
  if (norad === ISS_NORAD_ID) return ISS_SAT_ID;
  const des = designationFromName(name) ?? (aliases[String(norad)]?.designation || null);
  if (des) return slugify(des);
  // Parenthesised parts of CelesTrak names are mostly other names or truncation marks: "UMKA 1 (RS40S)".
  const base = slugify(name.replace(/\([^)]*\)?/g, ' ')) || slugify(name);
  return base || `norad-${norad}`;
}

/**
 * Ids for `sats`, keeping every id in `known` (norad → id). New ids avoid every id already given,
 * including ids of satellites no longer in the catalog; a collision takes a `-<norad>` suffix.
 * Returns the full map (old entries included) and whether anything was added.
 */
export function assignSatIds(
  sats: readonly { norad: number; name: string }[],
  known: ReadonlyMap<number, string>,
  aliases: AliasTable,
): { ids: Map<number, string>; added: number } {
  return drain(assignSatIdsSteps(sats, known, aliases));
}

/** The same, yielding every 1024 known ids and every 32 new ones (a first refresh to the whole catalog names 16k). */
export function* assignSatIdsSteps(
  sats: readonly { norad: number; name: string }[],
  known: ReadonlyMap<number, string>,
  aliases: AliasTable,
): Generator<void, { ids: Map<number, string>; added: number }, undefined> {
  const ids = new Map<number, string>();
  const taken = new Set<string>();
  for (const [norad, id] of known) {
    ids.set(norad, id);
    taken.add(id);
    if ((ids.size & 1023) === 0) yield;
  }
  let added = 0;
  // Lower NORAD ids first so the older satellite keeps the bare designation on a tie.
  const fresh: { norad: number; name: string }[] = [];
  for (let i = 0; i < sats.length; i++) {
    if (!ids.has(sats[i].norad)) fresh.push(sats[i]);
    if ((i & 1023) === 1023) yield;
  }
  fresh.sort((a, b) => a.norad - b.norad);
  yield;
  for (const s of fresh) {
    let id = preferredSatId(s.norad, s.name, aliases);
    if (taken.has(id)) id = `${id}-${s.norad}`;
    let n = 2;
    while (taken.has(id)) id = `${preferredSatId(s.norad, s.name, aliases)}-${s.norad}-${n++}`;
    ids.set(s.norad, id);
    taken.add(id);
    if ((++added & 31) === 0) yield;
  }
  return { ids, added };
}
