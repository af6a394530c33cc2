import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readBytesCapped, removeStaleTemps, writeFileAtomic } from '../store/atomic-file.js';
import { Hash64 } from '../util/hash64.js';
import { RECORD_WORDS, type PackedRecords } from './propagator.js';
import { SGP4_LAYOUT } from './sgp4-packed.js';

// The catalogue's SGP4 records kept between runs (DATA_DIR/satrecs.bin, issue 36). SGP4's
// initialisation is ~0.1 ms a satellite once warm and several times that as the first code a boot
// runs: 10–20 ms of CPU for the bundled catalogue, paid by the first /live, lite snapshot or path
// after every start (100–200 ms of one request at a tenth of a core). The records depend only on
// the elements, so a run writes them once per catalogue version and the next start takes them.
//
// A JSON header, then the satellite indexes (Int32, padded to 8 bytes), then RECORD_WORDS Float64
// per record, in the machine's byte order (every target is little-endian; a file from elsewhere
// fails the checks). The header names the catalogue version and what packed the records (our
// record's layout and satellite.js's version, whose initialisation made them), so a new satellite.js
// or a changed layout never reuses an older file. It is only a cache: a file that fails a check is
// ignored (and replaced by the next write).

export const SATRECS_FILE = 'satrecs.bin';
const MAGIC = Buffer.from('SSSREC1\n');
const HEAD_AT = MAGIC.length + 4;
/** The records of a full cap (2048) are ~1.6 MiB. */
const SATRECS_MAX_BYTES = 4 * 1024 * 1024;
const MAX_HEAD_BYTES = 256 * 1024;

/** Bumped when what a record's words mean changes without their names changing (sgp4-packed.ts). */
const PACKING_FORMAT = 1;

declare const __SATELLITE_JS_VERSION__: string | undefined;

/** satellite.js's version: the build's (build.mjs defines it), else the installed package's (from source); null when unknown. */
function satelliteJsVersion(): string | null {
  if (typeof __SATELLITE_JS_VERSION__ === 'string') return __SATELLITE_JS_VERSION__;
  try {
    const entry = fileURLToPath(import.meta.resolve('satellite.js'));
    return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return null;
  }
}

let fingerprint: string | null | undefined;

/**
 * What made the records: our packing (its format and the record's layout) and satellite.js's
 * version (its initialisation). Null when satellite.js's version is unknown: nothing is kept.
 */
export function packingFingerprint(): string | null {
  if (fingerprint !== undefined) return fingerprint;
  const version = satelliteJsVersion();
  fingerprint = version === null ? null : `${PACKING_FORMAT}/${version}/${new Hash64().update(SGP4_LAYOUT).hex()}`;
  return fingerprint;
}

interface Header {
  format: 1;
  catalog_version: string;
  packing: string;
  satellites: number;
  count: number;
  refused: { index: number; reason: string }[];
}

/** Where the records start: after the header and the indexes, at a multiple of 8. */
const recordsAt = (headBytes: number, count: number) => Math.ceil((HEAD_AT + headBytes + 4 * count) / 8) * 8;

/** The file's bytes for the records of `satellites` satellites of catalogue `version`. */
export function satrecParts(version: string, satellites: number, r: PackedRecords, packing: string): Buffer[] {
  const header: Header = { format: 1, catalog_version: version, packing, satellites, count: r.indexes.length, refused: r.refused };
  const head = Buffer.from(JSON.stringify(header));
  const lead = Buffer.alloc(HEAD_AT);
  MAGIC.copy(lead, 0);
  lead.writeUInt32LE(head.length, MAGIC.length);
  const indexes = Buffer.from(r.indexes.buffer, r.indexes.byteOffset, r.indexes.byteLength);
  const pad = Buffer.alloc(recordsAt(head.length, r.indexes.length) - HEAD_AT - head.length - indexes.length);
  return [lead, head, indexes, pad, Buffer.from(r.words.buffer, r.words.byteOffset, r.words.byteLength)];
}

/** Writes the records; false (nothing written) when what packed them is unknown. */
export async function saveSatrecs(path: string, version: string, satellites: number, r: PackedRecords): Promise<boolean> {
  const packing = packingFingerprint();
  if (packing === null) return false;
  await writeFileAtomic(path, satrecParts(version, satellites, r, packing));
  return true;
}

/** The records in `bytes` for catalogue `version` of `satellites` satellites, or why not. */
export function decodeSatrecs(bytes: Buffer, version: string, satellites: number): PackedRecords | string {
  if (bytes.length < HEAD_AT || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return 'not a records file';
  const headBytes = bytes.readUInt32LE(MAGIC.length);
  if (headBytes > MAX_HEAD_BYTES || HEAD_AT + headBytes > bytes.length) return 'its header is cut short';
  let h: Header;
  try {
    h = JSON.parse(bytes.toString('utf8', HEAD_AT, HEAD_AT + headBytes)) as Header;
  } catch {
    return 'its header is not JSON';
  }
  if (h === null || typeof h !== 'object' || h.format !== 1 || !Number.isInteger(h.count) || h.count < 0 || !Array.isArray(h.refused)) return 'its header is not a records file\'s';
  if (h.catalog_version !== version || h.satellites !== satellites) return 'another catalogue\'s';
  if (h.packing !== packingFingerprint() || typeof h.packing !== 'string') return 'packed by another build';
  if (!h.refused.every((x) => x !== null && typeof x === 'object' && Number.isInteger(x.index) && typeof x.reason === 'string')) return 'its refusals are malformed';
  const at = recordsAt(headBytes, h.count);
  if (bytes.length !== at + h.count * RECORD_WORDS * 8) return 'its length does not match its header';
  // Copied out: the file's buffer need not be aligned, and nothing keeps it alive.
  const indexes = new Int32Array(h.count);
  new Uint8Array(indexes.buffer).set(bytes.subarray(HEAD_AT + headBytes, HEAD_AT + headBytes + 4 * h.count));
  const words = new Float64Array(h.count * RECORD_WORDS);
  new Uint8Array(words.buffer).set(bytes.subarray(at));
  return { indexes, words, refused: h.refused.map((x) => ({ index: x.index, reason: x.reason })) };
}

/** The kept records for this catalogue, or why there are none to take (absent, unreadable, another catalogue's, damaged). */
export function loadSatrecs(path: string, version: string, satellites: number): PackedRecords | string {
  removeStaleTemps(path);
  const read = readBytesCapped(path, SATRECS_MAX_BYTES);
  if (read.kind !== 'bytes') return read.kind === 'missing' ? 'none kept' : `unreadable (${read.kind})`;
  return decodeSatrecs(read.bytes, version, satellites);
}
