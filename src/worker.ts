import { setPriority } from 'node:os';
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { JobAnswer } from './util/worker-job.js';
import { errorMessage } from './util/errors.js';

// The worker threads' entry (dist/worker.cjs): runs the one job it was started for and posts its
// answer (src/util/worker-job.ts starts it). Each job's module is loaded on demand, so a pass
// search's worker never reads the catalogue parser and the other way round.

/** A job's worker side: the answer and the buffers in it to hand over instead of copying. */
export type JobRun = (input: never) => JobResult | Promise<JobResult>;
type JobResult = { value: unknown; transfer: ArrayBuffer[] };

const JOBS: Record<string, () => Promise<JobRun>> = {
  'pass-search': async () => (await import('./orbit/pass-search-job.js')).passSearchJob,
  'live-all': async () => (await import('./orbit/live-all-job.js')).liveAllJob,
  'catalog-parse': async () => (await import('./catalog/parse-job.js')).catalogParseJob,
  'source-fetch': async () => (await import('./catalog/fetch-job.js')).sourceFetchJob,
};

/**
 * The worker thread's niceness: lowest. A job is background work; the serving thread must win
 * every contest for a core (on Linux this sets the calling thread's priority only). Measured on
 * two cores: with the 16k pass search at the same priority the loop was kept off the CPU for up to
 * 30 ms at a time.
 */
const NICE = 19;

async function run(): Promise<void> {
  try {
    setPriority(NICE);
  } catch {
    /* not allowed here: the job still runs */
  }
  const { job, input } = workerData as { job: string; input: never };
  const load = JOBS[job];
  if (!load) throw new Error(`no job named "${job}"`);
  const { value, transfer } = await (await load())(input);
  parentPort!.postMessage({ ok: true, value } satisfies JobAnswer, transfer);
}

if (!isMainThread && parentPort) {
  run().catch((err: unknown) => parentPort!.postMessage({ ok: false, message: errorMessage(err) } satisfies JobAnswer));
}
