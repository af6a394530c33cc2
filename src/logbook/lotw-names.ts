// Satellite name for LoTW (pure): the SAT_NAME that TQSL accepts for a satellite, from its NORAD
// number or any name it goes by (catalog designation, CelesTrak name, alias). LoTW matches
// SAT_NAME exactly against its own list, so a QSO logged as "ISS" or "SAUDISAT 1C" is refused
// there; the table (data/lotw-satellites.json) keeps LoTW's spelling with its sources and date.
import table from './data/lotw-satellites.json';

export interface SatelliteIdentity {
  norad_id?: number | null;
  /** Any names: our designation ("AO-91"), the catalog name ("RADFXSAT (FOX-1B)"), aliases. */
  names?: readonly string[];
}

interface Entry {
  lotw: string;
  norad: number[];
  aka: string[];
}

/** "SO-50", "so 50" and "SO50" are one name; so are "ES'HAIL 2" and "Eshail-2". */
export const nameKey = (name: string): string => name.toUpperCase().replace(/[^A-Z0-9]/g, '');

const byNorad = new Map<number, string>();
const byName = new Map<string, string>();
for (const e of (table as { satellites: Entry[] }).satellites) {
  for (const n of e.norad) byNorad.set(n, e.lotw);
  for (const n of [e.lotw, ...e.aka]) byName.set(nameKey(n), e.lotw);
}

/** When and from where the table was compiled (shown beside the export, kept in the repo). */
export const LOTW_TABLE_COMPILED: string = (table as { compiled: string }).compiled;

/** Every SAT_NAME LoTW knows, as TQSL spells it. */
export const LOTW_SAT_NAMES: readonly string[] = (table as { satellites: Entry[] }).satellites.map((e) => e.lotw);

/**
 * LoTW's SAT_NAME for a satellite, or null when LoTW has no name for it (then the QSO is still
 * logged, but LoTW will not take it as a satellite QSO). The NORAD number wins over names: a
 * name can be reused (CelesTrak renames, "PSAT" vs "PSAT-2"), a catalog number cannot.
 */
export function lotwSatName(sat: SatelliteIdentity): string | null {
  if (sat.norad_id != null) {
    const hit = byNorad.get(sat.norad_id);
    if (hit) return hit;
  }
  for (const n of sat.names ?? []) {
    const hit = byName.get(nameKey(n));
    if (hit) return hit;
  }
  // CelesTrak writes the designation in parentheses: "EYESAT A (AO-27)", "JY1SAT (JO-97)".
  for (const n of sat.names ?? []) {
    for (const m of n.matchAll(/\(([^)]+)\)/g)) {
      const hit = byName.get(nameKey(m[1]));
      if (hit) return hit;
    }
  }
  return null;
}
