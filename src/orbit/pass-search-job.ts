import type { OmmElements } from '../catalog/types.js';
import { drainSliced } from '../util/loop-slices.js';
import { runWorkerJob, type JobOutcome, type WorkerScript } from '../util/worker-job.js';
import { CatalogSearch } from './catalog-search.js';
import { Propagator, type OrbitInput } from './propagator.js';
import type { Observer } from './types.js';

// The whole-catalogue pass search as a worker job (src/util/worker-job.ts): the 16k catalogue's
// search is ~3 s of CPU here, and on the loop even in slices its satrecs and finder garbage, and
// the collector's pauses over them, sat on the serving thread (loop blocks of 20–30 ms at full
// speed). The worker gets the elements as one Float64Array and one string, builds its own
// satrecs, and answers with the flat rows [sat, aos, tca, los, max_el]* in a transferred buffer:
// nothing to parse on the main thread, and everything the search allocated dies with the worker.

const JOB = 'pass-search';
/** The numbers of one satellite's elements, in this order (json2satrec reads the same names). */
const FIELDS = ['NORAD_CAT_ID', 'MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;
const NF = FIELDS.length;
/**
 * The worker's heap: its satrecs are released after each satellite, so it holds the finder's
 * scratch and one satellite's satrec at a time (the rows live outside the heap); a small young
 * generation keeps the short-lived garbage's RSS down, as the unit's --max-semi-space-size does.
 */
const LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };
/** Satellites encoded between two yields (16k in one go was a 6 ms block here). */
const ENCODE_STEP = 1024;

export interface PassSearchInput {
  /** NF numbers per satellite, by the main propagator's index. */
  fields: Float64Array;
  /** EPOCH strings, one line per satellite. */
  epochs: string;
  obs: Observer;
  from: number;
  to: number;
  minAos: number;
}

export interface PassSearchAnswer {
  buffer: ArrayBuffer;
  length: number;
  failed: number;
}

export type OffThreadSearch = JobOutcome<{ rows: Float64Array; failed: number }>;

function* encodeOrbits(prop: Propagator): Generator<void, { fields: Float64Array; epochs: string } | null, undefined> {
  const n = prop.size;
  const fields = new Float64Array(n * NF);
  const epochs: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const el = prop.elementsOf(i);
    if (!el) return null;
    for (let f = 0; f < NF; f++) fields[i * NF + f] = el[FIELDS[f]];
    epochs[i] = el.EPOCH;
    if (i % ENCODE_STEP === ENCODE_STEP - 1) yield;
  }
  return { fields, epochs: epochs.join('\n') };
}

function decodeOrbits(fields: Float64Array, epochs: string): OrbitInput[] {
  return epochs.split('\n').map((EPOCH, i) => {
    const el = { OBJECT_NAME: '', EPOCH } as Record<string, unknown>;
    for (let f = 0; f < NF; f++) el[FIELDS[f]] = fields[i * NF + f];
    return { sat_id: String(i), name: '', elements: el as unknown as OmmElements };
  });
}

/** The job's input for `prop` (its elements encoded in slices), or null when a satellite has only a satrec (tests and benches feeding TLE lines). */
export async function passSearchInput(prop: Propagator, obs: Observer, from: number, to: number, minAos: number): Promise<PassSearchInput | null> {
  const enc = await drainSliced(encodeOrbits(prop));
  return enc && { fields: enc.fields, epochs: enc.epochs, obs: { lat_deg: obs.lat_deg, lon_deg: obs.lon_deg, alt_m: obs.alt_m }, from, to, minAos };
}

/**
 * The passes of every satellite of `prop` over [from, to) (AOS ≥ minAos), found on a worker
 * thread. Never throws; an abort terminates the worker.
 */
export async function searchOffThread(prop: Propagator, obs: Observer, from: number, to: number, minAos: number, signal: AbortSignal, script?: WorkerScript): Promise<OffThreadSearch> {
  const input = await passSearchInput(prop, obs, from, to, minAos);
  if (!input) return { kind: 'failed', message: 'a satellite has a satrec but no elements' };
  const r = await runWorkerJob<PassSearchAnswer>(JOB, input, { signal, limits: LIMITS, transfer: [input.fields.buffer as ArrayBuffer], script });
  return r.kind === 'done' ? { kind: 'done', value: { rows: new Float64Array(r.value.buffer, 0, r.value.length), failed: r.value.failed } } : r;
}

/** The worker side (src/worker.ts). */
export function passSearchJob(j: PassSearchInput): { value: PassSearchAnswer; transfer: ArrayBuffer[] } {
  const search = new CatalogSearch(new Propagator(decodeOrbits(j.fields, j.epochs)), j.obs, j.from, j.to, j.minAos);
  for (let u = 0; u < search.units; u++) search.run(u);
  const rows = search.col.rows;
  const value: PassSearchAnswer = { buffer: rows.buffer as ArrayBuffer, length: rows.length, failed: search.failed.size };
  return { value, transfer: [value.buffer] };
}
