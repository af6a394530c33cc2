// Element sets + ids + radio facts + statuses → an immutable Catalog generation.
import type { RadioTable } from './bundled.js';
import { ISS_NORAD_ID, type Catalog, type OmmElements, type OperationalStatus, type Satellite } from './types.js';
import { packElementsSteps } from './element-table.js';
import { epochMs } from './validate.js';
import { drain } from '../util/loop-slices.js';
import { Hash64 } from '../util/hash64.js';

/** Records handled between yields of the *Steps generators (~0.1–0.3 ms here). */
const STEP = 64;
const byNorad = (a: OmmElements, b: OmmElements) => a.NORAD_CAT_ID - b.NORAD_CAT_ID;

export const EMPTY_STATUS: OperationalStatus = Object.freeze({ source: '', summary: '', matched_name: '' });
/** Most satellites of a large catalogue have no transponders or repeaters: one shared empty list, not two arrays each. */
const NONE = Object.freeze([]) as unknown as string[];

function* versionSteps(sorted: readonly OmmElements[]): Generator<void, string, undefined> {
  const h = new Hash64();
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    h.update(
      `${e.NORAD_CAT_ID}|${e.EPOCH}|${e.MEAN_MOTION}|${e.ECCENTRICITY}|${e.INCLINATION}|${e.RA_OF_ASC_NODE}|` +
        `${e.ARG_OF_PERICENTER}|${e.MEAN_ANOMALY}|${e.BSTAR}|${e.MEAN_MOTION_DOT}|${e.MEAN_MOTION_DDOT}\n`,
    );
    if (i % STEP === STEP - 1) yield;
  }
  return `c${sorted.length}-${h.hex()}`;
}

/** Changes whenever any element set changes (and only then): keys pass tables. */
export function catalogVersion(elements: readonly OmmElements[]): string {
  return drain(versionSteps([...elements].sort(byNorad)));
}

export interface BuildInput {
  elements: readonly OmmElements[];
  ids: ReadonlyMap<number, string>;
  radio: RadioTable;
  statuses: ReadonlyMap<number, OperationalStatus>;
  origin: string;
  loadedAtMs: number;
  /** Reuse a known version (status-only rebuilds) instead of hashing again. */
  version?: string;
}

export const buildCatalog = (o: BuildInput): Catalog => drain(buildCatalogSteps(o));

export function* buildCatalogSteps(o: BuildInput): Generator<void, Catalog, undefined> {
  const satellites: Satellite[] = [];
  const byId = new Map<string, Satellite>();
  const byNoradId = new Map<number, Satellite>();
  // The catalogue's elements in columns, in NORAD order: each satellite's are a view of its row.
  const table = yield* packElementsSteps([...o.elements].sort(byNorad));
  yield;
  const sorted: OmmElements[] = new Array(table.count);
  for (let i = 0; i < table.count; i++) {
    const el = (sorted[i] = table.row(i));
    const norad = el.NORAD_CAT_ID;
    const sat_id = o.ids.get(norad);
    if (!sat_id) throw new Error(`no sat_id for NORAD ${norad}`);
    const facts = o.radio.facts[String(norad)];
    const sat: Satellite = {
      sat_id,
      norad_id: norad,
      name: el.OBJECT_NAME,
      is_iss: norad === ISS_NORAD_ID,
      has_amateur_radio: o.radio.ham.has(norad) || !!facts,
      transponders: facts?.transponders ?? NONE,
      repeaters: facts?.repeaters ?? NONE,
      operational_status: o.statuses.get(norad) ?? EMPTY_STATUS,
      epoch_ms: epochMs(el),
      elements: el,
    };
    satellites.push(sat);
    byId.set(sat_id, sat);
    byNoradId.set(norad, sat);
    if (i % STEP === STEP - 1) yield;
  }
  return {
    version: o.version ?? (yield* versionSteps(sorted)),
    satellites,
    byId,
    byNorad: byNoradId,
    origin: o.origin,
    loaded_at_ms: o.loadedAtMs,
  };
}

/** The spec's satellite item (no elements). */
export function satelliteItem(s: Satellite) {
  return {
    sat_id: s.sat_id,
    norad_id: s.norad_id,
    name: s.name,
    is_iss: s.is_iss,
    has_amateur_radio: s.has_amateur_radio,
    transponders: s.transponders,
    repeaters: s.repeaters,
    operational_status: s.operational_status,
  };
}
