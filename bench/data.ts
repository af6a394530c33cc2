import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { amateurTleFile, benchDataFile } from './env.js';

// Reference element sets the benchmarks run on, kept in the repo (bench/data/README.md says
// where each came from), so `npm run bench` works from a fresh clone with nothing beside it;
// build.mjs copies them into dist/bench-data for dist/bench.mjs.

/** CelesTrak amateur group, 2026-08-22 (the same byte-exact copy the orbit tests use). */
export const AMATEUR_TLE = amateurTleFile();
/** CelesTrak stations group, 2026-08-22. */
export const STATIONS_TLE = benchDataFile('stations.tle');

const ACTIVE_SHA256 = '9b204a502324143f5d91057a255e425b9d173fb989471bdcbdce240dd23688e7';

/**
 * The CelesTrak active catalog (16,126 objects, 2026-07-24) as a plain file: the repo keeps it
 * brotli-compressed (0.6 MiB for 2.7); it is unpacked once into the OS temp dir (checked by
 * SHA-256, written by rename) because the child processes that measure refreshes read a path.
 */
export function activeTlePath(): string {
  const out = join(tmpdir(), `satstation-bench-active-${ACTIVE_SHA256.slice(0, 12)}.tle`);
  if (existsSync(out)) return out;
  const text = brotliDecompressSync(readFileSync(benchDataFile('active.tle.br')));
  const sha = createHash('sha256').update(text).digest('hex');
  if (sha !== ACTIVE_SHA256) throw new Error(`active.tle.br unpacks to ${sha}, expected ${ACTIVE_SHA256}`);
  const tmp = `${out}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, out);
  return out;
}
