// Fetch one catalog/status source: an http(s) URL (fetch-http.ts) or a file path, under the same
// timeout and size cap, answering the same union of result kinds; never throws.
import { constants } from 'node:fs';
import { closeFile, fstatOf, openFile, readInto, statOf } from '../util/fs-calls.js';
import { drainSliced } from '../util/loop-slices.js';
import { ByteSink } from './byte-sink.js';
import { fetchHttp, kib, type FetchOptions, type FetchResult } from './fetch-http.js';
import { monotonicMs } from '../util/monotonic.js';

export type { FetchOptions, FetchResult } from './fetch-http.js';

export const isUrl = (s: string) => /^https?:\/\//i.test(s);

/**
 * https runs on a worker thread: TLS's modules, the first name's IPv6 check (a regex that compiles
 * for ~8 ms), the handshake's key exchange and the certificate checks cost tens of ms here, hundreds
 * on a Pi, all of it on the serving thread otherwise (issue 36). Plain http (a mirror on the LAN,
 * the tests' fixtures) costs none of that and stays on the loop.
 */
export async function fetchSource(source: string, o: FetchOptions): Promise<FetchResult> {
  if (!isUrl(source)) return readFileCapped(source, o);
  if (!/^https:/i.test(source)) return fetchHttp(source, o);
  const { fetchOffThread } = await import('./fetch-job.js');
  return fetchOffThread(source, o);
}

const READ_CHUNK = 64 * 1024;

/**
 * A file source. Only a regular file is read (a FIFO would block, /dev/zero never ends, and
 * neither is a catalog); opened non-blocking so even a FIFO swapped in after the check cannot
 * hang the open; read in chunks under the size cap and the timeout, whatever fstat said.
 */
async function readFileCapped(path: string, o: FetchOptions): Promise<FetchResult> {
  const fail = (message: string): FetchResult => ({ kind: 'error', status: null, message, retryAfterMs: null });
  const started = monotonicMs();
  try {
    if (!(await statOf(path)).isFile()) return fail(`${path} is not a regular file`);
    const fd = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    try {
      const st = await fstatOf(fd);
      if (!st.isFile()) return fail(`${path} is not a regular file`);
      // Sized from fstat (one buffer, no join), falling back to chunks if the file grows.
      const sink = new ByteSink(o.maxBytes, st.size);
      for (;;) {
        const chunk = Buffer.allocUnsafe(READ_CHUNK);
        const { bytesRead } = await readInto(fd, chunk, 0, READ_CHUNK, null);
        if (bytesRead === 0) break;
        if (!sink.add(chunk.subarray(0, bytesRead))) return fail(`file exceeds the size cap of ${kib(o.maxBytes)}`);
        if (monotonicMs() - started > o.timeoutMs) return fail(`reading ${path} timed out after ${o.timeoutMs} ms`);
        if (o.signal?.aborted) return fail('stopped');
      }
      const body = await drainSliced(sink.takeSteps());
      return { kind: 'data', body, bytes: body.length, etag: null, lastModified: null, maxAgeMs: null, finalUrl: path };
    } finally {
      await closeFile(fd);
    }
  } catch (err) {
    return fail(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
}
