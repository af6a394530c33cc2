// The contract between the catalog (parsing, refresh, enrichment) and everything that
// consumes satellites (orbit engine, guidance, station, routes).

/** CelesTrak OMM/GP mean elements (the JSON keys CelesTrak serves). satellite.js json2satrec takes this. */
export interface OmmElements {
  OBJECT_NAME: string;
  OBJECT_ID?: string;
  EPOCH: string; // ISO 8601 UTC without zone, as CelesTrak writes it
  MEAN_MOTION: number; // rev/day
  ECCENTRICITY: number;
  INCLINATION: number; // deg
  RA_OF_ASC_NODE: number; // deg
  ARG_OF_PERICENTER: number; // deg
  MEAN_ANOMALY: number; // deg
  EPHEMERIS_TYPE?: number;
  CLASSIFICATION_TYPE?: string;
  NORAD_CAT_ID: number; // may exceed 99999
  ELEMENT_SET_NO?: number;
  REV_AT_EPOCH?: number;
  BSTAR: number;
  MEAN_MOTION_DOT: number;
  MEAN_MOTION_DDOT: number;
}

export interface OperationalStatus {
  source: string;
  summary: string;
  matched_name: string;
}

/** Satellite item (spec part 2) plus the elements behind it. */
export interface Satellite {
  sat_id: string;
  norad_id: number;
  name: string;
  is_iss: boolean;
  has_amateur_radio: boolean;
  transponders: string[];
  repeaters: string[];
  /** Empty object fields until status enrichment matched something. */
  operational_status: OperationalStatus;
  /** Epoch of the elements, epoch ms. */
  epoch_ms: number;
  elements: OmmElements;
}

/** An immutable catalog generation. A refresh builds a new one and bumps `version`. */
export interface Catalog {
  /** Changes whenever the element sets change; keys pass tables. */
  version: string;
  satellites: readonly Satellite[];
  byId: ReadonlyMap<string, Satellite>;
  byNorad: ReadonlyMap<number, Satellite>;
  /** "bundled" or the persisted refresh. */
  origin: string;
  loaded_at_ms: number;
}

export interface CatalogProvider {
  current(): Catalog;
  /** Called with the new catalog after every replacement. Returns an unsubscribe function. */
  onChange(fn: (c: Catalog) => void): () => void;
}

export const ISS_NORAD_ID = 25544;
export const ISS_SAT_ID = 'iss';

/** The whole active catalog is ~16k objects (2026): 30k leaves room and bounds what a source or a state file can cost. */
export const MAX_CATALOG_RECORDS = 30_000;
