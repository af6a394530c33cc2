import { readFileSync } from 'node:fs';
import { splitTle, tleToElements } from '../../src/catalog/tle.js';
import type { OmmElements } from '../../src/catalog/types.js';
import type { OrbitInput } from '../../src/orbit/propagator.js';

// Element sets for the pure orbit tests: a byte-exact copy of the CelesTrak amateur-group
// snapshot (2026-08, CRLF) kept with the tests, so they never depend on anything outside the repo.
export const TLE_DIR = new URL('./fixtures/', import.meta.url);
/** The bundled elements are from August 2026: every orbit test runs at this fixed instant. */
export const T0 = Date.parse('2026-08-22T12:00:00Z');

export function loadTle(file: string): (OrbitInput & { elements: OmmElements; line1: string; line2: string })[] {
  const { sets } = splitTle(readFileSync(new URL(file, TLE_DIR), 'utf8'));
  return sets.flatMap((s) => {
    const el = tleToElements(s);
    if (!('EPOCH' in el)) return [];
    return [{ sat_id: String(el.NORAD_CAT_ID), name: s.name, elements: el, line1: s.line1, line2: s.line2 }];
  });
}

export function byNorad<T extends { elements: OmmElements }>(list: T[], norad: number): T {
  const s = list.find((x) => x.elements.NORAD_CAT_ID === norad);
  if (!s) throw new Error(`NORAD ${norad} not in the test data`);
  return s;
}

export const GREENWICH = { lat_deg: 51.4779, lon_deg: -0.0015, alt_m: 46 };
export const SYDNEY = { lat_deg: -33.8688, lon_deg: 151.2093, alt_m: 58 };
export const ANCHORAGE = { lat_deg: 61.2181, lon_deg: -149.9003, alt_m: 40 };
export const QUITO = { lat_deg: -0.1807, lon_deg: -78.4678, alt_m: 2850 };
