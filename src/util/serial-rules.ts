import * as v from 'valibot';

// One rule for every serial device a setting names (GPS receiver, rig CI-V, APRS TNC rig):
// empty, or a path under /dev/ such as /dev/ttyACM0 or /dev/serial/by-path/...-usb-0:1.4:1.0-port0
// (udev's stable names carry ':'). No '.' or '..' segments, so a setting cannot escape /dev.
// One regex (so /docs carries it as the field's pattern and the pages hint with it).
const DEVICE_PATH = /^(|\/dev(\/(?!\.\.?(?:\/|$))[\w.:+@-]+)+)$/;

export const serialDevice = () =>
  v.pipe(v.string(), v.maxLength(256), v.regex(DEVICE_PATH, 'must be empty or a device path under /dev/ (e.g. /dev/ttyACM0)'));

/** Standard rates a serial GPS or TNC may use. */
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

export const baudRate = <const T extends readonly number[]>(rates: T) => v.picklist(rates, `must be one of ${rates.join(', ')}`);
