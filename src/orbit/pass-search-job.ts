import { drainSliced } from '../util/loop-slices.js';
import { runWorkerJob, type JobOutcome, type WorkerScript } from '../util/worker-job.js';
import { CatalogSearch } from './catalog-search.js';
import { decodeOrbits, encodeOrbitsSteps, plainObserver, type OrbitJobInput } from './orbits-transfer.js';
import type { Propagator } from './propagator.js';
import type { Observer } from './types.js';

// The whole-catalogue pass search as a worker job (src/util/worker-job.ts): the 16k catalogue's
// search is ~3 s of CPU here, and on the loop even in slices its satrecs and finder garbage, and
// the collector's pauses over them, sat on the serving thread (loop blocks of 20–30 ms at full
// speed). The worker gets the elements (orbits-transfer.ts), builds its own satrecs, and answers
// with the flat rows [sat, aos, tca, los, max_el]* in a transferred buffer: nothing to parse on
// the main thread, and everything the search allocated dies with the worker.

const JOB = 'pass-search';
/**
 * The worker's heap: its satrecs are released after each satellite, so it holds the finder's
 * scratch and one satellite's satrec at a time (the rows live outside the heap); a small young
 * generation keeps the short-lived garbage's RSS down, as the unit's --max-semi-space-size does.
 */
const LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };

export interface PassSearchInput extends OrbitJobInput {
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

/** The job's input for `prop` (its elements encoded in slices), or null when a satellite has only a satrec (tests and benches feeding TLE lines). */
export async function passSearchInput(prop: Propagator, obs: Observer, from: number, to: number, minAos: number): Promise<PassSearchInput | null> {
  const orbits = await drainSliced(encodeOrbitsSteps(prop, false));
  return orbits && { orbits, obs: plainObserver(obs), from, to, minAos };
}

/**
 * The passes of every satellite of `prop` over [from, to) (AOS ≥ minAos), found on a worker
 * thread. Never throws; an abort terminates the worker.
 */
export async function searchOffThread(prop: Propagator, obs: Observer, from: number, to: number, minAos: number, signal: AbortSignal, script?: WorkerScript): Promise<OffThreadSearch> {
  const input = await passSearchInput(prop, obs, from, to, minAos);
  if (!input) return { kind: 'failed', message: 'a satellite has a satrec but no elements' };
  const r = await runWorkerJob<PassSearchAnswer>(JOB, input, { signal, limits: LIMITS, transfer: [input.orbits.fields.buffer as ArrayBuffer], script });
  return r.kind === 'done' ? { kind: 'done', value: { rows: new Float64Array(r.value.buffer, 0, r.value.length), failed: r.value.failed } } : r;
}

/** The worker side (src/worker.ts). */
export function passSearchJob(j: PassSearchInput): { value: PassSearchAnswer; transfer: ArrayBuffer[] } {
  const search = new CatalogSearch(decodeOrbits(j.orbits), j.obs, j.from, j.to, j.minAos);
  for (let u = 0; u < search.units; u++) search.run(u);
  const rows = search.col.rows;
  const value: PassSearchAnswer = { buffer: rows.buffer as ArrayBuffer, length: rows.length, failed: search.failed.size };
  return { value, transfer: [value.buffer] };
}
