import type { RigLine } from '../rig-line.js';
import { RigOpenError } from '../rig-line.js';
import type { RigLink } from '../settings.js';
import type { SerialDriver } from '../../links/serial-driver.js';
import type { Clock } from '../../util/clock.js';
import { CatPort } from './cat-port.js';
import { YaesuDriver, yaesuModel } from './yaesu-driver.js';

// Opens an FT-817/818/857/897 on its serial device (8N2) with the native 5-byte CAT driver. A
// failed open throws: RigConnection retries with backoff. The CAT port's reply timeouts run on
// the system clock, as the CI-V bus's do: the radio answers in real time, and a test's stepped
// clock (d.clock) would run a timeout out while a real reply is still on its way.

export interface YaesuLineDeps {
  serial: SerialDriver;
  clock: Clock;
}

export async function openYaesuLine(d: YaesuLineDeps, link: RigLink & { rig_model: 'ft817' | 'ft818' | 'ft857' | 'ft897' }): Promise<RigLine> {
  if (!link.serial_device) throw new RigOpenError('no serial device is set in the radio settings', false);
  const conn = await d.serial.open(link.serial_device, link.baud_rate, { stopBits: 2 });
  const port = new CatPort(conn, { name: yaesuModel(link.rig_model) });
  const rig = new YaesuDriver(port, link.rig_model);
  let closing = false;
  conn.onClose((err) => port.close(new Error(err ? err.message : 'disconnected')));
  return {
    label: conn.path,
    rig,
    onLost: (fn) =>
      conn.onClose((err) => {
        if (!closing) fn(`serial device ${conn.path} went away (${err ? err.message : 'closed'})`);
      }),
    close: async () => {
      closing = true;
      port.close(new Error('disconnected'));
      await conn.close();
    },
  };
}
