import * as v from 'valibot';

// Connection parameters only: a separate process reads the receiver and writes the fix into
// the location state file (spec part 2).
export const GPS_CONNECTION_MODES = ['none', 'serial', 'gpsd', 'bluetooth'] as const;
export const SERIAL_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;

export const GpsSettingsSchema = v.object({
  connection_mode: v.picklist(GPS_CONNECTION_MODES),
  serial_device: v.pipe(v.string(), v.maxLength(256), v.regex(/^(|\/dev\/[\w./-]+)$/, 'must be empty or a /dev/ path')),
  baud_rate: v.picklist(SERIAL_BAUD_RATES, `must be one of ${SERIAL_BAUD_RATES.join(', ')}`),
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
