import * as v from 'valibot';

// One receive-log entry: the schema the log validates every append and line against, and the
// one /api/v1/aprs/log documents (the log itself, aprs-log.ts, loads only when first read).

export const APRS_LOG_FIELD_MAX = { id: 32, source: 64, destination: 64, text: 512 } as const;

const UTC_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/;

export const AprsLogEntrySchema = v.object({
  id: v.pipe(v.string(), v.minLength(1), v.maxLength(APRS_LOG_FIELD_MAX.id)),
  received_at: v.pipe(v.string(), v.regex(UTC_ISO, 'must be a UTC ISO 8601 timestamp'), v.check((s) => Number.isFinite(Date.parse(s)), 'must be a real instant')),
  source: v.pipe(v.string(), v.maxLength(APRS_LOG_FIELD_MAX.source)),
  destination: v.pipe(v.string(), v.maxLength(APRS_LOG_FIELD_MAX.destination)),
  text: v.pipe(v.string(), v.maxLength(APRS_LOG_FIELD_MAX.text)),
  message: v.boolean(),
});

export type AprsLogEntry = v.InferOutput<typeof AprsLogEntrySchema>;
