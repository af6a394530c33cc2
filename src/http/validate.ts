import * as v from 'valibot';
import { AppError } from '../util/errors.js';
import { issuePath } from '../store/json-store.js';

type AnySchema = v.GenericSchema<unknown, any>;

/** safeParse at the boundary; a failure becomes a 400 that names the field and why. */
export function parseOr400<S extends AnySchema>(schema: S, input: unknown, where: 'body' | 'query'): v.InferOutput<S> {
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
export const qBool = () =>
  v.pipe(
    v.picklist(['true', 'false', '1', '0', 'yes', 'no', '']),
    v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
  );

export const qNumber = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^-?\d+(\.\d+)?$/, 'must be a number'),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const qInt = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^-?\d+$/, 'must be an integer'),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );
