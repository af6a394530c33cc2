import { HamlibError } from '../ham/hamlib/errors.js';
import type { Outcome } from './protocol/reply.js';
import type { HamlibRequest } from './protocol/request.js';
import { formatDeg, parseInteger, parseNumber } from '../ham/hamlib/values.js';
import { rprtOf } from './station-errors.js';
import type { ExternalRotator } from './station-equipment.js';

// rotctld's rotator commands on the station's rotator (issue 26). Positions are the rotator's
// controller coordinates, the same \dump_state announces as min/max; a target outside the limits
// is refused by the rotator (EINVAL), a move runs toward the limit in its direction until S.

/** Hamlib's ROT_MOVE_* directions (rotator.h): up, down, left (CCW), right (CW). */
const MOVE = { UP: 2, DOWN: 4, LEFT: 8, RIGHT: 16 } as const;

const ok: Outcome = { kind: 'done' };

export async function answerRot(req: HamlibRequest, rot: ExternalRotator): Promise<Outcome> {
  try {
    return await run(req, rot);
  } catch (err) {
    return { kind: 'error', code: rprtOf(err) };
  }
}

async function run(req: HamlibRequest, rot: ExternalRotator): Promise<Outcome> {
  switch (req.cmd) {
    case 'get_pos': {
      const p = rot.position();
      return { kind: 'values', values: [formatDeg(p.az_deg), formatDeg(p.el_deg)] };
    }
    case 'set_pos': {
      const az = parseNumber(req.args[0]);
      const el = parseNumber(req.args[1]);
      if (az === null || el === null) return { kind: 'error', code: HamlibError.EINVAL };
      await rot.goto(az, el);
      return ok;
    }
    case 'stop':
      await rot.halt();
      return ok;
    case 'park':
      await rot.park();
      return ok;
    case 'move': {
      const dir = parseInteger(req.args[0]);
      if (parseInteger(req.args[1]) === null) return { kind: 'error', code: HamlibError.EINVAL };
      const p = rot.position();
      const l = rot.travelLimits();
      switch (dir) {
        case MOVE.UP:
          await rot.goto(p.az_deg, l.max_el_deg);
          return ok;
        case MOVE.DOWN:
          await rot.goto(p.az_deg, l.min_el_deg);
          return ok;
        case MOVE.LEFT:
          await rot.goto(l.min_az_deg, p.el_deg);
          return ok;
        case MOVE.RIGHT:
          await rot.goto(l.max_az_deg, p.el_deg);
          return ok;
        default:
          return { kind: 'error', code: HamlibError.EINVAL };
      }
    }
    default:
      return { kind: 'error', code: HamlibError.ENAVAIL };
  }
}
