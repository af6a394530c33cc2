import { CivBus, type CivTimeouts } from './civ-bus.js';
import type { RigLink } from './settings.js';
import type { SerialDriver } from '../links/serial-driver.js';
import { LanOpenError, type LanLeaser } from './lan/lan-types.js';
import { AppError, badRequest } from '../util/errors.js';
import { checkWifiTarget } from './settings.js';
import { RigOpenError, noSerialDevice, type LinkOpener, type OpenLink } from './rig-line.js';

// The rig's CI-V line, whatever carries it: a serial device (USB) or the IC-705's LAN session
// (Wi-Fi). The controller, drivers, auto-track and session run unchanged over either; only
// opening, closing and "it went away" differ, and they live here.

export const civAddressByte = (s: string): number => parseInt(s.slice(2), 16);

/** An open CI-V line to the rig: its bus (the label is the device path or lan://host:port). */
export interface CivLine extends OpenLink {
  readonly bus: CivBus;
}

/** Opens the CI-V line the radio settings name. */
export type CivLines = LinkOpener<CivLine>;

/** An open failure no retry fixes until the operator changes something. */
export const isFinal = (err: unknown): boolean => (err instanceof LanOpenError || err instanceof RigOpenError) && !err.retry;

export function civLines(d: { serial: SerialDriver; lan: LanLeaser; timeouts?: CivTimeouts }): CivLines {
  return {
    check(s, field = '') {
      if (s.transport === 'wifi') checkWifiTarget(s, `${field}transport`, 'radio');
      else if (!s.serial_device) throw noSerialDevice(field);
    },
    resource: (s) => (s.transport === 'wifi' ? null : s.serial_device),
    async open(s) {
      if (s.transport === 'wifi') {
        const lease = await d.lan.lease('the radio controller', { host: s.wifi_host, port: s.wifi_control_port, username: s.wifi_username, password: s.wifi_password }, civAddressByte(s.civ_address));
        return { label: lease.key, bus: lease.bus, onLost: (fn) => lease.onLost(fn), close: () => lease.release() };
      }
      if (!s.serial_device) throw new AppError(400, 'no_serial_device', 'no serial device is set in the radio settings');
      const conn = await d.serial.open(s.serial_device, s.baud_rate);
      const bus = new CivBus(conn, { rigAddr: civAddressByte(s.civ_address), timeouts: d.timeouts });
      let closing = false;
      return {
        label: conn.path,
        bus,
        onLost: (fn) =>
          conn.onClose((err) => {
            if (!closing) fn(`serial device ${conn.path} went away (${err ? err.message : 'closed'})`);
          }),
        close: async () => {
          closing = true;
          bus.close(new Error('disconnected'));
          await conn.close();
        },
      };
    },
  };
}
