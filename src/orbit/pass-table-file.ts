import { unlinkSync } from 'node:fs';
import { unlinkFile } from '../util/fs-calls.js';
import { dirname, join } from 'node:path';
import * as v from 'valibot';
import { MAX_CATALOG_RECORDS } from '../catalog/types.js';
import { readBytesCapped, removeStaleTemps, writeFileAtomic } from '../store/atomic-file.js';
import { logger } from '../util/logger.js';
import { PassTable, type PassTableKey } from './pass-table.js';

// The persisted pass table (DATA_DIR/pass-table.bin, issue 36): a JSON header, then the table's
// own columns as they sit in memory (aos, tca, los, max_el as Float64, the satellite index as
// Int32, each `count` long, sorted by AOS). A load is one read and a copy per column: no parse, no
// sort, no object per pass (the JSON rows it replaces were ~0.2 s of the first requests' wait at
// a tenth of a core for the bundled catalogue, seconds for the 16k one). The numbers are the
// machine's own byte order: every target is little-endian, and a file made elsewhere fails the
// checks below. Written atomically; a file that fails a check is treated as absent (it is only a
// cache) and the table is recomputed. The JSON file of earlier versions is removed when met.

const log = logger('pass-table');

export const PASS_CACHE_FILE = 'pass-table.bin';
/** What earlier versions wrote: removed, never read (its table is recomputed once). */
const LEGACY_FILE = 'pass-cache.json';
/** 16k satellites over 48 h are ~220k passes, ~8 MiB; the catalogue's record limit fits in 32 MiB. */
const PASS_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const MAGIC = Buffer.from('SSPTBL1\n');
/** A header's bytes at most: two strings per satellite of the record limit. */
const MAX_HEAD_BYTES = 8 * 1024 * 1024;
const HEAD_AT = MAGIC.length + 4;

const KeySchema = v.object({
  catalog_version: v.string(),
  lat: v.number(),
  lon: v.number(),
  alt_m: v.number(),
  horizon_h: v.number(),
});

const HeaderSchema = v.object({
  format: v.literal(2),
  key: KeySchema,
  from_ms: v.number(),
  to_ms: v.number(),
  sat_ids: v.pipe(v.array(v.string()), v.maxLength(MAX_CATALOG_RECORDS)),
  names: v.pipe(v.array(v.string()), v.maxLength(MAX_CATALOG_RECORDS)),
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

/** Where the columns start: after the header, at a multiple of 8. */
const columnsAt = (headBytes: number) => Math.ceil((HEAD_AT + headBytes) / 8) * 8;

/** The file's bytes: the header, then views of the columns (nothing copied). */
export function passTableParts(t: PassTable): Buffer[] {
  const head = Buffer.from(JSON.stringify({ format: 2, key: t.key, from_ms: t.from_ms, to_ms: t.to_ms, sat_ids: t.satIds, names: t.names, count: t.size }));
  const lead = Buffer.alloc(columnsAt(head.length) - head.length);
  MAGIC.copy(lead, 0);
  lead.writeUInt32LE(head.length, MAGIC.length);
  const view = (a: Float64Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  // The header sits between the magic and its padding.
  return [lead.subarray(0, HEAD_AT), head, lead.subarray(HEAD_AT), view(t.aos), view(t.tca), view(t.los), view(t.maxEl), view(t.sat)];
}

export async function savePassTable(path: string, t: PassTable): Promise<void> {
  await writeFileAtomic(path, passTableParts(t));
  removeLegacy(path);
}

function removeLegacy(path: string): void {
  try {
    unlinkSync(join(dirname(path), LEGACY_FILE));
  } catch {
    /* none: the usual case */
  }
}

/** A column of `count` values copied out of the file (its offset need not be aligned). */
function column<T extends Float64Array | Int32Array>(make: new (n: number) => T, bytes: Buffer, at: number, count: number): T {
  const out = new make(count);
  new Uint8Array(out.buffer).set(bytes.subarray(at, at + out.byteLength));
  return out;
}

/** The table in `bytes`, or why not. */
export function decodePassTable(bytes: Buffer): PassTable | string {
  if (bytes.length < HEAD_AT || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return 'not a pass table file';
  const headBytes = bytes.readUInt32LE(MAGIC.length);
  if (headBytes > MAX_HEAD_BYTES || HEAD_AT + headBytes > bytes.length) return 'its header is cut short';
  let raw: unknown;
  try {
    raw = JSON.parse(bytes.toString('utf8', HEAD_AT, HEAD_AT + headBytes));
  } catch {
    return 'its header is not JSON';
  }
  const res = v.safeParse(HeaderSchema, raw);
  if (!res.success) return 'its header is not a pass table\'s';
  const h = res.output;
  const n = h.count;
  const at = columnsAt(headBytes);
  if (h.names.length !== h.sat_ids.length || bytes.length !== at + n * 36) return 'its length does not match its header';
  const aos = column(Float64Array, bytes, at, n);
  const tca = column(Float64Array, bytes, at + 8 * n, n);
  const los = column(Float64Array, bytes, at + 16 * n, n);
  const maxEl = column(Float64Array, bytes, at + 24 * n, n);
  const sat = column(Int32Array, bytes, at + 32 * n, n);
  let maxDurationMs = 0;
  for (let k = 0; k < n; k++) {
    if (!(sat[k] >= 0 && sat[k] < h.sat_ids.length)) return 'a satellite index is out of range';
    if (!(Number.isFinite(aos[k]) && Number.isFinite(los[k]) && tca[k] >= aos[k] && los[k] >= tca[k] && maxEl[k] >= -90 && maxEl[k] <= 90)) return 'a pass is not a pass';
    if (k > 0 && aos[k] < aos[k - 1]) return 'the passes are not in AOS order';
    if (los[k] - aos[k] > maxDurationMs) maxDurationMs = los[k] - aos[k];
  }
  return new PassTable(h.key as PassTableKey, h.sat_ids, h.names, h.from_ms, h.to_ms, { sat, aos, tca, los, maxEl, maxDurationMs });
}

/** The persisted table, or null when absent, unreadable or malformed (the legacy JSON file is removed). */
export async function loadPassTable(path: string): Promise<PassTable | null> {
  removeStaleTemps(path);
  removeLegacy(path);
  const read = readBytesCapped(path, PASS_CACHE_MAX_BYTES);
  if (read.kind !== 'bytes') {
    if (read.kind === 'too-large' || read.kind === 'not-a-file') log.warn(`${path} ignored (${read.kind}); the table is recomputed and replaces it`);
    return null;
  }
  const t = decodePassTable(read.bytes);
  if (typeof t === 'string') {
    log.warn(`${path} ignored: ${t}; the table is recomputed and replaces it`);
    return null;
  }
  return t;
}

/** Removes the file; true when there was one. */
export async function removePassTable(path: string): Promise<boolean> {
  try {
    await unlinkFile(path);
    return true;
  } catch {
    return false;
  }
}
