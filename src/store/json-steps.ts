// Validation and serialisation of a large state file (thousands of entries, such as the catalog's
// norad → sat_id map) as generators that yield between entries, so the running server writes it
// without holding its event loop: one safeParse and one JSON.stringify of 16k entries are
// tens of ms here, far more on a Pi. Small values take a single step.
import * as v from 'valibot';

type AnySchema = v.GenericSchema<unknown, any>;

/** Entries handled between yields (~0.1–0.3 ms here). */
const STEP = 256;

const isPlainObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Keys valibot's record() leaves out of its output. */
const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

interface RecordLike {
  type: 'record';
  key: AnySchema;
  value: AnySchema;
}

/** A bare v.record(key, value) (no pipe: a pipe's actions see the whole object). */
const asRecord = (schema: AnySchema): RecordLike | null => {
  const s = schema as unknown as Partial<RecordLike> & { pipe?: unknown };
  return s.type === 'record' && s.key && s.value && !s.pipe ? (s as RecordLike) : null;
};

/**
 * The result of v.safeParse(schema, value), for a record schema checked one entry at a time
 * (the same checks). On any issue, and for other schemas, the whole parse runs once, so issues
 * keep valibot's paths and messages. When every entry parses to itself (no transforms: the usual
 * case), the output is `value` itself: copying a 30k-key object with integer-like keys (NORAD
 * ids) is tens of ms of dictionary inserts, more than the checks.
 */
export function* safeParseSteps<S extends AnySchema>(schema: S, value: unknown): Generator<void, v.SafeParseResult<S>, undefined> {
  const rec = asRecord(schema);
  if (!rec || !isPlainObject(value) || Object.getPrototypeOf(value) !== Object.prototype) return v.safeParse(schema, value);
  const keys = Object.keys(value);
  yield;
  let transformed = false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (UNSAFE_KEYS.has(key)) return v.safeParse(schema, value);
    const k = v.safeParse(rec.key, key);
    const val = v.safeParse(rec.value, value[key]);
    if (!k.success || !val.success) return v.safeParse(schema, value);
    if (k.output !== key || val.output !== value[key]) transformed = true;
    if (i % STEP === STEP - 1) yield;
  }
  // A schema that transforms: its own parse builds the output (rare; not the large stores).
  if (transformed) return v.safeParse(schema, value);
  return { typed: true, success: true, output: value, issues: undefined } as v.SafeParseResult<S>;
}

/**
 * JSON.stringify(value, null, 2), an entry of a plain object at a time: the same text, since
 * a nested value's text is its own pretty text indented one level (JSON escapes newlines in strings).
 */
export function* prettyJsonSteps(value: unknown): Generator<void, string, undefined> {
  if (!isPlainObject(value) || (value as { toJSON?: unknown }).toJSON !== undefined) return JSON.stringify(value, null, 2);
  const parts: string[] = [];
  let n = 0;
  for (const key of Object.keys(value)) {
    const text = JSON.stringify(value[key], null, 2);
    if (text === undefined) continue; // undefined and functions are left out, as JSON.stringify does
    parts.push(`  ${JSON.stringify(key)}: ${text.replace(/\n/g, '\n  ')}`);
    if (++n % STEP === 0) yield;
  }
  return parts.length ? `{\n${parts.join(',\n')}\n}` : '{}';
}
