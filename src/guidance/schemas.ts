import * as v from 'valibot';
import { choice } from '../util/choice.js';

// One valibot schema per resource: the bundled profile file (checked at load) and the
// recommendation/matrix shapes every route embeds (documented in /docs through `response:`).

export const PHASES = ['aos', 'early', 'mid', 'late', 'los'] as const;
export type Phase = (typeof PHASES)[number];

export const PHASE_LABELS = ['AOS cue', 'Tune now', 'Reference'] as const;
export type PhaseLabel = (typeof PHASE_LABELS)[number];

export const CORRECTION_SIDES = ['full_duplex', 'downlink_only', 'uhf_only'] as const;
export type CorrectionSide = (typeof CORRECTION_SIDES)[number];
/** Which carriers Doppler correction moves (spec part 5, rule 6). */
export const CorrectionSideSchema = choice(CORRECTION_SIDES, {
  full_duplex: 'both the uplink and the downlink',
  downlink_only: 'the downlink only; the uplink stays on its nominal channel',
  uhf_only: 'only carriers of 400 MHz or more (V/U: the downlink; U/V: the uplink; U/U: both; V/V: neither)',
});

export const GUIDANCE_MODES = ['fm', 'linear'] as const;
export type GuidanceMode = (typeof GUIDANCE_MODES)[number];
export const guidanceMode = (message?: string) =>
  choice(GUIDANCE_MODES, { fm: 'FM: one uplink/downlink pair', linear: 'a linear transponder: each column a nominal uplink paired with its downlink, one selected at a time' }, message);

/** The CTCSS tones rigs offer lie between 67.0 and 254.1 Hz. */
export const TONE_RANGE = 'must be a CTCSS tone between 60 and 260 Hz';
const hz = v.pipe(v.number('must be a frequency in Hz'), v.integer('must be a whole number of Hz'), v.minValue(1, 'must be above 0 Hz'), v.maxValue(300e9, 'must be at most 300 GHz'));
/** Steps are taken as written: zero, negative or odd steps are legal and fall back to plain rounding (rule 7). */
const stepHz = v.number();

export const ColumnSchema = v.object({
  uplink_hz: hz,
  downlink_hz: hz,
  label: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});
export type Column = v.InferOutput<typeof ColumnSchema>;

/** A single-channel column: a two-way pair, or a receive-only downlink (uplink_hz null). */
export const ChannelColumnSchema = v.object({
  uplink_hz: v.nullable(hz),
  downlink_hz: hz,
  label: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
});
export type ChannelColumn = v.InferOutput<typeof ChannelColumnSchema>;

export const PassbandSchema = v.object({
  uplink_low_hz: hz,
  uplink_high_hz: hz,
  downlink_low_hz: hz,
  downlink_high_hz: hz,
});

const norad = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999));
const rigModeText = v.pipe(v.string(), v.minLength(1), v.maxLength(8));

/** Fields every profile shape shares. */
const entryBase = {
  norad_id: norad,
  name: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  correction_side: CorrectionSideSchema,
  default_column_index: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  uplink_step_hz: stepHz,
  downlink_step_hz: stepHz,
  uplink_mode: rigModeText,
  downlink_mode: rigModeText,
  ctcss_hz: v.optional(v.pipe(v.number('must be a tone in Hz'), v.minValue(60, TONE_RANGE), v.maxValue(260, TONE_RANGE))),
  /** Where the entry's frequencies came from (a SatNOGS record, a curated fact, the operator). */
  source: v.optional(v.string()),
  note: v.optional(v.string()),
};

/** A linear transponder: columns across the passband, inversion stated. */
const LinearEntrySchema = v.object({
  ...entryBase,
  mode: v.literal('linear'),
  columns: v.pipe(v.array(ColumnSchema), v.minLength(1), v.maxLength(16)),
  inverting: v.boolean(),
  passband: v.optional(PassbandSchema),
});

/**
 * One fixed channel (`mode: 'fm'` keeps its spec meaning: a single pair, no matrix): an FM
 * repeater, or a receive-only downlink (beacon, telemetry, SSTV) whose rig mode is downlink_mode.
 */
const ChannelEntrySchema = v.object({
  ...entryBase,
  mode: v.literal('fm'),
  columns: v.pipe(v.array(ChannelColumnSchema), v.length(1, 'an fm profile has exactly one column (its single pair)')),
  inverting: v.optional(v.boolean()),
  passband: v.optional(PassbandSchema),
  /** True for a downlink-only channel: uplink_hz null, never an uplink. */
  receive_only: v.optional(v.boolean()),
  /** Symbol rate of a data downlink (SatNOGS `baud`), null for voice and CW. */
  baud: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0)))),
  /** What the operator will hear (the SatNOGS description). */
  description: v.optional(v.pipe(v.string(), v.maxLength(200))),
});

/** One entry of a profile file or set. Keyed by norad_id; sat_id comes from the catalog. */
export const ProfileEntrySchema = v.pipe(
  v.variant('mode', [LinearEntrySchema, ChannelEntrySchema]),
  // v.forward names the field each rule is about, so an operator's error says which one to fix.
  v.forward(
    v.check(
      (p) => p.default_column_index === undefined || p.default_column_index < p.columns.length,
      'default_column_index must name one of the columns',
    ),
    ['default_column_index'],
  ),
  v.forward(
    v.check(
      (p) => p.mode === 'linear' || (p.receive_only === true) === (p.columns[0].uplink_hz === null),
      'a receive-only profile has a null uplink, and only a receive-only profile has one',
    ),
    ['columns'],
  ),
  v.forward(
    v.check((p) => p.mode === 'linear' || p.receive_only !== true || p.correction_side === 'downlink_only', 'a receive-only profile corrects downlink_only'),
    ['correction_side'],
  ),
  v.forward(
    v.check((p) => p.mode === 'linear' || p.receive_only !== true || p.ctcss_hz === undefined, 'a receive-only profile has no CTCSS tone'),
    ['ctcss_hz'],
  ),
);
export type ProfileEntry = v.InferOutput<typeof ProfileEntrySchema>;

/** A loaded profile: the file entry plus the catalog's sat_id for its norad_id. */
export type FrequencyProfile = ProfileEntry & { sat_id: string };
export type LinearProfile = Extract<FrequencyProfile, { mode: 'linear' }>;
export type ChannelProfile = Extract<FrequencyProfile, { mode: 'fm' }>;

export const ProfileFileSchema = v.object({
  version: v.literal(1),
  generated_from: v.optional(v.string()),
  // Entries are checked one by one so a bad entry is skipped, not the whole file.
  profiles: v.array(v.unknown()),
});

const mhz = v.pipe(v.number(), v.description('MHz, rounded to 3 decimals'));

export const FrequencyRecommendationSchema = v.object({
  sat_id: v.string(),
  mode: guidanceMode(),
  phase: v.picklist(PHASES),
  label: v.picklist(PHASE_LABELS),
  correction_side: CorrectionSideSchema,
  uplink_mhz: v.pipe(v.nullable(v.number()), v.description('MHz, rounded to 3 decimals; null for a receive-only profile (no uplink)')),
  downlink_mhz: mhz,
  uplink_hz: v.pipe(v.nullable(v.number()), v.description('the quantized uplink in Hz (what a rig is set to); null when receive-only')),
  downlink_hz: v.pipe(v.number(), v.description('the quantized downlink in Hz')),
  uplink_mode: v.string(),
  downlink_mode: v.string(),
  ctcss_hz: v.nullable(v.number()),
  range_rate_km_s: v.pipe(v.number(), v.description('range rate the correction used (positive while the range grows)')),
  selected_column_index: v.nullable(v.number()),
  // Additive (issue 27); optional so a hand-made recommendation (an APRS channel) stays valid.
  receive_only: v.optional(v.pipe(v.boolean(), v.description('true: downlink only, never an uplink'))),
  baud: v.optional(v.pipe(v.nullable(v.number()), v.description('symbol rate of a data downlink, null for voice/CW'))),
  description: v.optional(v.pipe(v.nullable(v.string()), v.description('what the downlink carries (SatNOGS description)'))),
});
export type FrequencyRecommendation = v.InferOutput<typeof FrequencyRecommendationSchema>;

const PairSchema = v.object({ uplink_mhz: mhz, downlink_mhz: mhz });

export const MatrixColumnSchema = v.object({
  index: v.number(),
  label: v.string(),
  uplink_mhz: v.pipe(v.number(), v.description('nominal uplink of the preset, MHz')),
  downlink_mhz: v.pipe(v.number(), v.description('transponder downlink centre the nominal uplink lands on, MHz')),
});

export const MatrixRowSchema = v.object({
  phase: v.picklist(PHASES),
  target: v.pipe(v.nullable(v.string()), v.description('time inside the pass the range rate was read for (band midpoint), null without a pass')),
  range_rate_km_s: v.number(),
  uplink_mhz: v.pipe(v.number(), v.description('corrected uplink of the selected column')),
  downlink_mhz: v.pipe(v.number(), v.description('corrected downlink of the selected column')),
  cells: v.pipe(v.array(PairSchema), v.description('corrected pair of every column, in column order')),
});

export const FrequencyMatrixSchema = v.object({
  sat_id: v.string(),
  mode: v.literal('linear'),
  selected_column_index: v.number(),
  active_phase: v.picklist(PHASES),
  columns: v.array(MatrixColumnSchema),
  rows: v.array(MatrixRowSchema),
});
export type FrequencyMatrix = v.InferOutput<typeof FrequencyMatrixSchema>;
export type MatrixRow = v.InferOutput<typeof MatrixRowSchema>;

/** What /passes items, /system/state and /lite/snapshot embed. */
export const GuidanceEmbedSchema = v.object({
  frequencyRecommendation: v.nullable(FrequencyRecommendationSchema),
  frequencyMatrix: v.nullable(FrequencyMatrixSchema),
});
export type GuidanceEmbed = v.InferOutput<typeof GuidanceEmbedSchema>;
