// The contract between the orbit engine and its consumers (guidance, station, routes).
// Times are epoch ms inside the engine; routes render ISO strings.
import type { ArrayJson } from '../util/json-bytes.js';

export interface Observer {
  lat_deg: number;
  lon_deg: number;
  alt_m: number;
}

/** Live track sample (spec part 2). */
export interface LiveSample {
  sat_id: string;
  name: string;
  timestamp: string;
  az_deg: number;
  el_deg: number;
  range_km: number;
  range_rate_km_s: number;
  sunlit: boolean;
}

/** Track path point (spec part 2) plus the range rate guidance reads (rule 4). */
export interface PathPoint {
  sat_id: string;
  timestamp: string;
  t_ms: number;
  az_deg: number;
  el_deg: number;
  range_km: number;
  range_rate_km_s: number;
  sunlit: boolean;
}

/** A path point with the sub-satellite point under it (the ground track). */
export interface GroundPathPoint extends PathPoint {
  lat_deg: number;
  lon_deg: number;
  alt_km: number;
}

/**
 * A predicted pass. aos/tca/los carry milliseconds. A pass table's event is a view of its row
 * (getters): copy one with pass-table.ts's plainPass, not a spread.
 */
export interface PassEvent {
  sat_id: string;
  name: string;
  aos_ms: number;
  tca_ms: number;
  los_ms: number;
  max_el_deg: number;
  /** Also ISO strings, ready for JSON. */
  aos: string;
  tca: string;
  los: string;
}

/** Passes by AOS, cut at a query's limit; `total` counts every match. */
export type PassList = PassEvent[] & { total: number };

export interface PassQuery {
  from_ms: number;
  hours: number;
  min_max_el_deg: number;
  /** Restrict to these satellites; undefined = all. */
  sat_ids?: readonly string[];
  /** Let passes already under way at from_ms in (true AOS in the past). */
  include_ongoing: boolean;
  /** At most this many (the earliest by AOS); all when absent. */
  limit?: number;
}

export interface OrbitService {
  observer(): Observer;
  /** Live samples at one timestamp (cached per second and shared by every caller). */
  live(at_ms: number, sat_ids?: readonly string[]): LiveSample[];
  /** Every satellite at the whole second of at_ms: the JSON bytes of the samples' array (made off the loop or in slices). */
  liveAllJson(at_ms: number): Promise<{ second_ms: number; items: ArrayJson }>;
  sample(sat_id: string, at_ms: number): LiveSample | null;
  /** Sampled path; bounded by the caller's validation. */
  path(sat_id: string, from_ms: number, minutes: number, step_seconds: number): PathPoint[];
  /** The same path with the sub-satellite point of each sample (for a ground-track map). */
  groundPath(sat_id: string, from_ms: number, minutes: number, step_seconds: number): GroundPathPoint[];
  /** Passes from the precomputed table, sorted by AOS. */
  passes(q: PassQuery): PassEvent[];
  /** What passes() answers from: the current pass table (a new object whenever one replaces it), null while none. */
  passSource(): object | null;
  /** The pass under way at at_ms, else the next one (within the table horizon). */
  currentOrNextPass(sat_id: string, at_ms: number): PassEvent | null;
}
