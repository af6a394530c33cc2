import { Ic705Driver } from './rig-ic705.js';
import { Ic9700Driver } from './rig-ic9700.js';
import { civLines } from './civ-line.js';
import type { CivTimeouts } from './civ-bus.js';
import type { LanLeaser } from './lan/lan-types.js';
import { noSerialDevice, type RigLine, type RigLines } from './rig-line.js';
import { isIcom, isYaesu, type RigLink } from './settings.js';
import type { SerialDriver } from '../links/serial-driver.js';
import type { Clock } from '../util/clock.js';
import { badRequest } from '../util/errors.js';

// Every kind of rig line behind one opener: the Icoms' CI-V (USB or the IC-705's Wi-Fi), Yaesu's
// 5-byte CAT and Hamlib's rigctld. The Yaesu and Hamlib code loads when such a rig is first
// opened: a station with an Icom never pays for them (issue 34's "nothing of a driver loaded
// until its model is chosen").

export interface RigLinesDeps {
  serial: SerialDriver;
  lan: LanLeaser;
  clock: Clock;
  timeouts?: CivTimeouts;
}

export function rigLines(d: RigLinesDeps): RigLines {
  const civ = civLines({ serial: d.serial, lan: d.lan, timeouts: d.timeouts });
  return {
    check(link, field = '') {
      if (isIcom(link.rig_model)) return civ.check(link, field);
      if (link.rig_model === 'hamlib') {
        if (link.hamlib_address) return;
        if (link.hamlib_model <= 0) {
          throw badRequest(`no Hamlib model is set: enter the radio's Hamlib model number (${field}hamlib_model, rigctl -l lists them), or the address of a rigctld you run (${field}hamlib_address)`, { field: `${field}hamlib_model` }, 'no_hamlib_model');
        }
      }
      if (!link.serial_device) throw noSerialDevice(field);
    },
    resource(link) {
      if (isIcom(link.rig_model)) return civ.resource(link);
      return link.rig_model === 'hamlib' && link.hamlib_address ? null : link.serial_device || null;
    },
    async open(link): Promise<RigLine> {
      if (isIcom(link.rig_model)) {
        const line = await civ.open(link);
        const rig = link.rig_model === 'rigB' ? new Ic9700Driver(line.bus) : new Ic705Driver(line.bus);
        return { label: line.label, rig, onLost: (fn) => line.onLost(fn), close: () => line.close() };
      }
      if (isYaesu(link.rig_model)) return (await import('./yaesu/yaesu-line.js')).openYaesuLine({ serial: d.serial, clock: d.clock }, { ...link, rig_model: link.rig_model });
      return (await import('./rigctld/hamlib-line.js')).openHamlibLine({ clock: d.clock }, link);
    },
  };
}

