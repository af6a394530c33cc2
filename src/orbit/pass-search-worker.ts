import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { OmmElements } from '../catalog/types.js';
import { errorMessage } from '../util/errors.js';
import { drainSliced } from '../util/loop-slices.js';
import { CatalogSearch } from './catalog-search.js';
import { Propagator, type OrbitInput } from './propagator.js';
import type { Observer } from './types.js';

// The whole-catalogue pass search on a worker thread that exists only while it works (issue 36):
// the 16k catalogue's search is ~15 s of CPU here, and on the event loop even in slices its
// satrecs, finder state and GC pauses sat on the serving thread (loop blocks of 20–30 ms at full
// speed). The worker gets the elements as one Float64Array and one string, builds its own
// satrecs, and hands back the flat rows [sat, aos, tca, los, max_el]* as a transferred buffer:
// nothing to parse on the main thread, and everything the search allocated dies with the worker.
//
// This file is both ends. Loaded on the main thread it only exports searchOffThread; started as
// a worker with the job's workerData it runs the job. The build makes it its own entry
// (dist/pass-search.mjs, sharing chunks with the server); from source (tsx) the worker loads this
// very file.

const JOB = 'satstation:pass-search';
/** The numbers of one satellite's elements, in this order (json2satrec reads the same names). */
const FIELDS = ['NORAD_CAT_ID', 'MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;
const NF = FIELDS.length;
/**
 * The worker's heap: its satrecs are released after each satellite, so it holds the finder's
 * scratch and one satellite's satrec at a time (the rows live outside the heap); a small young
 * generation keeps the short-lived garbage's RSS down, as the unit's --max-semi-space-size does.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 4 };

export interface SearchJob {
  job: typeof JOB;
  /** NF numbers per satellite, by the main propagator's index. */
  fields: Float64Array;
  /** EPOCH strings, one line per satellite ('' for one SGP4 cannot use). */
  epochs: string;
  obs: Observer;
  from: number;
  to: number;
  minAos: number;
}

interface Answer {
  buffer: ArrayBuffer;
  length: number;
  failed: number;
}

export type OffThreadSearch =
  | { kind: 'done'; rows: Float64Array; failed: number }
  /** No result: the caller searches on the loop (the worker could not start, ran out of memory, or a satellite has no elements). */
  | { kind: 'failed'; message: string }
  | { kind: 'aborted' };

/** Satellites encoded between two yields (16k in one go was a 6 ms block here). */
const ENCODE_STEP = 1024;

/** The job's inputs, or null when a satellite has only a satrec (tests and benches feeding TLE lines). */
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

/**
 * This module's own file as the worker's script: dist/pass-search.mjs when built. From source
 * (tests under tsx) a worker does not inherit tsx's loader, so it imports this file through tsx's
 * API (a dev dependency, present wherever the .ts files run).
 */
function workerScript(): { script: string | URL; eval: boolean } {
  const here = import.meta.url;
  if (here.endsWith('.ts')) return { script: `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(here)}, ${JSON.stringify(here)}))`, eval: true };
  return { script: new URL(/\/chunks\/[^/]+$/.test(here) ? '../pass-search.mjs' : './pass-search.mjs', here), eval: false };
}

/**
 * The passes of every satellite of `prop` over [from, to) (AOS ≥ minAos), found on a worker
 * thread. Never throws; an abort terminates the worker.
 */
export async function searchOffThread(prop: Propagator, obs: Observer, from: number, to: number, minAos: number, signal: AbortSignal): Promise<OffThreadSearch> {
  const job = await searchJob(prop, obs, from, to, minAos);
  if (!job) return { kind: 'failed', message: 'a satellite has a satrec but no elements' };
  return runSearchWorker(workerScript(), job, signal);
}

/** The worker's job for `prop` (its elements encoded in slices), or null when a satellite has no elements. */
export async function searchJob(prop: Propagator, obs: Observer, from: number, to: number, minAos: number): Promise<SearchJob | null> {
  const enc = await drainSliced(encodeOrbits(prop));
  return enc && { job: JOB, fields: enc.fields, epochs: enc.epochs, obs: { lat_deg: obs.lat_deg, lon_deg: obs.lon_deg, alt_m: obs.alt_m }, from, to, minAos };
}

/** Runs `job` on a worker started from `w` (the built dist/pass-search.mjs, or this file from source); never throws. */
export function runSearchWorker(w: { script: string | URL; eval: boolean }, job: SearchJob, signal: AbortSignal): Promise<OffThreadSearch> {
  if (signal.aborted) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    let worker: Worker | null = null;
    const settle = (r: OffThreadSearch) => {
      signal.removeEventListener('abort', onAbort);
      resolve(r); // later calls are no-ops
    };
    const onAbort = () => {
      settle({ kind: 'aborted' });
      void worker?.terminate();
    };
    try {
      worker = new Worker(w.script, { eval: w.eval, workerData: job, transferList: [job.fields.buffer as ArrayBuffer], resourceLimits: WORKER_LIMITS });
    } catch (err) {
      settle({ kind: 'failed', message: `the search worker did not start: ${errorMessage(err)}` });
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (a: Answer) => settle({ kind: 'done', rows: new Float64Array(a.buffer, 0, a.length), failed: a.failed }));
    worker.once('error', (err) => settle({ kind: 'failed', message: `the search worker failed: ${errorMessage(err)}` }));
    worker.once('exit', (code) => settle({ kind: 'failed', message: `the search worker exited (code ${code}) without an answer` }));
  });
}

function runJob(j: SearchJob): void {
  const search = new CatalogSearch(new Propagator(decodeOrbits(j.fields, j.epochs)), j.obs, j.from, j.to, j.minAos);
  for (let u = 0; u < search.units; u++) search.run(u);
  const rows = search.col.rows;
  const answer: Answer = { buffer: rows.buffer as ArrayBuffer, length: rows.length, failed: search.failed.size };
  parentPort!.postMessage(answer, [answer.buffer]);
}

if (!isMainThread && (workerData as Partial<SearchJob> | null)?.job === JOB) runJob(workerData as SearchJob);
