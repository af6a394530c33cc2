import { drainSliced } from '../util/loop-slices.js';
import { runWorkerJob, type JobOutcome, type WorkerScript } from '../util/worker-job.js';
import { parseCatalogText, type ParseOptions, type ParseResult } from './parse.js';
import type { OmmElements } from './types.js';

// A large source body parsed as a worker job (src/util/worker-job.ts): the whole active catalogue
// (2.6 MB of TLE text, a satrec built per record for the decay check) or a hostile body of 15 MiB
// of tiny JSON objects is parsed, validated and its garbage collected on a worker thread that
// exists only while it works. The body is handed over, not copied; the records come back as one
// Float64Array and one string, decoded here in steps into the same OmmElements the parse on the
// loop makes (keys in the interface's order).

const JOB = 'catalog-parse';
/** The parser's heap: a hostile body is refused at its 30 001st record, the 16k catalogue needs ~20 MiB. */
const LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };
/** Records decoded between two yields. */
const DECODE_STEP = 512;

const NUMBERS = ['MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'EPHEMERIS_TYPE', 'NORAD_CAT_ID', 'ELEMENT_SET_NO', 'REV_AT_EPOCH', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;
const STRINGS = ['OBJECT_NAME', 'OBJECT_ID', 'EPOCH', 'CLASSIFICATION_TYPE'] as const;
const NN = NUMBERS.length;
/** Between two strings of the packed text; an optional string that is absent is ABSENT. */
const SEP = '\u0000';
const ABSENT = '\u0001';
/** A control character the packing uses, in a name or id (never in a real catalogue). */
const PACKING = /[\u0000\u0001]/g;

export interface CatalogParseInput {
  buffer: ArrayBuffer;
  length: number;
  nowMs?: number;
}

/** ParseResult with the records packed. */
export interface CatalogParseAnswer extends Omit<ParseResult, 'records'> {
  count: number;
  numbers: ArrayBuffer;
  strings: string;
}

/** The body as a buffer to hand over: its own when it is exactly the body, else a copy. */
function ownBuffer(body: Uint8Array): ArrayBuffer {
  if (body.byteOffset === 0 && body.buffer.byteLength === body.length && body.buffer instanceof ArrayBuffer) return body.buffer;
  const copy = new Uint8Array(body.length);
  copy.set(body);
  return copy.buffer;
}

/**
 * The parse of `body` on a worker thread; never throws. The body's buffer is handed to the worker
 * (the caller's `body` is empty afterwards), so a failed job cannot be parsed again here: the
 * source counts as failed and the next refresh tries again.
 */
export async function parseOffThread(body: Uint8Array, opts: ParseOptions, signal: AbortSignal, script?: WorkerScript): Promise<JobOutcome<ParseResult>> {
  const input: CatalogParseInput = { buffer: ownBuffer(body), length: body.length, nowMs: opts.nowMs };
  const r = await runWorkerJob<CatalogParseAnswer>(JOB, input, { signal, limits: LIMITS, transfer: [input.buffer], script });
  if (r.kind !== 'done') return r;
  const { count, numbers, strings, ...rest } = r.value;
  const records = await drainSliced(decodeRecords(count, new Float64Array(numbers), strings));
  return { kind: 'done', value: { ...rest, records } };
}

function* decodeRecords(count: number, nums: Float64Array, text: string): Generator<void, OmmElements[], undefined> {
  const out: OmmElements[] = new Array(count);
  let at = 0;
  const next = (): string | undefined => {
    const end = text.indexOf(SEP, at);
    const s = text.slice(at, end);
    at = end + 1;
    return s === ABSENT ? undefined : s;
  };
  const num = (k: number): number | undefined => (Number.isNaN(nums[k]) ? undefined : nums[k]);
  for (let i = 0; i < count; i++) {
    const b = i * NN;
    // Strings in STRINGS order.
    const OBJECT_NAME = next()!;
    const OBJECT_ID = next();
    const EPOCH = next()!;
    const CLASSIFICATION_TYPE = next();
    const el: OmmElements = {
      OBJECT_NAME,
      OBJECT_ID,
      EPOCH,
      MEAN_MOTION: nums[b],
      ECCENTRICITY: nums[b + 1],
      INCLINATION: nums[b + 2],
      RA_OF_ASC_NODE: nums[b + 3],
      ARG_OF_PERICENTER: nums[b + 4],
      MEAN_ANOMALY: nums[b + 5],
      EPHEMERIS_TYPE: num(b + 6),
      CLASSIFICATION_TYPE,
      NORAD_CAT_ID: nums[b + 7],
      ELEMENT_SET_NO: num(b + 8),
      REV_AT_EPOCH: num(b + 9),
      BSTAR: nums[b + 10],
      MEAN_MOTION_DOT: nums[b + 11],
      MEAN_MOTION_DDOT: nums[b + 12],
    };
    // Absent optionals are absent, as the parser leaves them (not keys holding undefined).
    if (OBJECT_ID === undefined) delete el.OBJECT_ID;
    if (el.EPHEMERIS_TYPE === undefined) delete el.EPHEMERIS_TYPE;
    if (CLASSIFICATION_TYPE === undefined) delete el.CLASSIFICATION_TYPE;
    if (el.ELEMENT_SET_NO === undefined) delete el.ELEMENT_SET_NO;
    if (el.REV_AT_EPOCH === undefined) delete el.REV_AT_EPOCH;
    out[i] = el;
    if (i % DECODE_STEP === DECODE_STEP - 1) yield;
  }
  return out;
}

/** The worker side (src/worker.ts). */
export function catalogParseJob(j: CatalogParseInput): { value: CatalogParseAnswer; transfer: ArrayBuffer[] } {
  const { records, ...rest } = parseCatalogText(new Uint8Array(j.buffer, 0, j.length), { nowMs: j.nowMs });
  const nums = new Float64Array(records.length * NN);
  const parts: string[] = [];
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as unknown as Record<string, unknown>;
    for (let k = 0; k < NN; k++) nums[i * NN + k] = r[NUMBERS[k]] === undefined ? NaN : (r[NUMBERS[k]] as number);
    for (const k of STRINGS) parts.push(r[k] === undefined ? ABSENT : String(r[k]).replace(PACKING, '\uFFFD'));
  }
  parts.push('');
  const value: CatalogParseAnswer = { ...rest, count: records.length, numbers: nums.buffer, strings: parts.join(SEP) };
  return { value, transfer: [value.numbers] };
}
