import { AppError } from '../util/errors.js';

/** A 400 shaped like the HTTP core's validation errors, for checks a schema cannot express. */
export function fieldError(field: string, message: string): AppError {
  return new AppError(400, 'validation_failed', `invalid body: ${field}: ${message}`, { fields: [{ field, message }] });
}
