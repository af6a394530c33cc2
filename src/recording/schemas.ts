import * as v from 'valibot';
import { choice } from '../util/choice.js';
import { RECORDING_SOURCES } from './settings.js';

// The recordings as the API shows them (issue 37): the list's items, one recording's journal
// (item, elements, location, pass, timeline, events), the recorder's runtime and the bodies.
// The same schemas check the files read back from disk (recording-library.ts).

const ts = () => v.pipe(v.string(), v.description('UTC ISO 8601'));
const nts = () => v.nullable(ts());
const num = () => v.nullable(v.number());

export const RECORDING_STATUSES = ['recording', 'done', 'failed'] as const;
export const RECORDING_FORMATS = ['ogg', 'wav'] as const;
export type RecordingFormat = (typeof RECORDING_FORMATS)[number];
export const CAPTURE_SOURCES = ['alsa', 'lan'] as const;
export type CaptureSource = (typeof CAPTURE_SOURCES)[number];

/** A recording's id: its start time and satellite, `20261129T101500Z-iss` (sorts by time, safe in a path and a file name). */
export const RECORDING_ID_RE = /^\d{8}T\d{6}Z(?:-[a-z0-9][a-z0-9-]{0,31})?(?:-\d{1,3})?$/;
export const recordingId = () => v.pipe(v.string('must be a string'), v.regex(RECORDING_ID_RE, 'must be a recording id like 20261129T101500Z-iss'));

export const RecordingItemSchema = v.object({
  id: v.string(),
  sat_id: v.nullable(v.string()),
  sat_name: v.nullable(v.string()),
  started_at: ts(),
  ended_at: v.pipe(nts(), v.description('null while recording')),
  duration_s: v.number(),
  bytes: v.number(),
  format: choice(RECORDING_FORMATS, { ogg: 'Ogg Opus (opusenc from opus-tools)', wav: '16-bit PCM WAV (opusenc is not installed)' }),
  max_el_deg: v.pipe(num(), v.description('the highest elevation the satellite reached while recording')),
  qso_ids: v.array(v.string()),
  status: choice(RECORDING_STATUSES, {
    recording: 'under way',
    done: 'ended and playable (ended_reason says how it ended)',
    failed: 'stopped by a fault (error says which); the audio up to then is kept and playable',
  }),
  /** Why a failed recording stopped (the disk is full, the capture device failed); null otherwise. */
  error: v.nullable(v.string()),
  ended_reason: v.pipe(
    v.nullable(v.string()),
    v.description('los (pre_roll_s after LOS), tracking_ended, manual, disabled, shutdown, interrupted (the station stopped without closing it: kill -9 or power loss), error'),
  ),
  trigger: choice(['pass', 'manual'], { pass: 'started by the pass the radio session or auto-track follows', manual: 'started by POST /api/v1/recordings/start' }),
  source: choice(CAPTURE_SOURCES, { alsa: 'ALSA capture (arecord)', lan: "the IC-705's LAN receive audio" }),
  sample_rate: v.number(),
});
export type RecordingItem = v.InferOutput<typeof RecordingItemSchema>;

export const RecordingListSchema = v.object({ items: v.array(RecordingItemSchema) });

/** One second of the pass: where the satellite was, what the rig and the rotator were set to (null when absent). */
export const TimelinePointSchema = v.object({
  t: ts(),
  az_deg: num(),
  el_deg: num(),
  range_rate_km_s: num(),
  rx_hz: num(),
  tx_hz: num(),
  rotator_az_deg: num(),
  rotator_el_deg: num(),
});
export type TimelinePoint = v.InferOutput<typeof TimelinePointSchema>;

const eventBase = { t: ts(), recording_offset_s: v.pipe(v.number(), v.description('seconds from started_at')) };
export const RecordingEventSchema = v.variant('kind', [
  v.object({ ...eventBase, kind: v.literal('qso'), qso_id: v.string(), call: v.string() }),
  v.object({ ...eventBase, kind: v.literal('aprs'), source: v.string(), packet: v.string() }),
  v.object({ ...eventBase, kind: v.literal('note'), text: v.string() }),
]);
export type RecordingEvent = v.InferOutput<typeof RecordingEventSchema>;

export const RecordingPassSchema = v.object({ aos: ts(), tca: ts(), los: ts(), max_el_deg: v.number() });
export type RecordingPass = v.InferOutput<typeof RecordingPassSchema>;

export const RecordingLocationSchema = v.object({ lat_deg: v.number(), lon_deg: v.number(), alt_m: v.number(), grid: v.string() });
export type RecordingLocation = v.InferOutput<typeof RecordingLocationSchema>;

export const RecordingDetailSchema = v.object({
  ...RecordingItemSchema.entries,
  elements: v.pipe(v.nullable(v.record(v.string(), v.unknown())), v.description('the orbital elements (OMM fields) the pass and the timeline were computed from; null without a satellite')),
  location: RecordingLocationSchema,
  pass: v.pipe(v.nullable(RecordingPassSchema), v.description('the pass recorded; null for a manual recording outside a pass')),
  timeline: v.array(TimelinePointSchema),
  events: v.array(RecordingEventSchema),
});
export type RecordingDetail = v.InferOutput<typeof RecordingDetailSchema>;

export const RecordingRuntimeSchema = v.object({
  recording: v.boolean(),
  id: v.nullable(v.string()),
  sat_id: v.nullable(v.string()),
  source: v.nullable(v.picklist(CAPTURE_SOURCES)),
  level_dbfs: v.pipe(num(), v.description('the audio level: the loudest 20 ms block of the last second, RMS dBFS (-120 is silence); null when no audio came')),
  started_at: nts(),
  last_error: v.nullable(v.string()),
});
export type RecordingRuntime = v.InferOutput<typeof RecordingRuntimeSchema>;

export const restingRecordingRuntime = (last_error: string | null = null): RecordingRuntime => ({
  recording: false,
  id: null,
  sat_id: null,
  source: null,
  level_dbfs: null,
  started_at: null,
  last_error,
});

/** The lite snapshot's recording line: the dot (its level comes over the recording topic, once a second). */
export const RecordingSummarySchema = v.object({
  enabled: v.boolean(),
  ...v.omit(RecordingRuntimeSchema, ['level_dbfs']).entries,
});

export function recordingSummary(enabled: boolean, rt: RecordingRuntime): v.InferOutput<typeof RecordingSummarySchema> {
  const { level_dbfs: _, ...shown } = rt;
  return { enabled, ...shown };
}

export const RecordingStartBodySchema = v.optional(v.strictObject({ sat_id: v.optional(v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))) }), {});
export const RecordingIdBodySchema = v.strictObject({ id: recordingId() });

export { RECORDING_SOURCES };
