// Catalog text (CelesTrak OMM/GP JSON or three-line TLE) → validated element sets (pure).
// The format is detected from the content, never from a file name or content type. Bad records
// are returned in `skipped` with a reason; only a text with no usable shape at all is an error.
//
// Source bytes are untrusted, so the parse is bounded in memory and in time: it walks the bytes
// one record at a time (never one JSON.parse of the whole document, never one string of the
// whole text, never an array of every line), holds only the valid records and a sample of the
// skipped ones, and stops at limits no real catalog reaches. `parseCatalogSliced` runs the same
// steps in slices of a few milliseconds so a refresh never blocks the event loop.
import { ommRecord } from './omm.js';
import { TleSplitter, tleToElements, type RecordFailure } from './tle.js';
import { MAX_CATALOG_RECORDS, type OmmElements } from './types.js';
import { elementProblem, epochMs } from './validate.js';
import { runSliced, type LoopSlicer } from '../util/loop-slices.js';

export type CatalogFormat = 'omm-json' | 'tle' | 'html' | 'empty' | 'unknown';

/** One OMM record is ~700 bytes; a flat record is never near this. */
export const MAX_RECORD_BYTES = 4096;
/** A TLE line is 69 characters; a name line ~24. Longer lines are not decoded. */
export const MAX_LINE_BYTES = 512;
/** Skipped records kept with their reasons (the rest are only counted). */
export const KEPT_SKIPPED = 20;

export interface ParseOptions {
  /** When given, objects SGP4 reports as decayed at this instant are skipped. */
  nowMs?: number;
}

export interface ParseResult {
  format: CatalogFormat;
  /** Valid records, one per NORAD id (newest epoch kept), in input order. */
  records: OmmElements[];
  /** The first KEPT_SKIPPED skipped records with their reasons. */
  skipped: RecordFailure[];
  /** Every skipped record. */
  skippedCount: number;
  /** Set when the text as a whole is not a catalog (HTML page, garbage, truncated JSON, too big). */
  error: string | null;
}

export function detectFormat(head: string): CatalogFormat {
  const h = head.slice(0, 2048).replace(/^\uFEFF/, '').trimStart();
  if (h === '') return 'empty';
  if (h[0] === '[' || h[0] === '{') return 'omm-json';
  if (h[0] === '<' || /<html|<!doctype/i.test(h)) return 'html';
  if (/^1 [0-9A-Z ]{5}[A-Z ] /m.test(h) && /^2 [0-9A-Z ]{5} /m.test(head.slice(0, 4096))) return 'tle';
  return 'unknown';
}

type Candidate = OmmElements & { DECAY_DATE?: string | null };

// Byte values the scanners look for.
const LBRACE = 0x7b, RBRACE = 0x7d, LBRACKET = 0x5b, RBRACKET = 0x5d, QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, LF = 0x0a, CR = 0x0d;
const isSpace = (c: number) => c === 0x20 || c === LF || c === CR || c === 0x09;

/** The parse as a step machine: each step() handles one record (or line) and returns false when done. */
class CatalogParser {
  readonly format: CatalogFormat;
  private readonly buf: Uint8Array;
  private pos: number;
  private error: string | null = null;
  private done = false;
  private elements = 0;
  private skippedCount = 0;
  private readonly skipped: RecordFailure[] = [];
  private readonly byNorad = new Map<number, { el: OmmElements; t: number }>();
  private readonly tle = new TleSplitter();
  private readonly decoder = new TextDecoder();

  constructor(
    input: string | Uint8Array,
    private readonly opts: ParseOptions = {},
  ) {
    this.buf = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
    this.pos = this.buf[0] === 0xef && this.buf[1] === 0xbb && this.buf[2] === 0xbf ? 3 : 0;
    this.format = detectFormat(this.text(this.pos, Math.min(this.buf.length, this.pos + 4096)));
    if (this.format === 'omm-json') this.openJson();
    else if (this.format !== 'tle') {
      const what = this.format === 'html' ? 'an HTML page' : this.format === 'empty' ? 'empty' : 'neither OMM JSON nor TLE text';
      this.fail(`content is ${what}`);
    }
  }

  step(): boolean {
    if (this.done) return false;
    if (this.format === 'tle') this.tleStep();
    else this.jsonStep();
    return !this.done;
  }

  result(): ParseResult {
    const records = this.error ? [] : [...this.byNorad.values()].map((x) => x.el);
    const error = this.error ?? (records.length === 0 ? `no usable records (${this.skippedCount} skipped)` : null);
    return { format: this.format, records, skipped: this.error ? [] : this.skipped, skippedCount: this.skippedCount, error };
  }

  private text(start: number, end: number): string {
    return this.decoder.decode(this.buf.subarray(start, end));
  }

  private fail(message: string): void {
    this.error = message;
    this.done = true;
  }

  private skip(f: RecordFailure): void {
    if (this.skipped.length < KEPT_SKIPPED) this.skipped.push(f);
    // A text of mostly junk is not a catalog: stop spending time on it.
    if (++this.skippedCount > MAX_CATALOG_RECORDS) this.fail(`more than ${MAX_CATALOG_RECORDS} unusable records: not a catalog`);
  }

  private counted(): boolean {
    if (++this.elements <= MAX_CATALOG_RECORDS) return true;
    this.fail(`more than ${MAX_CATALOG_RECORDS} records: not a catalog this station can hold`);
    return false;
  }

  private accept(el: Candidate): void {
    const t = epochMs(el);
    const reason = elementProblem(el, this.opts.nowMs, t);
    if (reason) return this.skip({ norad_id: el.NORAD_CAT_ID, name: el.OBJECT_NAME, reason });
    if ('DECAY_DATE' in el) delete el.DECAY_DATE;
    const prev = this.byNorad.get(el.NORAD_CAT_ID);
    if (prev && prev.t >= t) return this.skip({ norad_id: el.NORAD_CAT_ID, name: el.OBJECT_NAME, reason: 'duplicate NORAD id with an older or equal epoch' });
    if (prev) this.skip({ norad_id: prev.el.NORAD_CAT_ID, name: prev.el.OBJECT_NAME, reason: 'duplicate NORAD id superseded by a newer epoch' });
    this.byNorad.set(el.NORAD_CAT_ID, { el, t });
  }

  // ---- OMM JSON: `[ {record}, ... ]` or one `{record}` ----
  private inArray = false;

  private skipSpace(): number {
    const b = this.buf;
    while (this.pos < b.length && isSpace(b[this.pos])) this.pos++;
    return this.pos < b.length ? b[this.pos] : -1;
  }

  private openJson(): void {
    const c = this.skipSpace();
    if (c === LBRACKET) {
      this.inArray = true;
      this.pos++;
      if (this.skipSpace() === RBRACKET) {
        this.pos++;
        this.endJson();
      }
    } else if (c !== LBRACE) this.fail('JSON is neither an array nor an object of OMM records');
  }

  private endJson(): void {
    if (this.skipSpace() !== -1) return this.fail('not valid JSON (content after the end of the document)');
    this.done = true;
  }

  private jsonStep(): void {
    if (this.skipSpace() === -1) return this.fail('not valid JSON (truncated)');
    if (!this.counted()) return;
    const start = this.pos;
    const end = this.valueEnd(start);
    if (end < 0) return; // fail() already called
    let raw: unknown;
    try {
      raw = JSON.parse(this.text(start, end));
    } catch (err) {
      return this.fail(`not valid JSON (record ${this.elements}: ${(err as Error).message.slice(0, 80)})`);
    }
    this.pos = end;
    // Past the kept sample, a skipped record's reason is only counted: find its first problem only.
    const r = ommRecord(raw, this.skipped.length >= KEPT_SKIPPED);
    if ('reason' in r) this.skip(r);
    else this.accept(r);
    if (!this.inArray) return this.endJson();
    const c = this.skipSpace();
    if (c === COMMA) this.pos++;
    else if (c === RBRACKET) {
      this.pos++;
      this.endJson();
    } else this.fail(c === -1 ? 'not valid JSON (truncated)' : 'not valid JSON (expected , or ] between records)');
  }

  /**
   * Index just past the JSON value at `start` (an object or array matched bracket by bracket,
   * honouring strings; a scalar up to the next , ] or space), at most MAX_RECORD_BYTES on; -1 after fail().
   */
  private valueEnd(start: number): number {
    const b = this.buf;
    const limit = Math.min(b.length, start + MAX_RECORD_BYTES);
    let depth = 0;
    let inString = false;
    for (let i = start; i < limit; i++) {
      const c = b[i];
      if (inString) {
        if (c === BACKSLASH) i++;
        else if (c === QUOTE) {
          inString = false;
          if (depth === 0) return i + 1;
        }
      } else if (c === QUOTE) inString = true;
      else if (c === LBRACE || c === LBRACKET) depth++;
      else if (c === RBRACE || c === RBRACKET) {
        if (depth === 0) return i; // a scalar ended by the array's ]
        if (--depth === 0) return i + 1;
      } else if (depth === 0 && (c === COMMA || isSpace(c))) return i;
    }
    if (limit === b.length) {
      if (depth === 0 && !inString && !this.inArray) return limit; // a lone scalar document
      this.fail('not valid JSON (truncated)');
    } else this.fail(`record ${this.elements} is longer than ${MAX_RECORD_BYTES} bytes: not an OMM catalog`);
    return -1;
  }

  // ---- TLE text: one line per step ----
  private tleStep(): void {
    const b = this.buf;
    if (this.pos >= b.length) {
      const f = this.tle.end();
      if (f) this.skip(f);
      this.done = true;
      return;
    }
    let end = this.pos;
    while (end < b.length && b[end] !== LF && b[end] !== CR) end++;
    const long = end - this.pos > MAX_LINE_BYTES;
    const line = long ? null : this.text(this.pos, end);
    this.pos = end + (b[end] === CR && b[end + 1] === LF ? 2 : 1);
    const out = this.tle.push(line ?? `(a line longer than ${MAX_LINE_BYTES} bytes)`);
    if (!out) return;
    if ('reason' in out) return this.skip(out);
    if (!this.counted()) return;
    const el = tleToElements(out);
    if ('reason' in el) this.skip(el);
    else this.accept(el);
  }
}

/** The whole parse at once (tools, tests, small inputs). */
export function parseCatalogText(input: string | Uint8Array, opts: ParseOptions = {}): ParseResult {
  const p = new CatalogParser(input, opts);
  while (p.step());
  return p.result();
}

/** The same parse, run a slice at a time so the event loop keeps turning; null when aborted. */
export async function parseCatalogSliced(input: Uint8Array, opts: ParseOptions & { signal?: AbortSignal }, slicer?: LoopSlicer): Promise<ParseResult | null> {
  const p = new CatalogParser(input, opts);
  await runSliced(() => !opts.signal?.aborted && p.step(), slicer);
  return opts.signal?.aborted ? null : p.result();
}

/** One line per skipped record, for logs and refresh reports. */
export function describeSkipped(s: RecordFailure): string {
  return `${s.norad_id ?? '?'} ${s.name ? `"${s.name}" ` : ''}skipped: ${s.reason}`;
}
