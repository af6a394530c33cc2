import * as v from 'valibot';
import { baudRate, serialDevice } from '../util/serial-rules.js';
import { ICOM_LAN_CONTROL_PORT, hostAndPort, lanLoginFields } from '../util/net-rules.js';
import { AppError, badRequest } from '../util/errors.js';
import { choice } from '../util/choice.js';

// Radio settings (spec part 2). The radio issue owns the controller; the station owns the
// flat file so system state can show it from the start.
/** The Icoms the station speaks CI-V to (the APRS station keys one of these). */
export const ICOM_RIG_MODELS = ['rigA', 'rigB'] as const;
const ICOM_MEANINGS = {
  rigA: 'Icom IC-705 (validated on a radio)',
  rigB: 'Icom IC-9700 (not yet validated on a radio)',
} as const;
/** The Icom the APRS station keys over CI-V. */
export const rigModel = () => choice(ICOM_RIG_MODELS, ICOM_MEANINGS);

/** Every radio the station drives (issue 34): the Icoms over CI-V, four Yaesus natively, the rest through Hamlib. */
export const RIG_MODELS = ['rigA', 'rigB', 'ft817', 'ft818', 'ft857', 'ft897', 'hamlib'] as const;
export type RigModel = (typeof RIG_MODELS)[number];
export const YAESU_RIG_MODELS = ['ft817', 'ft818', 'ft857', 'ft897'] as const;
export const isYaesu = (m: RigModel): m is (typeof YAESU_RIG_MODELS)[number] => (YAESU_RIG_MODELS as readonly string[]).includes(m);
export const isIcom = (m: RigModel): m is (typeof ICOM_RIG_MODELS)[number] => m === 'rigA' || m === 'rigB';
const anyRigModel = () =>
  choice(RIG_MODELS, {
    ...ICOM_MEANINGS,
    ft817: "Yaesu FT-817 (5-byte CAT on its ACC port, 8N2)",
    ft818: 'Yaesu FT-818 (5-byte CAT, as the FT-817)',
    ft857: 'Yaesu FT-857 (5-byte CAT)',
    ft897: 'Yaesu FT-897 (5-byte CAT, as the FT-857)',
    hamlib: "any radio Hamlib drives, through its rigctld (hamlib_model, or a rigctld at hamlib_address)",
  });
export const RADIO_TRANSPORTS = ['usb', 'wifi'] as const;

// Serial speeds: the IC-705 and IC-9700 offer 4800 to 115200 on USB; the Yaesus' CAT 4800, 9600
// and 38400; radios behind Hamlib down to 1200 (checkRadioLink holds each model to its own).
export const RIG_BAUD_RATES = [1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
export const civAddress = () => v.pipe(v.string(), v.regex(/^0x[0-9A-Fa-f]{2}$/, 'must be a CI-V address like 0xA4'));

/** What names one radio and the way to it; the main rig's and uplink_rig's fields alike. */
const rigLinkEntries = () => ({
  rig_model: anyRigModel(),
  transport: choice(RADIO_TRANSPORTS, {
    usb: 'a serial port: CI-V or CAT on USB (serial_device, baud_rate)',
    wifi: "the IC-705's LAN session over Wi-Fi (wifi_host and its login; rigA only)",
  }),
  ...lanLoginFields(),
  serial_device: serialDevice(),
  baud_rate: baudRate(RIG_BAUD_RATES),
  civ_address: civAddress(),
  /** Hamlib's model number (rigctl -l), 0 when unused. */
  hamlib_model: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(999999)),
  /** "" : the station runs rigctld itself; "host:port": a rigctld the operator runs. */
  hamlib_address: hostAndPort(),
});

export const RigLinkSchema = v.object(rigLinkEntries());
/** One radio and the way to it. */
export type RigLink = v.InferOutput<typeof RigLinkSchema>;

export const RadioSettingsSchema = v.object({
  enabled: v.boolean(),
  ...rigLinkEntries(),
  /** A second radio that transmits while the main one receives; null: one radio does both. */
  uplink_rig: v.nullable(RigLinkSchema),
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
  hamlib_model: 0,
  hamlib_address: '',
  uplink_rig: null,
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

/** The CAT speeds the FT-817/818/857/897 offer (menu "CAT RATE"). */
export const YAESU_BAUD_RATES = [4800, 9600, 38400] as const;
/** The CI-V USB speeds of the IC-705 and IC-9700 (their menus). */
export const ICOM_BAUD_RATES = [4800, 9600, 19200, 38400, 57600, 115200] as const;

/** A 400 like the schema's own (validation_failed), for a rule between fields; details.field names it. */
const fieldError = (field: string, message: string, code = 'validation_failed'): AppError =>
  new AppError(400, code, `invalid body: ${field}: ${message}`, { field, fields: [{ field, message }] });

/** 400 naming the field (prefixed: "uplink_rig.") when one radio's link settings cannot go together. */
export function checkRigLink(l: RigLink, prefix = ''): void {
  const rates: readonly number[] | null = isYaesu(l.rig_model) ? YAESU_BAUD_RATES : isIcom(l.rig_model) ? ICOM_BAUD_RATES : null;
  if (rates && !rates.includes(l.baud_rate)) {
    throw fieldError(`${prefix}baud_rate`, `the ${l.rig_model} runs at ${rates.join(', ')} baud`);
  }
  if (l.transport === 'wifi' && !isIcom(l.rig_model)) {
    throw fieldError(`${prefix}transport`, `the Wi-Fi transport is the IC-705's LAN session: a ${l.rig_model} rig needs usb`, 'transport_unsupported');
  }
}

/** The radio settings' cross-field rules (the schema holds each field's own): both radios' links, and one device per radio. */
export function checkRadioSettings(s: RadioSettings): RadioSettings {
  checkRigLink(s);
  const up = s.uplink_rig;
  if (up) {
    checkRigLink(up, 'uplink_rig.');
    const serialOf = (l: RigLink) => (l.transport === 'usb' && !(l.rig_model === 'hamlib' && l.hamlib_address) ? l.serial_device : '');
    if (serialOf(up) && serialOf(up) === serialOf(s)) {
      throw fieldError('uplink_rig.serial_device', `both radios name ${up.serial_device}: each radio needs its own serial device`, 'device_in_use');
    }
  }
  return s;
}

/** The main radio's link, out of the whole settings. */
export const mainLink = (s: RadioSettings): RigLink => ({
  rig_model: s.rig_model,
  transport: s.transport,
  wifi_host: s.wifi_host,
  wifi_username: s.wifi_username,
  wifi_password: s.wifi_password,
  wifi_control_port: s.wifi_control_port,
  serial_device: s.serial_device,
  baud_rate: s.baud_rate,
  civ_address: s.civ_address,
  hamlib_model: s.hamlib_model,
  hamlib_address: s.hamlib_address,
});
