import { BusClosed, RigRejected } from './civ-bus.js';
import { TimeoutError } from '../util/waitress.js';
import { LegError } from './leg-error.js';
import { RigctldClosed, RigctldRejected, RigctldTimeout } from './rigctld/rigctld-errors.js';
import { AppError, errorMessage } from '../util/errors.js';

// How a rig fault reads in an HTTP answer: the route says what went wrong on the wire and what
// the operator can do; the same text lands in runtime.last_error.

export { notConnected } from './refusals.js';

export function rigFault(err: unknown, what: string): AppError {
  if (err instanceof AppError) return err;
  // One of two radios: its cause decides the status, its leg goes into the words.
  if (err instanceof LegError) {
    if (err.down) return new AppError(503, 'rig_unavailable', `${what}: ${err.message}`, { leg: err.leg });
    const cause = err.fault instanceof Error ? err.fault : new Error(String(err.fault));
    const inner = rigFault(cause, `${what}: ${err.leg} radio (${err.rig})`);
    // A driver's own refusal (the Yaesu keyed by hand) keeps its status and code, and gains the leg.
    return inner === cause ? new AppError(inner.status, inner.code, `${what}: ${err.message}`, inner.details, inner.headers) : inner;
  }
  if (err instanceof TimeoutError) {
    return new AppError(504, 'rig_timeout', `${what}: ${err.message}; the command may still have applied, the last good readback is kept: poll to read the rig again`, {
      command: err.what,
    });
  }
  if (err instanceof RigRejected) return new AppError(502, 'rig_rejected', `${what}: ${err.message}`, { command: err.what });
  if (err instanceof BusClosed) return new AppError(503, 'rig_unavailable', `${what}: the rig's serial link is down (${err.message})`);
  // The same three faults through Hamlib's rigctld.
  if (err instanceof RigctldTimeout) return new AppError(504, 'rig_timeout', `${what}: ${err.message}; the last good readback is kept`, { command: err.cmd });
  if (err instanceof RigctldRejected) return new AppError(502, 'rig_rejected', `${what}: ${err.message}`, { command: err.cmd });
  if (err instanceof RigctldClosed) return new AppError(503, 'rig_unavailable', `${what}: the connection to rigctld is down (${err.message})`);
  return new AppError(502, 'rig_error', `${what}: ${errorMessage(err)}`);
}
