// Big catalog documents as bytes, serialised a slice of records at a time: JSON.stringify of 16k
// records is a ~7 MiB string that the file write then copies into a ~7 MiB buffer, both alive at
// once at the refresh's memory peak. Here only one small slice is ever a string. The *Steps
// generators yield between slices so the running server serialises without blocking its loop.
import { drain } from './loop-slices.js';

/** Records serialised per slice (~0.6 ms here). */
const SLICE = 128;

/**
 * An array's items given as their JSON texts: a caller whose items are not objects (a view over
 * columns) writes each one's text without making the object JSON.stringify would read.
 */
export interface JsonTexts {
  readonly length: number;
  text(i: number): string;
}

type Items = readonly unknown[] | JsonTexts;

const isTexts = (items: Items): items is JsonTexts => !Array.isArray(items);

function* pushArray(parts: Buffer[], items: Items): Generator<void, void, undefined> {
  parts.push(Buffer.from('['));
  for (let k = 0; k < items.length; k += SLICE) {
    let slice: string;
    if (isTexts(items)) {
      slice = '';
      for (let i = k; i < Math.min(k + SLICE, items.length); i++) slice += (i === k ? '' : ',') + items.text(i);
    } else slice = JSON.stringify(items.slice(k, k + SLICE)).slice(1, -1);
    parts.push(Buffer.from((k === 0 ? '' : ',') + slice));
    yield;
  }
  parts.push(Buffer.from(']'));
}

export function* jsonArraySteps(items: Items): Generator<void, Buffer, undefined> {
  return Buffer.concat(yield* jsonArrayPartsSteps(items));
}

/** The same bytes as parts, not joined: a file write takes them as they are (no 7 MiB join). */
export function* jsonArrayPartsSteps(items: Items): Generator<void, Buffer[], undefined> {
  const parts: Buffer[] = [];
  yield* pushArray(parts, items);
  return parts;
}

/** Free bytes jsonArrayOfEach leaves before an array when asked: room for a document's head. */
export const HEAD_ROOM = 512;

/** Headroom over the bytes per index seen so far when sizing the whole array's buffer. */
const ESTIMATE_MARGIN = 1.1;

/**
 * UTF-8 JSON of the array of `item(0)` … `item(n - 1)` that are not null, each made only when its
 * turn comes and written at once into one buffer (sized from the first slice's bytes per index):
 * the same bytes as JSON.stringify of those items, without an array holding them all or a buffer
 * per slice. A worker's 16k /live samples held that way were ~4 MiB of objects and 3 MiB of parts
 * at its memory peak. `json` is a view into a buffer of its own (never Node's shared pool), so its
 * `buffer` can be handed to another thread; with `room`, HEAD_ROOM free bytes come before it and
 * one after (ArrayJson.roomy), else it starts the buffer.
 */
export function jsonArrayOfEach(n: number, item: (i: number) => unknown, room = false): { json: Buffer; count: number } {
  const start = room ? HEAD_ROOM : 0;
  const spare = room ? 2 : 1; // the closing bracket, and a document's closing brace
  let buf = Buffer.allocUnsafeSlow(start + 1 + spare);
  let pos = start + buf.write('[', start);
  let count = 0;
  /** Writes `text`, made from the items of the first `visited` indexes. */
  const put = (text: string, visited: number) => {
    const need = pos + Buffer.byteLength(text) + spare;
    if (need > buf.length) {
      // Room for all n at the bytes per index so far (skipped ones included), with headroom: one
      // allocation at the first slice unless later items are longer.
      const estimate = start + Math.ceil(((need - start - spare) / Math.max(visited, 1)) * n * ESTIMATE_MARGIN);
      const grown = Buffer.allocUnsafeSlow(Math.max(need, estimate, Math.ceil(buf.length * 1.5)));
      buf.copy(grown, start, start, pos);
      buf = grown;
    }
    pos += buf.write(text, pos);
  };
  let slice = '';
  let inSlice = 0;
  for (let i = 0; i < n; i++) {
    const x = item(i);
    if (x === null || x === undefined) continue;
    slice += (count === 0 ? '' : ',') + JSON.stringify(x);
    count++;
    if (++inSlice === SLICE) {
      put(slice, i + 1);
      slice = '';
      inSlice = 0;
    }
  }
  put(slice + ']', n);
  return { json: buf.subarray(start, pos), count };
}

const CLOSE_BRACE = 0x7d;

/**
 * An array's JSON, made elsewhere (a worker's answer), that a document is then written around as
 * its last property. Joining a 3 MiB array into a new buffer cost the loop one turn of ~15 ms
 * here (the copy, and every page of the new buffer touched for the first time), where the
 * worker's buffer has room for the head before it and the brace after it.
 */
export class ArrayJson {
  private constructor(
    readonly json: Buffer,
    readonly count: number,
    /** The HEAD_ROOM bytes before `json` and the one after are this array's own, free to write. */
    private readonly room: boolean,
  ) {}

  /** An array whose buffer may be shared: a document around it is a new buffer. */
  static joined(json: Buffer, count: number): ArrayJson {
    return new ArrayJson(json, count, false);
  }

  /** jsonArrayOfEach's bytes made with `room`, here as (buffer, offset, length), e.g. handed from a worker. */
  static roomy(buffer: ArrayBuffer, offset: number, length: number, count: number): ArrayJson {
    const fits = offset >= HEAD_ROOM && offset + length < buffer.byteLength;
    return new ArrayJson(Buffer.from(buffer, offset, length), count, fits);
  }

  /**
   * UTF-8 JSON of `doc` with this array as its last property `key` (the bytes JSON.stringify
   * gives for `{ ...doc, [key]: items }`). In place when the head fits its room: the answer
   * shares this array's buffer, so an array gives one document.
   */
  document(doc: object, key: string): Buffer {
    const head = headWithKey(JSON.stringify(doc), key);
    const j = this.json;
    if (!this.room || head.length > HEAD_ROOM) return Buffer.concat([head, j, Buffer.from('}')]);
    const whole = Buffer.from(j.buffer, j.byteOffset - head.length, head.length + j.length + 1);
    head.copy(whole, 0);
    whole[whole.length - 1] = CLOSE_BRACE;
    return whole;
  }
}

export function* jsonWithArraySteps(doc: object, key: string, items: readonly unknown[]): Generator<void, Buffer, undefined> {
  return yield* jsonTextWithArraySteps(JSON.stringify(doc), key, items);
}

/** The same with the document's JSON text given (a caller that serialised a big head in steps). */
export function* jsonTextWithArraySteps(head: string, key: string, items: readonly unknown[]): Generator<void, Buffer, undefined> {
  return Buffer.concat(yield* jsonTextWithArrayPartsSteps(head, key, items));
}

/** `{…head,"key":` of a document's JSON text: what an array's bytes follow. */
const headWithKey = (head: string, key: string) => Buffer.from(`${head === '{}' ? '{' : head.slice(0, -1) + ','}${JSON.stringify(key)}:`);

/** The same bytes as parts, not joined. */
export function* jsonTextWithArrayPartsSteps(head: string, key: string, items: Items): Generator<void, Buffer[], undefined> {
  const parts: Buffer[] = [headWithKey(head, key)];
  yield* pushArray(parts, items);
  parts.push(Buffer.from('}'));
  return parts;
}

/**
 * UTF-8 JSON of `doc` with the array `items` added as its last property `key`: the same bytes as
 * JSON.stringify({ ...doc, [key]: items }) when `doc` has no `key`.
 */
export const jsonWithArray = (doc: object, key: string, items: readonly unknown[]): Buffer => drain(jsonWithArraySteps(doc, key, items));
