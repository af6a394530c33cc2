import { HamlibError, type HamlibErrorCode } from '../ham/hamlib/errors.js';
import type { Outcome } from './protocol/reply.js';
import type { HamlibRequest } from './protocol/request.js';
import { formatFreqHz, parseFreqHz, parseInteger } from '../ham/hamlib/values.js';
import type { HamlibVfo } from '../ham/hamlib/vocab.js';
import { rprtOf } from './station-errors.js';
import { HAMLIB_MODES, hamlibModeOf, stationModeOf } from './station-modes.js';
import { passbandOf, rigDescriptionOf } from './rig-description.js';
import type { ExternalRig, PttBlock, RigReading, RigVfo } from './station-equipment.js';
import { logger } from '../util/logger.js';

const log = logger('hamlib');

// rigctld's rig commands on the station's rig (issue 26): the VFOs, split and the IC-705 pair
// order as the radio area has them. VFO A is the receive VFO (rigB: MAIN) and VFO B the
// transmit VFO (rigB: SUB), so Hamlib's names map as VFOA/Main/RX -> A and VFOB/Sub/TX -> B,
// and currVFO is the VFO the connection last chose with V (A at first). Every get answers from
// a readback at most one poll interval old; every set goes through the radio area's rules.

/** Per-connection state the rig commands keep (next to the protocol's own RigSession). */
export interface RigClientState {
  /** "rigctld 127.0.0.1:50122": who holds the rig after a set. */
  readonly name: string;
  /** The VFO "currVFO" means for this client. */
  current: RigVfo;
}

const ok: Outcome = { kind: 'done' };
const error = (code: HamlibErrorCode): Outcome => ({ kind: 'error', code });

/** What \get_modes lists. */
const MODE_LIST = HAMLIB_MODES.join(' ');

/** A VFO name a client sent to the station's VFO; null for one the rig does not have. */
function vfoOf(v: HamlibVfo | string, current: RigVfo): RigVfo | null {
  switch (v) {
    case 'currVFO':
    case 'VFO':
      return current;
    case 'VFOA':
    case 'Main':
    case 'MainA':
    case 'RX':
      return 'A';
    case 'VFOB':
    case 'Sub':
    case 'SubA':
    case 'TX':
      return 'B';
    default:
      return null;
  }
}

const vfoName = (v: RigVfo, model: 'rigA' | 'rigB'): string => (model === 'rigB' ? (v === 'A' ? 'Main' : 'Sub') : v === 'A' ? 'VFOA' : 'VFOB');

export interface RigAnswerDeps {
  rig: ExternalRig;
  /** The station's rules for a network PTT (allow_ptt, emergency stop, lock, callsign). */
  pttBlock: PttBlock;
  /** A refused PTT, for the runtime's last_error and the log. */
  onRefused?: (why: string) => void;
  /** A PTT that keyed: an earlier refusal no longer stands. */
  onKeyed?: () => void;
}

/** Answers one rig command for one client. Never throws: a failure is an RPRT code. */
export async function answerRig(req: HamlibRequest, c: RigClientState, d: RigAnswerDeps): Promise<Outcome> {
  try {
    return await run(req, c, d);
  } catch (err) {
    // The station's refusals carry a code; anything else is a fault of ours, said in the log.
    if (typeof (err as { code?: unknown })?.code !== 'string') log.error(`${c.name}: ${req.cmd} failed`, err);
    return error(rprtOf(err));
  }
}

async function run(req: HamlibRequest, c: RigClientState, d: RigAnswerDeps): Promise<Outcome> {
  const rig = d.rig;
  const model = rig.rigModel();
  const target = req.vfo === null ? c.current : vfoOf(req.vfo, c.current);
  if (target === null) return error(HamlibError.EINVAL);
  // A frequency the rig cannot receive is a bad argument (Hamlib's own rigs answer EINVAL too).
  const freqArg = (i: number) => {
    const hz = parseFreqHz(req.args[i] ?? '');
    return hz !== null && rigDescriptionOf(model).rx_ranges.some((r) => hz >= r.start_hz && hz <= r.end_hz) ? hz : null;
  };
  const freqOf = (r: RigReading, v: RigVfo) => (v === 'A' ? r.a_hz : r.b_hz);
  const modeOf = (r: RigReading, v: RigVfo) => {
    const m = v === 'A' ? r.a_mode : r.b_mode;
    return m === null ? null : hamlibModeOf(m);
  };
  const modeValues = (m: string | null): Outcome => (m === null ? error(HamlibError.ETIMEOUT) : { kind: 'values', values: [m, passbandOf(m)] });

  switch (req.cmd) {
    case 'get_freq': {
      const hz = freqOf(await rig.externalRead(), target);
      return hz === null ? error(HamlibError.ETIMEOUT) : { kind: 'values', values: [formatFreqHz(hz)] };
    }
    case 'set_freq': {
      const hz = freqArg(0);
      if (hz === null) return error(HamlibError.EINVAL);
      await rig.externalSetFrequency(target, hz, c.name);
      return ok;
    }
    case 'get_mode':
      return modeValues(modeOf(await rig.externalRead(), target));
    case 'set_mode':
    case 'set_split_mode': {
      const mode = stationModeOf(req.args[0]);
      // The passband is left to the rig's filter for the mode (FIL1); any number is accepted.
      if (mode === null || parseInteger(req.args[1]) === null) return error(HamlibError.EINVAL);
      await rig.externalSetMode(req.cmd === 'set_mode' ? target : 'B', mode, c.name);
      return ok;
    }
    case 'get_vfo':
      return { kind: 'values', values: [vfoName(c.current, model)] };
    case 'set_vfo': {
      const v = vfoOf(req.args[0], c.current);
      if (v === null) return error(HamlibError.EINVAL);
      c.current = v;
      return ok;
    }
    case 'get_split_vfo': {
      const r = await rig.externalRead();
      // rigB transmits on SUB whenever the station drives it: that is its split.
      const split = model === 'rigB' ? true : r.split === true;
      return { kind: 'values', values: [split ? 1 : 0, vfoName('B', model)] };
    }
    case 'set_split_vfo': {
      const on = parseInteger(req.args[0]);
      if (on !== 0 && on !== 1) return error(HamlibError.EINVAL);
      // The transmit VFO is always B here. gpredict without vfo_opt sends its own VFO number
      // ("S 1 2"); a number or B is taken as B, naming A as the transmit VFO is refused.
      const tx = /^\d+$/.test(req.args[1]) ? 'B' : vfoOf(req.args[1], c.current);
      if (on === 1 && tx !== 'B') return error(HamlibError.EINVAL);
      await rig.externalSetSplit(on === 1, c.name);
      return ok;
    }
    case 'get_split_freq': {
      const hz = (await rig.externalRead()).b_hz;
      return hz === null ? error(HamlibError.ETIMEOUT) : { kind: 'values', values: [formatFreqHz(hz)] };
    }
    case 'set_split_freq': {
      const hz = freqArg(0);
      if (hz === null) return error(HamlibError.EINVAL);
      await rig.externalSetFrequency('B', hz, c.name);
      return ok;
    }
    case 'get_split_mode':
      return modeValues(modeOf(await rig.externalRead(), 'B'));
    case 'set_split_freq_mode': {
      const hz = freqArg(0);
      const mode = stationModeOf(req.args[1]);
      if (hz === null || mode === null || parseInteger(req.args[2]) === null) return error(HamlibError.EINVAL);
      await rig.externalSetFrequency('B', hz, c.name);
      await rig.externalSetMode('B', mode, c.name);
      return ok;
    }
    case 'get_split_freq_mode': {
      const r = await rig.externalRead();
      const m = modeOf(r, 'B');
      if (r.b_hz === null || m === null) return error(HamlibError.ETIMEOUT);
      return { kind: 'values', values: [formatFreqHz(r.b_hz), m, passbandOf(m)] };
    }
    case 'get_ptt':
      return { kind: 'values', values: [(await rig.externalReadPtt()) ? 1 : 0] };
    case 'set_ptt': {
      const ptt = parseInteger(req.args[0]);
      if (ptt === null || ptt < 0 || ptt > 3) return error(HamlibError.EINVAL); // 0 off; 1 on, 2 mic, 3 data
      if (ptt > 0) {
        const why = d.pttBlock();
        if (why) {
          d.onRefused?.(`${c.name}: PTT refused: ${why}`);
          return error(HamlibError.ERJCTED);
        }
      }
      await rig.externalSetPtt(ptt > 0, c.name);
      if (ptt > 0) d.onKeyed?.();
      return ok;
    }
    case 'get_vfo_info': {
      const v = vfoOf(req.args[0], c.current);
      if (v === null) return error(HamlibError.EINVAL);
      const r = await rig.externalRead();
      const hz = freqOf(r, v);
      const m = modeOf(r, v);
      if (hz === null || m === null) return error(HamlibError.ETIMEOUT);
      return { kind: 'values', values: [formatFreqHz(hz), m, passbandOf(m), r.split ? 1 : 0, model === 'rigB' ? 1 : 0] };
    }
    case 'get_vfo_list':
      return { kind: 'values', values: [model === 'rigB' ? 'Main Sub' : 'VFOA VFOB'] };
    case 'get_modes':
      return { kind: 'values', values: [MODE_LIST] };
    default:
      // A command Hamlib knows that this station does not pass on (levels, functions, memories...).
      return error(HamlibError.ENAVAIL);
  }
}
