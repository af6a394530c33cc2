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

/** A write refused for want of room: the card is full, or the service user's quota is. */
const DISK_FULL_CODES: ReadonlySet<string> = new Set(['ENOSPC', 'EDQUOT']);

/**
 * The data directory refused a write. A full disk is `insufficient_storage` (the operator frees
 * space); anything else (read-only, failing card, a file where the directory should be) is
 * `storage_unavailable`. Both are 507: the request was fine, the station's storage is not. The
 * answer carries the system code only: paths stay in the log.
 */
export class StorageError extends AppError {
  constructor(readonly reason: string) {
    const full = DISK_FULL_CODES.has(reason);
    super(
      507,
      full ? 'insufficient_storage' : 'storage_unavailable',
      full
        ? 'the disk is full, nothing was saved: free space on the SD card (old snapshots, the APRS log, files of your own), then retry'
        : 'the data directory cannot be written (disk full, read-only or failing); free space or check the SD card, then retry',
      { reason },
    );
    this.name = 'StorageError';
  }
}
