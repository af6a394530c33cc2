import * as v from 'valibot';
import { SERIAL_BAUD_RATES, baudRate, serialDevice } from '../util/serial-rules.js';
import { choice } from '../util/choice.js';

// Connection parameters only: a separate process reads the receiver and writes the fix into
// the location state file (spec part 2).
export const GPS_CONNECTION_MODES = ['none', 'serial', 'gpsd', 'bluetooth'] as const;

export const GpsSettingsSchema = v.object({
  connection_mode: choice(GPS_CONNECTION_MODES, {
    none: 'no GPS: the location is the selected profile',
    serial: 'an NMEA receiver on serial_device at baud_rate',
    gpsd: 'the gpsd daemon on this machine',
    bluetooth: 'a Bluetooth receiver at bluetooth_address, RFCOMM bluetooth_channel',
  }),
  serial_device: serialDevice(),
  baud_rate: baudRate(SERIAL_BAUD_RATES),
  bluetooth_address: v.pipe(
    v.string(),
    v.regex(/^(|[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5})$/, 'must be empty or a MAC address like 00:11:22:33:44:55'),
  ),
  bluetooth_channel: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(30)),
});
export type GpsSettings = v.InferOutput<typeof GpsSettingsSchema>;

export const defaultGpsSettings = (): GpsSettings => ({
  connection_mode: 'none',
  serial_device: '',
  baud_rate: 9600,
  bluetooth_address: '',
  bluetooth_channel: 1,
});
