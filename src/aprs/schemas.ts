import * as v from 'valibot';
import { APRS_TRANSPORTS, operatingMode } from './settings.js';

// One valibot schema per APRS resource (spec part 2): the runtime, the target, recent packets and
// heard stations, reused for the route answers, the TypeScript types and /docs.

const iso = () => v.pipe(v.string(), v.description('UTC ISO 8601'));
const nIso = () => v.nullable(iso());
const count = () => v.pipe(v.number(), v.integer(), v.minValue(0));

export const AprsTargetSchema = v.object({
  operating_mode: operatingMode(),
  label: v.string(),
  sat_id: v.nullable(v.string()),
  sat_name: v.nullable(v.string()),
  channel_id: v.nullable(v.string()),
  channel_label: v.nullable(v.string()),
  frequency_hz: v.nullable(v.number()),
  uplink_hz: v.nullable(v.number()),
  downlink_hz: v.nullable(v.number()),
  path_default: v.string(),
  region_label: v.nullable(v.string()),
  guidance: v.pipe(v.unknown(), v.description('the shared frequency recommendation for this channel and pass, or null')),
  requires_pass: v.boolean(),
  pass_active: v.boolean(),
  pass_aos: nIso(),
  pass_los: nIso(),
  corrected_frequency_hz: v.nullable(v.number()),
  corrected_uplink_hz: v.nullable(v.number()),
  corrected_downlink_hz: v.nullable(v.number()),
  correction_side: v.nullable(v.string()),
  active_phase: v.nullable(v.string()),
  retune_active: v.boolean(),
  can_transmit: v.boolean(),
  tx_block_reason: v.nullable(v.string()),
  reason: v.nullable(v.string()),
});
export type AprsTarget = v.InferOutput<typeof AprsTargetSchema>;

export const PACKET_DIRECTIONS = ['rx', 'tx', 'digi'] as const;

export const RecentPacketSchema = v.object({
  at: iso(),
  direction: v.picklist(PACKET_DIRECTIONS),
  source: v.string(),
  destination: v.string(),
  path: v.array(v.string()),
  tnc2: v.string(),
  kind: v.pipe(v.string(), v.description('position, message, ack, reject, status, object, item or unparsed')),
  summary: v.string(),
  message: v.boolean(),
  addressee: v.nullable(v.string()),
  /** A message addressed to this station. */
  to_us: v.boolean(),
});
export type RecentPacket = v.InferOutput<typeof RecentPacketSchema>;

export const HeardStationSchema = v.object({
  callsign: v.string(),
  last_heard_at: iso(),
  packets: count(),
  last_kind: v.string(),
  last_summary: v.string(),
  lat: v.nullable(v.number()),
  lon: v.nullable(v.number()),
  /** Heard directly (no digipeater had repeated it). */
  direct: v.boolean(),
});
export type HeardStation = v.InferOutput<typeof HeardStationSchema>;

export const SIDECAR_STATES = ['stopped', 'starting', 'running', 'failing'] as const;

export const AprsRuntimeSchema = v.object({
  connected: v.boolean(),
  session_active: v.boolean(),
  sidecar_running: v.boolean(),
  kiss_connected: v.boolean(),
  audio_rx_active: v.boolean(),
  audio_tx_active: v.boolean(),
  transport_mode: v.picklist(APRS_TRANSPORTS),
  control_endpoint: v.string(),
  modem_state: v.string(),
  capabilities: v.array(v.string()),
  owned_resource: v.nullable(v.string()),
  last_error: v.nullable(v.string()),
  last_started_at: nIso(),
  last_packet_at: nIso(),
  last_tx_at: nIso(),
  last_tx_packet_type: v.nullable(v.string()),
  last_tx_text: v.nullable(v.string()),
  last_tx_raw_tnc2: v.nullable(v.string()),
  packets_rx: count(),
  packets_tx: count(),
  packets_digipeated: count(),
  packets_igated: count(),
  packets_dropped_policy: count(),
  packets_dropped_duplicate: count(),
  heard_count: count(),
  digipeater_requested: v.boolean(),
  digipeater_active: v.boolean(),
  digipeater_reason: v.nullable(v.string()),
  igate_requested: v.boolean(),
  igate_active: v.boolean(),
  igate_auto_enabled: v.boolean(),
  igate_status: v.string(),
  igate_connected: v.boolean(),
  igate_reason: v.nullable(v.string()),
  igate_server: v.nullable(v.string()),
  igate_last_connect_at: nIso(),
  igate_last_error: v.nullable(v.string()),
  target: v.nullable(AprsTargetSchema),
  recent_packets: v.array(RecentPacketSchema),
  heard_stations: v.array(HeardStationSchema),
  sidecar_command: v.array(v.string()),
  output_tail: v.array(v.string()),
  /** Beyond the spec's list: the Dire Wolf sidecar's health, and its problem in plain words. */
  sidecar_state: v.picklist(SIDECAR_STATES),
  sidecar_failures: count(),
  sidecar_next_restart_at: nIso(),
  sidecar_problem: v.nullable(
    v.object({
      kind: v.pipe(v.string(), v.description('no_sound_card, audio_input, audio_output, ptt_device_missing, ptt_permission, ptt_device, hamlib, port_in_use, config or crash')),
      summary: v.pipe(v.string(), v.description('one short line')),
      fix: v.pipe(v.string(), v.description('what to do: the setting, and how to find its value')),
      fatal: v.boolean(),
    }),
  ),
  /** Beyond the spec's list: when the flood guard lets the next send go, and why the estop holds. */
  emergency_stopped: v.boolean(),
  next_tx_allowed_at: nIso(),
  dropped_by_reason: v.record(v.string(), count()),
});
export type AprsRuntime = v.InferOutput<typeof AprsRuntimeSchema>;

// --- route bodies and answers --------------------------------------------------------------

const trimmed = (max: number) => v.pipe(v.string(), v.trim(), v.maxLength(max));

// Bodies are strict: an unknown key (a typo, junk) is a 400 naming it, never silently ignored.

/** Routes that take no parameters: an empty object (or no body at all). */
export const NoBodySchema = v.strictObject({});

export const SelectTargetBodySchema = v.strictObject({
  sat_id: v.pipe(v.string(), v.minLength(1), v.maxLength(32)),
  channel_id: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64))), null),
});

export const SessionSelectBodySchema = v.strictObject({
  /** terrestrial: back to the terrestrial target; satellite (default when sat_id is given): that channel. */
  operating_mode: v.optional(operatingMode()),
  sat_id: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(32))),
  channel_id: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64))), null),
});

export const IdentityBodySchema = v.strictObject({
  callsign: v.pipe(v.string(), v.trim(), v.toUpperCase(), v.maxLength(9)),
  ssid: v.pipe(v.number(), v.integer()),
});

export const StationIdentitySchema = v.object({ valid: v.boolean(), callsign: v.string(), reason: v.optional(v.string()) });

export const MessageBodySchema = v.strictObject({
  to: v.pipe(trimmed(9), v.minLength(1, 'addressee is required')),
  text: v.pipe(v.string(), v.minLength(1, 'text is required'), v.maxLength(67)),
});
export const StatusBodySchema = v.strictObject({ text: v.pipe(v.string(), v.minLength(1, 'text is required'), v.maxLength(62)) });
export const PositionBodySchema = v.strictObject({ comment: v.optional(v.pipe(v.string(), v.maxLength(43))) });

export const SendResponseSchema = v.object({
  sent: v.boolean(),
  tx_block_reason: v.nullable(v.string()),
  packet_type: v.string(),
  raw_tnc2: v.nullable(v.string()),
  runtime: AprsRuntimeSchema,
});

export const TncStatusSchema = v.object({ installed: v.boolean(), configuredBinary: v.string(), resolvedBinary: v.string() });
