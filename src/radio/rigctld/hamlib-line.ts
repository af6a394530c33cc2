import type { RigLine } from '../rig-line.js';
import { RigOpenError } from '../rig-line.js';
import type { RigLink } from '../settings.js';
import type { Clock } from '../../util/clock.js';

// Opens a radio through Hamlib: a rigctld the operator runs (hamlib_address), or one the station
// runs itself on 127.0.0.1. (Being written: issue 34.)

export interface HamlibLineDeps {
  clock: Clock;
}

export async function openHamlibLine(_d: HamlibLineDeps, _link: RigLink): Promise<RigLine> {
  throw new RigOpenError('the Hamlib rig driver is not built yet', false);
}
