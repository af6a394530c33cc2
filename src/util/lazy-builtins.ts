import { createRequire } from 'node:module';

// Node's crypto and zlib, read on first use instead of at boot (issue 36): the two are ~2.5 MiB of
// a Node process's RSS and ~10 ms of CPU to load (a tenth of a second at a tenth of a core). A
// station that serves no page and has no operator token never reads them; one that does, reads
// them with its first page or its first locked request.

const load = createRequire(import.meta.url);
let crypto: typeof import('node:crypto') | undefined;
let zlib: typeof import('node:zlib') | undefined;

export const nodeCrypto = (): typeof import('node:crypto') => (crypto ??= load('node:crypto') as typeof import('node:crypto'));
export const nodeZlib = (): typeof import('node:zlib') => (zlib ??= load('node:zlib') as typeof import('node:zlib'));

let zlibSoon = false;

/**
 * zlib once it has been read, else null, and it is read in a turn of its own right after: the
 * request that would be the first to compress goes out uncompressed instead of waiting for the
 * module (~5 ms of CPU, half a tenth of a second at a tenth of a core).
 */
export function nodeZlibIfReady(): typeof import('node:zlib') | null {
  if (zlib) return zlib;
  if (!zlibSoon) {
    zlibSoon = true;
    setImmediate(nodeZlib);
  }
  return null;
}
