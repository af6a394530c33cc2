import * as v from 'valibot';
import { SERIAL_BAUD_RATES, baudRate, serialDevice } from '../util/serial-rules.js';
import { civAddress, rigModel } from '../radio/radio-api.js';
import { choice } from '../util/choice.js';
import { ICOM_LAN_CONTROL_PORT, hostName, lanLoginFields, printableText } from '../util/net-rules.js';

// APRS settings (spec part 2): every field the spec names, with bounds chosen where the spec
// shows none (recorded in docs/decisions/station-and-lite.md). The APRS issue owns the station service; the
// station owns this file because system state and stationIdentity read it.

const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const text = printableText;
const host = hostName;
const AX25_ADDR = '[A-Z0-9]{1,6}(-(1[0-5]|[0-9]))?';
const ax25Addr = () => v.pipe(v.string(), v.toUpperCase(), v.regex(new RegExp(`^${AX25_ADDR}$`), 'must be an AX.25 address like WIDE1-1'));
/** A digipeater path: up to 8 comma-separated AX.25 addresses, or empty. */
const ax25Path = () =>
  v.pipe(v.string(), v.toUpperCase(), v.regex(new RegExp(`^(|${AX25_ADDR}(,${AX25_ADDR}){0,7})$`), 'must be comma-separated AX.25 addresses like WIDE1-1,WIDE2-1'));
const satId = () => v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'));

export const OPERATING_MODES = ['terrestrial', 'satellite'] as const;
/** Where the station operates (the settings' default, and what /aprs selects). */
export const operatingMode = () =>
  choice(OPERATING_MODES, {
    terrestrial: 'the regional APRS frequency for the location (or terrestrial_manual_frequency_hz)',
    satellite: "the selected satellite's APRS channel; transmit only during its pass",
  });
export const APRS_TRANSPORTS = ['usb', 'wifi'] as const;
/** How the TNC keys the transmitter (USB transport). */
export const PTT_METHODS = ['cat', 'rts', 'dtr', 'cm108', 'vox'] as const;

export const DigipeaterSchema = v.object({
  enabled: v.boolean(),
  aliases: v.pipe(v.array(ax25Addr()), v.maxLength(8)),
  max_hops: int(1, 7),
  dedupe_window_s: int(1, 600),
  callsign_allowlist: v.pipe(v.array(ax25Addr()), v.maxLength(64)),
  path_blocklist: v.pipe(v.array(ax25Addr()), v.maxLength(32)),
});

export const IgateSchema = v.object({
  enabled: v.boolean(),
  server_host: host(),
  server_port: int(1, 65535),
  /** Empty: log in with the station callsign. */
  login_callsign: v.pipe(v.string(), v.toUpperCase(), v.regex(new RegExp(`^(|${AX25_ADDR})$`), 'must be empty or a callsign')),
  /** APRS-IS passcode; -1 logs in receive-only. */
  passcode: int(-1, 32767),
  filter: text(256),
  connect_timeout_s: int(1, 120),
  gate_terrestrial_rx: v.boolean(),
  gate_satellite_rx: v.boolean(),
});

export const AprsSettingsSchema = v.object({
  callsign: v.pipe(v.string(), v.toUpperCase(), v.regex(/^[A-Z0-9]{0,6}$/, 'must be up to 6 letters/digits')),
  ssid: int(0, 15),
  listen_only: v.boolean(),
  operating_mode: operatingMode(),
  transport_mode: choice(APRS_TRANSPORTS, {
    usb: 'a KISS TNC (our Dire Wolf sidecar, or your own at kiss_host) with a sound card and a PTT line',
    wifi: "the IC-705's LAN session: our own modem transmits, Dire Wolf decodes, no sound card (rigA only)",
  }),
  rig_model: rigModel(),
  // Dire Wolf 1.6 takes Hamlib models 1–9999 after PTT RIG (2 = rigctld).
  rig_lib_model_id: int(1, 9999),
  serial_device: serialDevice(),
  baud_rate: baudRate(SERIAL_BAUD_RATES),
  civ_address: civAddress(),
  ptt_method: choice(PTT_METHODS, {
    cat: 'CAT through the rig library model rig_lib_model_id on serial_device',
    rts: 'the RTS line of ptt_device (the IC-705\'s second USB port: "USB (B) RTS" keying)',
    dtr: 'the DTR line of ptt_device',
    cm108: "a CM108 sound card's GPIO (ptt_device a hidraw node; empty: the TNC's own search)",
    vox: "no PTT line: the rig's data VOX keys",
  }),
  ptt_device: v.pipe(v.string(), v.maxLength(128), v.regex(/^(|\/dev\/[\w./:+-]+)$/, 'must be empty or a /dev path')),
  audio_input_device: text(128),
  audio_output_device: text(128),
  kiss_host: host(),
  kiss_port: int(1, 65535),
  tnc_binary: v.pipe(v.string(), v.maxLength(256), v.regex(/^[\w./+-]*$/, 'must be a program name or path')),
  terrestrial_path: ax25Path(),
  satellite_path: ax25Path(),
  // 43 characters: the longest APRS position comment without a data extension.
  terrestrial_beacon_comment: text(43),
  satellite_beacon_comment: text(43),
  position_fudge_lat_deg: v.pipe(v.number(), v.minValue(-1), v.maxValue(1)),
  position_fudge_lon_deg: v.pipe(v.number(), v.minValue(-1), v.maxValue(1)),
  log_enabled: v.boolean(),
  log_max_records: int(10, 100000),
  notify_incoming_messages: v.boolean(),
  notify_all_packets: v.boolean(),
  digipeater: DigipeaterSchema,
  igate: IgateSchema,
  selected_satellite_id: v.nullable(satId()),
  selected_channel_id: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(64))),
  /** null: the regional APRS frequency for the station's location. */
  terrestrial_manual_frequency_hz: v.nullable(int(1_800_000, 1_300_000_000)),
  igate_auto_enable_with_internet: v.boolean(),
  // Wi-Fi transport (rigA only): the rig's LAN session; our own Bell 202 modem keys it.
  ...lanLoginFields(),
  /** Flags sent before the frame while the transmitter settles (Wi-Fi transport's own modem). */
  afsk_txdelay_ms: int(0, 1000),
  /** Flags after the frame so the radio does not cut its end off. */
  afsk_tail_ms: int(0, 500),
});
export type AprsSettings = v.InferOutput<typeof AprsSettingsSchema>;

// Defaults are safe for an unconfigured station: no callsign (identity invalid), listen only,
// the regional APRS frequency for the location, our own Dire Wolf sidecar.
export const defaultAprsSettings = (): AprsSettings => ({
  callsign: '',
  ssid: 0,
  listen_only: true,
  operating_mode: 'terrestrial',
  transport_mode: 'usb',
  rig_model: 'rigA',
  rig_lib_model_id: 3085,
  serial_device: '',
  baud_rate: 19200,
  civ_address: '0xA4',
  ptt_method: 'cat',
  ptt_device: '',
  audio_input_device: '',
  audio_output_device: '',
  // Empty: run our own Dire Wolf sidecar (KISS on a pseudo-terminal, no network port). A host:
  // use the operator's own KISS TNC there instead, and start no sidecar.
  kiss_host: '',
  kiss_port: 8001,
  tnc_binary: 'direwolf',
  terrestrial_path: 'WIDE1-1,WIDE2-1',
  // Empty: the selected channel's own default path (ARISS for the ISS).
  satellite_path: '',
  terrestrial_beacon_comment: '',
  satellite_beacon_comment: '',
  position_fudge_lat_deg: 0,
  position_fudge_lon_deg: 0,
  log_enabled: true,
  log_max_records: 5000,
  notify_incoming_messages: true,
  notify_all_packets: false,
  digipeater: { enabled: false, aliases: ['WIDE1-1'], max_hops: 2, dedupe_window_s: 30, callsign_allowlist: [], path_blocklist: [] },
  igate: {
    enabled: false,
    server_host: 'rotate.aprs2.net',
    server_port: 14580,
    login_callsign: '',
    passcode: -1,
    filter: 'm/50',
    connect_timeout_s: 10,
    gate_terrestrial_rx: true,
    gate_satellite_rx: true,
  },
  selected_satellite_id: null,
  selected_channel_id: null,
  terrestrial_manual_frequency_hz: null,
  igate_auto_enable_with_internet: false,
  wifi_host: '',
  wifi_username: '',
  wifi_password: '',
  wifi_control_port: ICOM_LAN_CONTROL_PORT,
  // Dire Wolf's own defaults for a 1200 baud radio port (TXDELAY 30 × 10 ms, TXTAIL 10 × 10 ms).
  afsk_txdelay_ms: 300,
  afsk_tail_ms: 100,
});
