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

/** UTF-8 JSON of an array: the same bytes as JSON.stringify(items). */
export const jsonArray = (items: readonly unknown[]): Buffer => drain(jsonArraySteps(items));

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

/** UTF-8 JSON of `doc` with an array already serialised (`arrayJson`, made elsewhere) added as its last property `key`. */
export const jsonWithArrayBytes = (doc: object, key: string, arrayJson: Buffer): Buffer => Buffer.concat([headWithKey(JSON.stringify(doc), key), arrayJson, Buffer.from('}')]);

/**
 * UTF-8 JSON of `doc` with the array `items` added as its last property `key`: the same bytes as
 * JSON.stringify({ ...doc, [key]: items }) when `doc` has no `key`.
 */
export const jsonWithArray = (doc: object, key: string, items: readonly unknown[]): Buffer => drain(jsonWithArraySteps(doc, key, items));
