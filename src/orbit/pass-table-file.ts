import { unlink } from 'node:fs/promises';
import * as v from 'valibot';
import { MAX_CATALOG_RECORDS } from '../catalog/types.js';
import { readTextCapped, removeStaleTemps, writeFileAtomic } from '../store/atomic-file.js';
import { jsonShapeProblem } from '../store/json-shape.js';
import { logger } from '../util/logger.js';
import { eventLoopSlicer } from '../util/loop-slices.js';
import { PassTable, type PassTableKey } from './pass-table.js';

// The persisted pass cache (DATA_DIR/pass-cache.json): a small JSON header plus the rows as one
// flat number array [sat, aos_ms, tca_ms, los_ms, max_el_deg]*. Written atomically; a file that
// fails to parse is treated as absent (it is only a cache).

const log = logger('pass-table');

export const PASS_CACHE_FILE = 'pass-cache.json';
/** 16k satellites over 48 h are ~185k passes, ~9 MiB; the catalogue's record limit fits in 32 MiB. */
const PASS_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** Numbers in one array, two strings per satellite, a handful of containers: JSON.parse stays ~40 MiB at worst. */
const PASS_CACHE_SHAPE = { containers: 16, strings: 2 * MAX_CATALOG_RECORDS + 64, values: 4_000_000 };

const KeySchema = v.object({
  catalog_version: v.string(),
  lat: v.number(),
  lon: v.number(),
  alt_m: v.number(),
  horizon_h: v.number(),
});

const HeaderSchema = v.object({
  format: v.literal(1),
  key: KeySchema,
  from_ms: v.number(),
  to_ms: v.number(),
  sat_ids: v.array(v.string()),
  names: v.array(v.string()),
  // Checked by the loop below: valibot per element is slow on a 16k-satellite table.
  rows: v.custom<number[]>((x) => Array.isArray(x), 'rows must be an array'),
});

const yieldToLoop = eventLoopSlicer.yieldTo;
/** Passes serialised between two yields. */
const CHUNK = 2000;

/**
 * Serialises straight from the columns in chunks, yielding between them, so a large table never
 * stalls the loop. Each chunk becomes bytes at once and is written before the next is made: a
 * 16k-satellite table is ~9 MiB of text, and held whole (as a string or as parts) it sat on top
 * of the search's peak.
 */
export async function savePassTable(path: string, t: PassTable): Promise<void> {
  await writeFileAtomic(path, passTableParts(t));
}

/** The file's bytes, one chunk of passes at a time, a turn of the loop between chunks. */
export async function* passTableParts(t: PassTable): AsyncGenerator<Buffer> {
  const head = JSON.stringify({ format: 1, key: t.key, from_ms: t.from_ms, to_ms: t.to_ms, sat_ids: t.satIds, names: t.names });
  yield Buffer.from(head.slice(0, -1) + ',"rows":[');
  for (let k0 = 0; k0 < t.size; k0 += CHUNK) {
    await yieldToLoop();
    const chunk: string[] = [];
    for (let k = k0; k < Math.min(t.size, k0 + CHUNK); k++) chunk.push(`${t.sat[k]},${t.aos[k]},${t.tca[k]},${t.los[k]},${t.maxEl[k]}`);
    yield Buffer.from((k0 > 0 ? ',' : '') + chunk.join(','));
  }
  yield Buffer.from(']}');
}

/**
 * The persisted table, or null when absent, unreadable or malformed. Read, shape check, parse and
 * validation are separate turns of the loop: at boot this runs right after listen, and a first
 * request waits for one step, not for the whole load.
 */
export async function loadPassTable(path: string): Promise<PassTable | null> {
  removeStaleTemps(path);
  const read = readTextCapped(path, PASS_CACHE_MAX_BYTES);
  if (read.kind !== 'text') {
    if (read.kind === 'too-large' || read.kind === 'not-a-file') log.warn(`${path} ignored (${read.kind}); the table is recomputed and replaces it`);
    return null;
  }
  const text = read.text;
  await yieldToLoop();
  const shape = jsonShapeProblem(text, PASS_CACHE_SHAPE);
  if (shape) {
    log.warn(`${path} ignored: ${shape}; the table is recomputed and replaces it`);
    return null;
  }
  await yieldToLoop();
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  await yieldToLoop();
  const res = v.safeParse(HeaderSchema, raw);
  if (!res.success) return null;
  const h = res.output;
  if (h.rows.length % 5 !== 0 || h.names.length !== h.sat_ids.length) return null;
  for (let k = 0; k < h.rows.length; k++) if (typeof h.rows[k] !== 'number' || !Number.isFinite(h.rows[k])) return null;
  for (let k = 0; k < h.rows.length; k += 5) if (!(h.rows[k] >= 0 && h.rows[k] < h.sat_ids.length)) return null;
  return PassTable.build(h.key as PassTableKey, h.sat_ids, h.names, h.from_ms, h.to_ms, h.rows);
}

/** Removes the file; true when there was one. */
export async function removePassTable(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch {
    return false;
  }
}
