import { HamlibError, type HamlibErrorCode } from '../ham/hamlib/errors.js';

// The station's refusals and faults as Hamlib's RPRT codes, one mapping for rigctld's answers
// (answer-rig.ts) and rotctld's (answer-rot.ts). The radio and rotator areas throw the station's
// own errors (AppError: a code and a status); a client reads only the number, so what differs
// for the operator (a timeout, a link down, a refusal, a bad argument) keeps its own code.

/** The station's errors as Hamlib's codes. */
export function rprtOf(err: unknown): HamlibErrorCode {
  const code = (err as { code?: unknown })?.code;
  switch (code) {
    case 'rig_timeout':
    case 'rotator_timeout':
      return HamlibError.ETIMEOUT;
    case 'rig_not_connected':
    case 'radio_disabled':
    case 'rig_unavailable':
    case 'rotator_not_connected':
    case 'rotator_disabled':
      return HamlibError.EIO;
    case 'not_available':
      return HamlibError.ENAVAIL;
    case 'validation_failed':
      return HamlibError.EINVAL;
    case 'rig_rejected':
    case 'session_owns_rig':
    case 'tx_guard':
    case 'tx_refused':
    case 'rotator_tracking':
      return HamlibError.ERJCTED;
    default:
      return (err as { status?: number })?.status === 400 ? HamlibError.EINVAL : HamlibError.EIO;
  }
}
