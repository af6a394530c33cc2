import { drainSliced } from '../util/loop-slices.js';
import { ownBuffer } from '../util/own-buffer.js';
import { runWorkerJob, type JobOutcome, type WorkerScript } from '../util/worker-job.js';
import { parseCatalogText, type ParseOptions, type ParseResult } from './parse.js';
import type { OmmElements } from './types.js';
import { ELEMENT_NUMBERS as NUMBERS, ELEMENT_STRINGS as STRINGS, ElementTable, NN, NS } from './element-table.js';

// A large source body parsed as a worker job (src/util/worker-job.ts): the whole active catalogue
// (2.6 MB of TLE text, a satrec built per record for the decay check) or a hostile body of 15 MiB
// of tiny JSON objects is parsed, validated and its garbage collected on a worker thread that
// exists only while it works. The body is handed over, not copied; the records come back as one
// Float64Array (element-table.ts's columns) and one string, split here in steps into the texts of
// one ElementTable: the records are its views, equal field by field to what the parse on the loop
// makes, and no record becomes an object of boxed numbers on the loop.

const JOB = 'catalog-parse';
/** The parser's heap: a hostile body is refused at its 30 001st record, the 16k catalogue needs ~20 MiB. */
const LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 4 };
/** Records decoded between two yields. */
const DECODE_STEP = 512;

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

/** The packed records as views of one element table: no object a field, nothing parsed. */
function* decodeRecords(count: number, nums: Float64Array, text: string): Generator<void, OmmElements[], undefined> {
  const strs: (string | undefined)[] = new Array(count * NS);
  let at = 0;
  for (let k = 0; k < count * NS; k++) {
    const end = text.indexOf(SEP, at);
    const s = text.slice(at, end);
    at = end + 1;
    strs[k] = s === ABSENT ? undefined : s;
    if (k % (DECODE_STEP * NS) === DECODE_STEP * NS - 1) yield;
  }
  const table = new ElementTable(count, nums, strs);
  const out: OmmElements[] = new Array(count);
  for (let i = 0; i < count; i++) out[i] = table.row(i);
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
