import { StorageError, errorMessage } from '../util/errors.js';

// How the log names a failed file operation in lastError and its warnings: the errno (ENOSPC,
// ENOTDIR…) when there is one, since that is what the operator can act on.

export const errnoOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;

export function describeIoError(err: unknown): string {
  // A StorageError (store/atomic-file's rewrite) carries the errno as its reason; its code is the API's.
  return err instanceof StorageError ? err.reason : (errnoOf(err) ?? errorMessage(err));
}
