import { readTextCapped, writeFileAtomic } from '../store/atomic-file.js';
import type { PassEvent } from '../orbit/types.js';
import { ownCopy } from '../util/flat-string.js';
import { drain } from '../util/loop-slices.js';

// The /passes items of passes still to come, kept across restarts in <dataDir>/pass-items.txt
// (issue 36). After boot the first /passes otherwise builds guidance and JSON for ~1000 passes
// (with the kept pass rates, ~0.3 s at a tenth of a core) whenever requests leave the warm-up no
// quiet; read back, its answer is a concatenation. An item of a pass before its AOS is a function
// of the pass event and the guidance basis (catalog version and profile set,
// GuidanceService.basisKey): the file names its basis, each line names its pass by every field of
// the event, so an item read back is the text a fresh build gives.
//
// Written after each warm-up (not per request: the set changes as passes enter the window, and
// the SD card is not a log), atomically; read once per table.

export const PASS_ITEMS_FILE = 'pass-items.txt';

/** 2000 items of ~500 bytes, twice over: anything far larger is not ours. */
const MAX_BYTES = 4 << 20;

/** A pass named by every field of its event (a new location, new elements or a rename moves it). */
export const passItemKey = (p: PassEvent): string => `${p.sat_id}|${p.aos_ms}|${p.tca_ms}|${p.los_ms}|${p.max_el_deg}|${p.name}`;

/** The AOS (epoch ms) in a key. */
export const passItemAos = (key: string): number => Number(key.slice(key.indexOf('|') + 1, key.indexOf('|', key.indexOf('|') + 1)));

interface Head {
  format: 1;
  basis: string;
  count: number;
  /** The body's length in UTF-16 units: a file cut short is unusable. */
  chars: number;
}

/** Lines made between two yields of encodePassItemsSteps (~0.1 ms here). */
const LINES_PER_STEP = 128;

/**
 * A header line (JSON), then one `key<TAB>item JSON` line a pass. JSON.stringify never writes a
 * raw tab or newline, so a line splits at its first tab; a key holding either is left out.
 * As parts for a file write, made in steps: ~1000 items are ~0.5 MB of text.
 */
export function* encodePassItemsSteps(basis: string, entries: Iterable<readonly [key: string, text: string]>): Generator<void, Buffer[], undefined> {
  const parts: Buffer[] = [];
  let chunk = '';
  let count = 0;
  let chars = 0;
  for (const [key, text] of entries) {
    if (/[\t\n]/.test(key) || text.includes('\n')) continue;
    chunk += `${key}\t${text}\n`;
    if (++count % LINES_PER_STEP === 0) {
      chars += chunk.length;
      parts.push(Buffer.from(chunk));
      chunk = '';
      yield;
    }
  }
  chars += chunk.length;
  parts.push(Buffer.from(chunk));
  const head: Head = { format: 1, basis, count, chars };
  parts.unshift(Buffer.from(`${JSON.stringify(head)}\n`));
  return parts;
}

/** The same as one text (tests, tools). */
export const encodePassItems = (basis: string, entries: Iterable<readonly [key: string, text: string]>): string => Buffer.concat(drain(encodePassItemsSteps(basis, entries))).toString();

/** The entries of `text` for `basis` whose pass starts after `now_ms`; else why not. */
export function decodePassItems(text: string, basis: string, now_ms: number): { kind: 'entries'; entries: Map<string, string> } | { kind: 'unusable'; why: string } {
  const nl = text.indexOf('\n');
  let head: Partial<Head>;
  try {
    head = JSON.parse(nl < 0 ? text : text.slice(0, nl));
  } catch {
    return { kind: 'unusable', why: 'not a pass items file' };
  }
  if (head?.format !== 1 || typeof head.count !== 'number' || typeof head.chars !== 'number') return { kind: 'unusable', why: 'not a pass items file' };
  if (head.basis !== basis) return { kind: 'unusable', why: 'for another catalog or profile set' };
  if (nl < 0 || text.length - nl - 1 !== head.chars) return { kind: 'unusable', why: 'cut short or damaged' };
  const entries = new Map<string, string>();
  let lines = 0;
  for (let at = nl + 1; at < text.length; ) {
    const end = text.indexOf('\n', at);
    const tab = text.indexOf('\t', at);
    if (end < 0 || tab < 0 || tab > end || text.charCodeAt(tab + 1) !== 0x7b || text.charCodeAt(end - 1) !== 0x7d) return { kind: 'unusable', why: `line ${lines + 2} is not a pass item` };
    const key = text.slice(at, tab);
    // Copies, not views of the file's text: it would live as long as the last item kept from it.
    if (passItemAos(key) > now_ms) entries.set(ownCopy(key), ownCopy(text.slice(tab + 1, end)));
    lines++;
    at = end + 1;
  }
  if (lines !== head.count) return { kind: 'unusable', why: 'cut short or damaged' };
  return { kind: 'entries', entries };
}

/** Reads the file (never throws): the entries still to come, or null with why in `note`. */
export function readPassItems(path: string, basis: string, now_ms: number): { entries: Map<string, string> | null; note: string } {
  const r = readTextCapped(path, MAX_BYTES);
  if (r.kind === 'missing') return { entries: null, note: 'no file yet' };
  if (r.kind !== 'text') return { entries: null, note: r.kind === 'error' ? r.code : r.kind };
  const d = decodePassItems(r.text, basis, now_ms);
  return d.kind === 'entries' ? { entries: d.entries, note: `${d.entries.size} items` } : { entries: null, note: d.why };
}

export const writePassItems = (path: string, parts: readonly Uint8Array[]): Promise<void> => writeFileAtomic(path, parts);
