// Domain and HTTP layers raise AppError; the HTTP core turns it into
// {"error":{"code","message","details"}} with the status it carries.
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
    /** Extra response headers (Retry-After, WWW-Authenticate). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, details: unknown = null, code = 'bad_request') =>
  new AppError(400, code, message, details);
export const notFound = (message: string, details: unknown = null) => new AppError(404, 'not_found', message, details);
export const conflict = (message: string, details: unknown = null) => new AppError(409, 'conflict', message, details);
export const unavailable = (message: string, details: unknown = null) =>
  new AppError(503, 'unavailable', message, details);

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * The data directory refused a write (full, read-only, failing card). The answer says what the
 * operator can do and carries the system code only: paths stay in the log.
 */
export class StorageError extends AppError {
  constructor(readonly reason: string) {
    super(507, 'storage_unavailable', 'the data directory cannot be written (disk full, read-only or failing); free space or check the SD card, then retry', { reason });
    this.name = 'StorageError';
  }
}
