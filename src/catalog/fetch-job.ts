import { logger } from '../util/logger.js';
import { ownBuffer } from '../util/own-buffer.js';
import { runWorkerJob, type WorkerScript } from '../util/worker-job.js';
import { fetchHttp, type FetchOptions, type FetchResult } from './fetch-http.js';

// An https source fetched as a worker job (src/util/worker-job.ts), on a thread that exists only
// while it fetches: TLS's modules load there, and the handshake and certificate checks run there,
// never on the serving thread (fetch-source.ts says why). The body comes back as its own buffer,
// handed over, not copied; a large one then goes on to the parse job the same way.

const JOB = 'source-fetch';
/** The fetch holds the body off its heap (Buffers); TLS and node:http need a few MiB. */
const LIMITS = { maxOldGenerationSizeMb: 24, maxYoungGenerationSizeMb: 2 };
/** Past the fetch's own timeout: a worker that never answers is ended. */
const GUARD_MS = 5_000;

const log = logger('catalog-refresh');
const STOPPED: FetchResult = { kind: 'error', status: null, message: 'stopped', retryAfterMs: null };

/** What the job is given: FetchOptions without the signal (aborting ends the worker). */
export type FetchJobInput = Omit<FetchOptions, 'signal'> & { url: string };

/** FetchResult with the body as a buffer to hand over. */
export type FetchJobAnswer =
  | Exclude<FetchResult, { kind: 'data' }>
  | (Omit<Extract<FetchResult, { kind: 'data' }>, 'body'> & { buffer: ArrayBuffer; length: number });

/**
 * fetchHttp(url, o) on a worker thread; never throws. Aborting `o.signal` ends the worker at once.
 * A worker that cannot start or dies fetches on the loop instead, as before there were workers.
 */
export async function fetchOffThread(url: string, o: FetchOptions, script?: WorkerScript): Promise<FetchResult> {
  if (o.signal?.aborted) return STOPPED;
  const ctl = new AbortController();
  const stop = () => ctl.abort();
  o.signal?.addEventListener('abort', stop);
  const guard = setTimeout(stop, o.timeoutMs + GUARD_MS);
  try {
    const input: FetchJobInput = { url, timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, etag: o.etag, lastModified: o.lastModified, nowMs: o.nowMs };
    const r = await runWorkerJob<FetchJobAnswer>(JOB, input, { signal: ctl.signal, limits: LIMITS, script });
    if (r.kind === 'aborted') return o.signal?.aborted ? STOPPED : { kind: 'error', status: null, message: `timed out after ${o.timeoutMs} ms`, retryAfterMs: null };
    if (r.kind === 'failed') {
      log.warn(`fetching ${url} on the loop instead: ${r.message}`);
      return fetchHttp(url, o);
    }
    const a = r.value;
    if (a.kind !== 'data') return a;
    const { buffer, length, ...rest } = a;
    return { ...rest, body: Buffer.from(buffer, 0, length) };
  } finally {
    clearTimeout(guard);
    o.signal?.removeEventListener('abort', stop);
  }
}

/** The worker side (src/worker.ts). */
export async function sourceFetchJob(j: FetchJobInput): Promise<{ value: FetchJobAnswer; transfer: ArrayBuffer[] }> {
  const { url, ...o } = j;
  const r = await fetchHttp(url, o);
  // Kept-alive connections would hold the thread open for seconds after the answer.
  for (const m of [await import('node:https'), await import('node:http')]) m.globalAgent.destroy();
  if (r.kind !== 'data') return { value: r, transfer: [] };
  const { body, ...rest } = r;
  const buffer = ownBuffer(body);
  return { value: { ...rest, buffer, length: body.length }, transfer: [buffer] };
}
