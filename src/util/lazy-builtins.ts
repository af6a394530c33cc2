import { backgroundSlicer } from './loop-slices.js';

// Node's crypto and zlib, read on first use instead of at boot (issue 36): the two are ~2.5 MiB of
// a Node process's RSS and ~10 ms of CPU to load (a tenth of a second at a tenth of a core). A
// station that serves no page and has no operator token never reads them; one that does, reads
// them with its first page or its first locked request. Likewise node:fs/promises (below).

/**
 * A builtin by name, without node:module (whose load reads Node's ESM loader, ~1.5 ms of a boot's
 * CPU): process.getBuiltinModule where Node has it (20.16 and later), else the CommonJS `require`
 * the built server runs with (Debian 12's Node 18).
 */
const load = (id: string): unknown => (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule?.(id) ?? require(id);
let crypto: typeof import('node:crypto') | undefined;
let zlib: typeof import('node:zlib') | undefined;
let fsp: typeof import('node:fs/promises') | undefined;

export const nodeCrypto = (): typeof import('node:crypto') => (crypto ??= load('node:crypto') as typeof import('node:crypto'));
export const nodeZlib = (): typeof import('node:zlib') => (zlib ??= load('node:zlib') as typeof import('node:zlib'));
/**
 * Node's promise API of the file system, for a file answer's reads (a recording's audio): with it
 * come Node's readline interface, the file watchers and the directory reader (~5 ms of CPU and
 * ~0.9 MiB of RSS measured alone here); the core's own file calls are util/fs-calls.ts's.
 */
export const nodeFsPromises = (): typeof import('node:fs/promises') => (fsp ??= load('node:fs/promises') as typeof import('node:fs/promises'));

let zlibSoon: Promise<unknown> | null = null;

/**
 * zlib once it has been read, else null, and it is read at the next quiet moments (no request for
 * 100 ms, none open): the answers until then go out uncompressed instead of waiting for the
 * module (~7 ms of CPU, which a turn of its own right after the first request put in front of the
 * second). Node's streams, ~6 of the 7 ms, are read at one quiet moment and zlib at the next: one
 * turn of 7 ms is ~80 ms of loop block at a tenth of a core, past the serving budget's 100 with
 * anything else in that turn (docs/decisions/latency.md).
 */
export function nodeZlibIfReady(): typeof import('node:zlib') | null {
  if (zlib) return zlib;
  zlibSoon ??= backgroundSlicer
    .yieldTo()
    .then(nodeStreams)
    .then(() => backgroundSlicer.yieldTo())
    .then(nodeZlib);
  return null;
}

/** Node's streams (what zlib and serialport stand on), read ahead of them in a turn of their own. */
export const nodeStreams = (): void => void load('node:stream');

/** Resolves once zlib has been read, after nodeZlibIfReady asked for it (tests). */
export async function zlibRead(): Promise<void> {
  if (nodeZlibIfReady()) return;
  await zlibSoon;
}
