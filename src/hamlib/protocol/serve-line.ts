import { RIG_COMMANDS, ROT_COMMANDS } from '../../ham/hamlib/commands.js';
import { rigDumpCaps, rigDumpState, rotDumpState, type DumpStateLimits, type RigDescription } from './dump-state.js';
import { HamlibError } from '../../ham/hamlib/errors.js';
import { formatInvalid, formatReply, rprt, type Outcome } from './reply.js';
import { CommandTable, parseRequestLine, type HamlibRequest } from './request.js';
import { parseInteger } from '../../ham/hamlib/values.js';

// Hamlib's network line protocol, the daemon side, over the rest of protocol/ (commands, request
// parsing, replies, values, \dump_state): what rigctld (TCP 4532) and rotctld (4533) of Hamlib 4.5
// answer to one request line. Pure: no sockets, no clock, no station. The caller
// keeps one session per connection and passes an `answer` for the commands that need the rig or
// the rotator; the protocol's own commands (\chk_vfo, \set_vfo_opt, \dump_state, \dump_caps,
// \get_powerstat, \get_info, gpredict's AOS/LOS, q) are answered here, the same way for every
// backend, because clients fail their open on any difference (sdrangel#1199, Hamlib#1266).

export const RIG_TABLE = new CommandTable(RIG_COMMANDS);
export const ROT_TABLE = new CommandTable(ROT_COMMANDS);

/** What one line does to the connection: the bytes to send, and whether to close after them. */
export interface LineResult {
  /** The reply; '' for none (a blank line, a comment, rotctld's quit). */
  reply: string;
  close: boolean;
}

/** Runs a command the protocol does not answer itself (a get or set on the rig or rotator). */
export type Answer = (request: HamlibRequest) => Outcome | Promise<Outcome>;

/** Per-connection state of a rigctld client. */
export interface RigSession {
  /** \set_vfo_opt: commands that take a VFO read one first. */
  vfoOpt: boolean;
  /**
   * \chk_vfo was asked: the client is Hamlib 4 or later and reads protocol 1 of \dump_state.
   * Older clients (Hamlib 3.3) read a protocol-0 dump only (rigctld's chk_vfo_executed).
   */
  chkVfoSeen: boolean;
  /** \set_lock_mode: the client asked that modes not be changed (Hamlib's NET client then skips its own set_mode). */
  lockMode: boolean;
}

export const newRigSession = (): RigSession => ({ vfoOpt: false, chkVfoSeen: false, lockMode: false });

const done: Outcome = { kind: 'done' };
const invalidArg: Outcome = { kind: 'error', code: HamlibError.EINVAL };

/** The protocol's own rigctld commands; null when the rig must answer. Mutates nothing: returns the session after. */
export function answerRigProtocol(req: HamlibRequest, session: RigSession, rig: RigDescription): { outcome: Outcome; session: RigSession } | null {
  switch (req.cmd) {
    case 'chk_vfo':
      return { outcome: { kind: 'values', values: [session.vfoOpt ? 1 : 0] }, session: { ...session, chkVfoSeen: true } };
    case 'set_vfo_opt': {
      const on = parseInteger(req.args[0]);
      if (on !== 0 && on !== 1) return { outcome: invalidArg, session };
      return { outcome: done, session: { ...session, vfoOpt: on === 1 } };
    }
    case 'set_lock_mode': {
      const on = parseInteger(req.args[0]);
      if (on !== 0 && on !== 1) return { outcome: invalidArg, session };
      return { outcome: done, session: { ...session, lockMode: on === 1 } };
    }
    case 'get_lock_mode':
      return { outcome: { kind: 'values', values: [session.lockMode ? 1 : 0] }, session };
    case 'dump_state':
      return { outcome: { kind: 'text', text: rigDumpState(rig, session.chkVfoSeen ? 1 : 0) }, session };
    case 'dump_caps':
      return { outcome: { kind: 'text', text: rigDumpCaps(rig) }, session };
    case 'get_powerstat':
      // The appliance only serves a rig it is talking to: from the network's view it is on
      // (SDR++ answering an error here broke clients, Hamlib#1266).
      return { outcome: { kind: 'values', values: [1] }, session };
    case 'get_info':
      return { outcome: { kind: 'values', values: [rig.info] }, session };
    case 'AOS':
    case 'LOS':
      // gpredict signals a pass's start and end; the station follows passes itself.
      return { outcome: done, session };
    default:
      return null;
  }
}

/** One rigctld line to its reply. */
export async function serveRigLine(line: string, session: RigSession, rig: RigDescription, answer: Answer): Promise<LineResult & { session: RigSession }> {
  const parsed = parseRequestLine(line, RIG_TABLE, { vfoOpt: session.vfoOpt });
  switch (parsed.kind) {
    case 'silent':
      return { reply: '', close: false, session };
    case 'quit':
      return { reply: rprt(0), close: true, session }; // rigctld acknowledges q, then closes
    case 'invalid':
      return { reply: formatInvalid(parsed), close: false, session };
  }
  const own = answerRigProtocol(parsed.request, session, rig);
  if (own) return { reply: formatReply(parsed.request, own.outcome), close: false, session: own.session };
  return { reply: formatReply(parsed.request, await answer(parsed.request)), close: false, session };
}

export interface RotDescription {
  /** The Hamlib model number reported (2 is Hamlib's NET rotctl, 1 its dummy). */
  model: number;
  limits: DumpStateLimits;
  info: string;
}

/** The protocol's own rotctld commands; null when the rotator must answer. */
export function answerRotProtocol(req: HamlibRequest, rot: RotDescription): Outcome | null {
  switch (req.cmd) {
    case 'dump_state':
      return { kind: 'text', text: rotDumpState(rot.model, rot.limits, req.ext === null ? null : { sep: req.ext === '+' ? '\n' : req.ext }) };
    case 'get_info':
      return { kind: 'values', values: [rot.info] };
    case 'dump_caps':
      return { kind: 'text', text: `Caps dump for model:\t${rot.model}\nModel name:\t${rot.info}\nMfg name:\tsatstation\nMin Azimuth:\t${rot.limits.min_az_deg.toFixed(2)}\nMax Azimuth:\t${rot.limits.max_az_deg.toFixed(2)}\nMin Elevation:\t${rot.limits.min_el_deg.toFixed(2)}\nMax Elevation:\t${rot.limits.max_el_deg.toFixed(2)}\n` };
    default:
      return null;
  }
}

/** One rotctld line to its reply. rotctld closes on q without a word. */
export async function serveRotLine(line: string, rot: RotDescription, answer: Answer): Promise<LineResult> {
  const parsed = parseRequestLine(line, ROT_TABLE, { vfoOpt: false });
  switch (parsed.kind) {
    case 'silent':
      return { reply: '', close: false };
    case 'quit':
      return { reply: '', close: true };
    case 'invalid':
      return { reply: formatInvalid(parsed), close: false };
  }
  const outcome = answerRotProtocol(parsed.request, rot) ?? (await answer(parsed.request));
  return { reply: formatReply(parsed.request, outcome), close: false };
}
