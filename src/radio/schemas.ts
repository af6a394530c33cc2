import * as v from 'valibot';
import { RIG_MODELS, RadioSettingsSchema } from './settings.js';
import { CONTROL_MODES, CONTROL_STATES, SCREEN_STATES } from './types.js';
import { FrequencyRecommendationSchema } from '../guidance/schemas.js';

// One valibot schema per radio resource: request bodies (validated at the route) and answers
// (documented in /docs and checked against every handler's answer by the route tests).

const ts = () => v.nullable(v.pipe(v.string(), v.description('UTC ISO 8601')));
const isoTime = () => v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp like 2026-08-22T12:00:00Z'));
/** CI-V carries 10 digits of Hz; the rig itself refuses what it cannot tune. */
const freqHz = () => v.pipe(v.number(), v.integer('must be a whole number of Hz'), v.minValue(30_000), v.maxValue(9_999_999_999));
const satId = () => v.pipe(v.string(), v.minLength(1), v.maxLength(64));
/** Modes a pair may ask for: what both rigs tune (data variants through 0x26's data byte). */
export const RIG_MODES = ['FM', 'USB', 'LSB', 'AM', 'CW', 'CW-R', 'RTTY', 'RTTY-R', 'DV', 'FM-D', 'USB-D', 'LSB-D', 'AM-D'] as const;
export type RigMode = (typeof RIG_MODES)[number];
const mode = () => v.picklist(RIG_MODES, `must be one of ${RIG_MODES.join(', ')}`);

export const CapabilitiesSchema = v.object({
  model: v.picklist(RIG_MODELS),
  radio: v.string(),
  validated: v.boolean(),
  validation_note: v.string(),
  split: v.boolean(),
  scope: v.boolean(),
  tone: v.boolean(),
  snapshot: v.boolean(),
  transceive_follow: v.boolean(),
  target_mapping: v.object({ tx: v.string(), rx: v.string() }),
});

export const AutoTrackStatusSchema = v.object({
  sat_id: v.string(),
  interval_ms: v.number(),
  owner: v.picklist(['auto_track', 'session']),
  last_tick_at: ts(),
  writes: v.number(),
  position: v.object({ uplink_hz: v.nullable(v.number()), downlink_hz: v.number() }),
  targets: v.nullable(v.object({ rx_hz: v.number(), tx_hz: v.nullable(v.number()) })),
  knob: v.object({ following: v.boolean(), last_follow_at: ts(), note: v.nullable(v.string()) }),
});

export const LegSchema = v.object({
  rig: v.pipe(v.string(), v.description('the radio carrying this side, e.g. "FT-817", "IC-705", "Hamlib 1035 FT-991"')),
  connected: v.boolean(),
  freq_hz: v.pipe(v.nullable(v.number()), v.description('the VFO carrying this side: the receive VFO for downlink, the transmit VFO for uplink')),
  mode: v.nullable(v.string()),
  ptt: v.pipe(v.nullable(v.boolean()), v.description('whether this radio transmits; null when unknown')),
  last_error: v.nullable(v.string()),
});

export const RadioRuntimeSchema = v.object({
  connected: v.boolean(),
  control_mode: v.picklist(CONTROL_MODES),
  external_client: v.pipe(v.nullable(v.string()), v.description("the Hamlib network client (rigctld) holding the rig while control_mode is 'external', e.g. \"rigctld 127.0.0.1:50122\"")),
  active_sat_id: v.nullable(v.string()),
  last_poll_at: ts(),
  last_error: v.nullable(v.string()),
  targets: v.object({
    vfo_a_freq_hz: v.nullable(v.number()),
    vfo_b_freq_hz: v.nullable(v.number()),
    vfo_a_mode: v.nullable(v.string()),
    vfo_b_mode: v.nullable(v.string()),
  }),
  raw_state: v.object({
    selected_vfo: v.nullable(v.picklist(['A', 'B'])),
    split_enabled: v.nullable(v.boolean()),
    scope_enabled: v.nullable(v.boolean()),
  }),
  capabilities: v.nullable(CapabilitiesSchema),
  auto_track: v.nullable(AutoTrackStatusSchema),
  legs: v.pipe(
    v.object({ downlink: LegSchema, uplink: v.nullable(LegSchema) }),
    v.description('each side of the satellite on the radio that carries it: downlink receives, uplink transmits (null: no transmit side); with one radio both describe it'),
  ),
  restore_available: v.pipe(v.boolean(), v.description('true while POST /api/v1/radio/restore can put the rig back as it was before the first manual apply, pair or auto-track')),
});

export const TestPairSchema = v.object({
  uplink_hz: v.nullable(v.number()),
  downlink_hz: v.number(),
  uplink_mode: v.string(),
  downlink_mode: v.string(),
  ctcss_hz: v.nullable(v.number()),
  source: v.picklist(['guidance', 'manual']),
});

export const RadioSessionSchema = v.object({
  active: v.boolean(),
  selected_sat_id: v.nullable(v.string()),
  sat_name: v.nullable(v.string()),
  pass_aos: ts(),
  pass_los: ts(),
  max_el_deg: v.nullable(v.number()),
  screen_state: v.picklist(SCREEN_STATES),
  control_state: v.picklist(CONTROL_STATES),
  is_eligible: v.boolean(),
  eligibility_reason: v.optional(v.string()),
  has_test_pair: v.boolean(),
  test_pair: v.nullable(TestPairSchema),
  ended_reason: v.nullable(v.string()),
});

export const RadioStateSchema = v.object({ settings: RadioSettingsSchema, runtime: RadioRuntimeSchema, session: RadioSessionSchema });
export const SessionRuntimeSchema = v.object({ session: RadioSessionSchema, runtime: RadioRuntimeSchema });
export const TargetMappingSchema = v.object({ tx: v.string(), rx: v.string() });

export const PortsSchema = v.object({ items: v.array(v.object({ device: v.string(), description: v.string(), hwid: v.string() })) });

export const FrequencyBodySchema = v.object({ vfo: v.picklist(['A', 'B'], 'must be A or B'), freq_hz: freqHz() });
export const FrequencyResponseSchema = v.object({ runtime: RadioRuntimeSchema, result: FrequencyBodySchema });

export const PairBodySchema = v.object({
  uplink_hz: freqHz(),
  downlink_hz: freqHz(),
  uplink_mode: v.optional(mode(), 'FM'),
  downlink_mode: v.optional(mode(), 'FM'),
});
export const ManualRecommendationSchema = v.object({
  sat_id: v.null(),
  mode: v.literal('manual'),
  uplink_hz: v.number(),
  downlink_hz: v.number(),
  uplink_mhz: v.number(),
  downlink_mhz: v.number(),
  uplink_mode: v.string(),
  downlink_mode: v.string(),
  is_eligible: v.boolean(),
  eligibility_reason: v.nullable(v.string()),
});
export const PairResponseSchema = v.object({ runtime: RadioRuntimeSchema, recommendation: ManualRecommendationSchema, targetMapping: TargetMappingSchema });

export const ApplyBodySchema = v.object({
  sat_id: satId(),
  pass_aos: v.optional(isoTime()),
  pass_los: v.optional(isoTime()),
  selected_column_index: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15))),
  location_source: v.optional(v.picklist(['manual', 'gps'])),
  apply_mode_and_tone: v.optional(v.boolean()),
});
export const ApplyResponseSchema = v.object({
  runtime: RadioRuntimeSchema,
  recommendation: FrequencyRecommendationSchema,
  targetMapping: TargetMappingSchema,
  applied: v.object({
    rx_hz: v.number(),
    tx_hz: v.nullable(v.number()),
    apply_mode_and_tone: v.boolean(),
    tone_hz: v.nullable(v.number()),
    tx_blocked_reason: v.nullable(v.string()),
  }),
});

export const RestoreResponseSchema = v.object({ runtime: RadioRuntimeSchema, restored: v.boolean() });

export const AutoTrackBodySchema = v.object({
  sat_id: satId(),
  interval_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(250, 'must be at least 250 ms'), v.maxValue(60_000))),
  selected_column_index: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(15))),
});
export const AutoTrackResponseSchema = v.object({ runtime: RadioRuntimeSchema, auto_track: v.nullable(AutoTrackStatusSchema) });

export const SessionSelectBodySchema = v.object({
  sat_id: satId(),
  sat_name: v.optional(v.pipe(v.string(), v.maxLength(64))),
  pass_aos: isoTime(),
  pass_los: isoTime(),
  max_el_deg: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(90))),
});

export const TestPairBodySchema = v.object({
  uplink_hz: v.optional(v.nullable(freqHz())),
  downlink_hz: v.optional(freqHz()),
  uplink_mode: v.optional(mode(), 'FM'),
  downlink_mode: v.optional(mode(), 'FM'),
});

export const HamlibModelsSchema = v.object({
  /** False when Hamlib is not installed here (note says what to install) or rigctl failed (note says how). */
  available: v.boolean(),
  note: v.nullable(v.string()),
  items: v.array(
    v.object({
      model: v.pipe(v.number(), v.description("Hamlib's model number: the radio settings' hamlib_model")),
      manufacturer: v.string(),
      name: v.string(),
      status: v.pipe(v.string(), v.description("Hamlib's word for its backend: Stable, Beta, Alpha, Untested, Buggy")),
      satellite: v.pipe(v.boolean(), v.description('one of the radios hams work satellites with; these come first')),
    }),
  ),
});
