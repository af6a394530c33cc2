import { pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { errorMessage } from './errors.js';

// A job on a worker thread that exists only while it works (issue 36): the 16k catalogue's pass
// search and a large source's parse allocate tens of MiB of short-lived objects, and on the event
// loop even in slices their CPU and the collector's pauses sat on the serving thread. The worker
// runs src/worker.ts (dist/worker.cjs when built), which loads only the named job's module; the
// input and the answer carry their bulk in transferred buffers, so neither side parses the other's
// data. The driver never throws: a worker that cannot start, runs out of its heap or dies is a
// failed job, and its caller decides (the search and /live run on the loop instead; the parse,
// whose body was handed over, fails its source until the next refresh).

export type JobOutcome<T> = { kind: 'done'; value: T } | { kind: 'failed'; message: string } | { kind: 'aborted' };

/** What the worker thread runs: the built dist/worker.cjs, or src/worker.ts from source. */
export interface WorkerScript {
  script: string | URL;
  /** `script` is code to evaluate, not a file. */
  eval: boolean;
}

/**
 * The worker entry beside the server's: dist/worker.cjs (this module may sit in dist/chunks). From
 * source (tests under tsx) a worker does not inherit tsx's loader, so the entry is imported
 * through tsx's API (a dev dependency, present wherever the .ts files run), unless
 * SATSTATION_WORKER_SCRIPT names a bundle of src/worker.ts to start from instead (test/run.mjs
 * builds one per run: tsx's loader costs each worker 0.3–1 s). Only from source: the built
 * server always runs its own dist/worker.cjs.
 */
export function defaultWorkerScript(): WorkerScript {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    const bundle = process.env.SATSTATION_WORKER_SCRIPT;
    if (bundle) return { script: pathToFileURL(bundle), eval: false };
    const entry = new URL('../worker.ts', here).href;
    return { script: `import('tsx/esm/api').then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(entry)}))`, eval: true };
  }
  return { script: new URL(/\/chunks\/[^/]+$/.test(here) ? '../worker.cjs' : './worker.cjs', here), eval: false };
}

export interface JobOptions {
  /** Ends the job: the worker is terminated at once. */
  signal: AbortSignal;
  /** The worker's heap limits (the deploy unit's flags bound the main thread's only). */
  limits?: ResourceLimits;
  /** The buffers of `input` handed over instead of copied. */
  transfer?: ArrayBuffer[];
  script?: WorkerScript;
}

/** The message the worker entry posts. */
export type JobAnswer = { ok: true; value: unknown } | { ok: false; message: string };

/** Runs job `name` with `input` on a fresh worker thread; never throws. */
export function runWorkerJob<T>(name: string, input: unknown, o: JobOptions): Promise<JobOutcome<T>> {
  if (o.signal.aborted) return Promise.resolve({ kind: 'aborted' });
  return new Promise((resolve) => {
    let worker: Worker | null = null;
    const settle = (r: JobOutcome<T>) => {
      o.signal.removeEventListener('abort', onAbort);
      resolve(r); // later calls are no-ops
    };
    const onAbort = () => {
      settle({ kind: 'aborted' });
      void worker?.terminate();
    };
    const w = o.script ?? defaultWorkerScript();
    try {
      worker = new Worker(w.script, { eval: w.eval, workerData: { job: name, input }, transferList: o.transfer, resourceLimits: o.limits });
    } catch (err) {
      settle({ kind: 'failed', message: `the ${name} worker did not start: ${errorMessage(err)}` });
      return;
    }
    o.signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (a: JobAnswer) => settle(a.ok ? { kind: 'done', value: a.value as T } : { kind: 'failed', message: `the ${name} worker failed: ${a.message}` }));
    worker.once('error', (err) => settle({ kind: 'failed', message: `the ${name} worker failed: ${errorMessage(err)}` }));
    worker.once('exit', (code) => settle({ kind: 'failed', message: `the ${name} worker exited (code ${code}) without an answer` }));
  });
}
