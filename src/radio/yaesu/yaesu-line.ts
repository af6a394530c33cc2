import type { RigLine } from '../rig-line.js';
import { RigOpenError } from '../rig-line.js';
import type { RigLink } from '../settings.js';
import type { SerialDriver } from '../../links/serial-driver.js';
import type { Clock } from '../../util/clock.js';

// Opens an FT-817/818/857/897 on its serial device (8N2) with the native 5-byte CAT driver.
// (Being written: issue 34.)

export interface YaesuLineDeps {
  serial: SerialDriver;
  clock: Clock;
}

export async function openYaesuLine(_d: YaesuLineDeps, link: RigLink & { rig_model: 'ft817' | 'ft818' | 'ft857' | 'ft897' }): Promise<RigLine> {
  throw new RigOpenError(`the ${link.rig_model} driver is not built yet`, false);
}
