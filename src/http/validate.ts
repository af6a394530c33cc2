import * as v from 'valibot';
import { AppError } from '../util/errors.js';
import { issuePath } from '../store/json-store.js';

type AnySchema = v.GenericSchema<unknown, any>;

/** safeParse at the boundary; a failure becomes a 400 that names the field and why. */
export function parseOr400<S extends AnySchema>(schema: S, input: unknown, where: 'body' | 'query' | 'path'): v.InferOutput<S> {
  const res = v.safeParse(schema, input);
  if (res.success) return res.output;
  throw validationError(res.issues, where);
}

export function validationError(issues: readonly v.BaseIssue<unknown>[], where: string): AppError {
  const fields = issues.slice(0, 10).map((i) => ({ field: issuePath(i) || '(root)', message: i.message }));
  const first = fields[0];
  return new AppError(400, 'validation_failed', `invalid ${where}: ${first.field}: ${first.message}`, { fields });
}

// Query strings arrive as text; these coerce them while keeping a JSON-Schema-friendly shape.
// A parameter given twice arrives as an array (server.ts parseQuery): which one was meant is not ours to guess.
const onceAnd = (what: string) => (issue: v.BaseIssue<unknown>) => (Array.isArray(issue.input) ? 'given more than once' : what);

/** Exactly true/false/1/0 (issue 32): an empty value, yes, on or a stray comma is a 400, never a guess. */
export const qBool = () =>
  v.pipe(
    v.picklist(['true', 'false', '1', '0'], onceAnd('must be true, false, 1 or 0')),
    v.description('a boolean: true, false, 1 or 0'),
    v.transform((s) => s === 'true' || s === '1'),
  );

export const qNumber = (min: number, max: number) =>
  v.pipe(
    v.string(onceAnd('must be a number')),
    v.regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const qInt = (min: number, max: number) =>
  v.pipe(
    v.string(onceAnd('must be an integer')),
    v.regex(/^-?\d+$/, 'must be an integer'),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

/** Comma-separated sat_ids, each once (repeats dropped), at most `max`. */
export const qSatIds = (max: number) =>
  v.pipe(
    v.string(onceAnd('must be comma-separated sat_ids')),
    v.regex(/^[a-z0-9][a-z0-9-]{0,31}(,[a-z0-9][a-z0-9-]{0,31})*$/, 'must be comma-separated sat_ids'),
    v.transform((s) => [...new Set(s.split(','))]),
    v.maxLength(max, `at most ${max} sat_ids`),
  );
