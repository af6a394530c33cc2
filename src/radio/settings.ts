import * as v from 'valibot';
import { baudRate, serialDevice } from '../util/serial-rules.js';
import { ICOM_LAN_CONTROL_PORT, lanLoginFields } from '../util/net-rules.js';
import { badRequest } from '../util/errors.js';
import { choice } from '../util/choice.js';

// Radio settings (spec part 2). The radio issue owns the controller; the station owns the
// flat file so system state can show it from the start.
export const RIG_MODELS = ['rigA', 'rigB'] as const;
/** The rig the station controls (the radio and APRS settings both choose it). */
export const rigModel = () =>
  choice(RIG_MODELS, {
    rigA: 'Icom IC-705 (validated on a radio)',
    rigB: 'Icom IC-9700 (not yet validated on a radio)',
  });
export const RADIO_TRANSPORTS = ['usb', 'wifi'] as const;

// CI-V baud rates the IC-705 and IC-9700 offer on USB (their menus: 4800 to 115200).
export const RIG_BAUD_RATES = [4800, 9600, 19200, 38400, 57600, 115200] as const;
export const civAddress = () => v.pipe(v.string(), v.regex(/^0x[0-9A-Fa-f]{2}$/, 'must be a CI-V address like 0xA4'));

export const RadioSettingsSchema = v.object({
  enabled: v.boolean(),
  rig_model: rigModel(),
  transport: choice(RADIO_TRANSPORTS, {
    usb: 'CI-V on a USB serial port (serial_device, baud_rate)',
    wifi: "the IC-705's LAN session over Wi-Fi (wifi_host and its login; rigA only)",
  }),
  ...lanLoginFields(),
  serial_device: serialDevice(),
  baud_rate: baudRate(RIG_BAUD_RATES),
  civ_address: civAddress(),
  poll_interval_ms: v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(60000)),
  auto_connect: v.boolean(),
  auto_track_interval_ms: v.pipe(v.number(), v.integer(), v.minValue(250), v.maxValue(60000)),
  default_apply_mode_and_tone: v.boolean(),
  safe_tx_guard_enabled: v.boolean(),
});
export type RadioSettings = v.InferOutput<typeof RadioSettingsSchema>;

// 0xA4 is the factory CI-V address of the live-validated rig (rigA); 1000/1500 ms are the
// spec's shape hints.
export const defaultRadioSettings = (): RadioSettings => ({
  enabled: false,
  rig_model: 'rigA',
  transport: 'usb',
  wifi_host: '',
  wifi_username: '',
  wifi_password: '',
  wifi_control_port: ICOM_LAN_CONTROL_PORT,
  serial_device: '',
  baud_rate: 19200,
  civ_address: '0xA4',
  poll_interval_ms: 1000,
  auto_connect: false,
  auto_track_interval_ms: 1500,
  default_apply_mode_and_tone: true,
  safe_tx_guard_enabled: true,
});

/**
 * 400 unless the settings name a rig the Wi-Fi transport can reach: rigA (the IC-705, the one
 * model with a LAN protocol here) and an address. Radio and APRS settings both go through it.
 */
export function checkWifiTarget(s: { rig_model: string; wifi_host: string }, transportField: string, resource: 'radio' | 'APRS'): void {
  if (s.rig_model !== 'rigA') throw badRequest(`the Wi-Fi transport is for rigA (the IC-705) only: set ${transportField} usb`, { field: transportField }, 'transport_unsupported');
  if (!s.wifi_host) throw badRequest(`no rig address is set: enter the radio’s Wi-Fi address (wifi_host) in the ${resource} settings`, { field: 'wifi_host' }, 'no_wifi_host');
}
