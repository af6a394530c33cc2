// Logbook schemas (valibot): the QSO request, the stored QSO record and the logbook settings.
// A bad field fails with an issue whose path names it (call, their_grid, comment, …), which the
// HTTP layer turns into a 400 naming the field.
import * as v from 'valibot';
import { CALL_MAX, loggableCallProblem, normalizeCall } from './call-rules.js';
import { OPERATOR_MODE_NAMES } from './operator-modes.js';

/** A free-text comment; the stored record keeps it as typed (UTF-8), the ADIF export transliterates. */
export const COMMENT_MAX = 200;
/** Latest records kept in the log file (bounded storage; the oldest go first). */
export const LOGBOOK_MAX_RECORDS = 10_000;

const callField = () =>
  v.pipe(
    v.string('must be a string'),
    v.transform(normalizeCall),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const problem = loggableCallProblem(dataset.value);
      if (problem) addIssue({ message: problem });
    }),
    v.maxLength(CALL_MAX),
  );

/** Maidenhead locator, 4, 6 or 8 characters, written the usual way: FN31, FN31pr, FN31pr45. */
export const MAIDENHEAD = /^[A-R]{2}[0-9]{2}(?:[A-X]{2}(?:[0-9]{2})?)?$/i;
export const normalizeGrid = (g: string): string => {
  const t = g.trim();
  return t.slice(0, 4).toUpperCase() + t.slice(4, 6).toLowerCase() + t.slice(6);
};
const gridField = () =>
  v.pipe(v.string('must be a string'), v.trim(), v.regex(MAIDENHEAD, 'must be a Maidenhead locator of 4, 6 or 8 characters like FN31pr'), v.transform(normalizeGrid));

/** A signal report: 59, 599, 5NN, or a digital report like -12 or +05. */
const rstField = () => v.pipe(v.string('must be a string'), v.trim(), v.toUpperCase(), v.regex(/^[+-]?[0-9A-Z]{1,4}$/, 'must be a signal report like 59, 599 or -12'));

const commentField = () =>
  v.pipe(
    v.string('must be a string'),
    v.maxLength(COMMENT_MAX, `at most ${COMMENT_MAX} characters`),
    // Control characters would break a record in ADIF (COMMENT is a one-line String).
    v.regex(/^[^\u0000-\u001f\u007f]*$/, 'must be one line without control characters'),
  );

export const satIdField = () => v.pipe(v.string('must be a string'), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'));
const isoTime = () =>
  v.pipe(
    v.string('must be a string'),
    v.isoTimestamp('must be an ISO 8601 timestamp like 2026-08-22T12:00:00Z'),
    v.transform((s) => new Date(s).toISOString()),
  );

/** POST /api/v1/logbook/qso: what the operator types; everything else comes from the station. */
export const QsoRequestSchema = v.object({
  call: callField(),
  their_grid: v.optional(gridField()),
  rst_sent: v.optional(rstField()),
  rst_rcvd: v.optional(rstField()),
  comment: v.optional(commentField()),
  /** The satellite; null: a terrestrial QSO (absent: the station's choice, the radio session's or the pass under way). */
  sat_id: v.optional(v.nullable(satIdField())),
  time_on: v.optional(isoTime()),
  /** What was on the air, when the operator says so (it wins over the rig's and the guide's); required when the station cannot tell. */
  mode: v.optional(v.picklist(OPERATOR_MODE_NAMES, `must be one of ${OPERATOR_MODE_NAMES.join(', ')}`)),
});
export type QsoRequest = v.InferOutput<typeof QsoRequestSchema>;

export const PUSH_STATES = ['pending', 'pushed', 'failed'] as const;
export type PushState = (typeof PUSH_STATES)[number];

const nullable = <S extends v.GenericSchema>(s: S) => v.nullable(s);
const mhz = () => v.pipe(v.number(), v.minValue(0), v.maxValue(7_500_000));
const adifToken = (max: number) => v.pipe(v.string(), v.regex(/^[A-Za-z0-9./_+-]*$/, 'must be an ADIF enumeration value'), v.maxLength(max));

/** One line of the log file and one item of GET /api/v1/logbook. */
export const QsoRecordSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a record id')),
  time_on: isoTime(),
  call: callField(),
  their_grid: nullable(gridField()),
  rst_sent: nullable(rstField()),
  rst_rcvd: nullable(rstField()),
  comment: nullable(commentField()),
  sat_id: nullable(satIdField()),
  /** LoTW's name (ARISS, SO-50); null on a terrestrial QSO or a satellite LoTW does not know. */
  sat_name: nullable(v.pipe(v.string(), v.maxLength(32))),
  /** "U/V"; null when a band has no AMSAT letter or the QSO is terrestrial. */
  sat_mode: nullable(adifToken(8)),
  prop_mode: nullable(v.literal('SAT')),
  /** Uplink (what we transmit on), MHz. */
  freq_mhz: nullable(mhz()),
  /** Downlink (what we receive on), MHz. */
  freq_rx_mhz: nullable(mhz()),
  band: nullable(adifToken(8)),
  band_rx: nullable(adifToken(8)),
  mode: nullable(adifToken(16)),
  submode: nullable(adifToken(16)),
  station_callsign: callField(),
  my_gridsquare: nullable(gridField()),
  push_state: v.picklist(PUSH_STATES),
  push_error: nullable(v.pipe(v.string(), v.maxLength(500))),
  /** The pass recording under way when the QSO was logged (issue 37); absent in older files. */
  recording_id: v.optional(nullable(v.pipe(v.string(), v.maxLength(64))), null),
  /** Seconds from that recording's start to time_on: where the page plays the QSO from. */
  recording_offset_s: v.optional(nullable(v.pipe(v.number(), v.finite(), v.minValue(0))), null),
});
export type QsoRecord = v.InferOutput<typeof QsoRecordSchema>;

const httpUrl = () =>
  v.pipe(
    v.string('must be a string'),
    v.trim(),
    v.maxLength(256),
    v.regex(/^(|https?:\/\/[^\s/?#]+(\/[^\s?#]*)?)$/i, 'must be empty or an http(s) URL like https://cloudlog.example.org'),
  );

/** Write-only fields: read back masked (JsonStore `secrets`), file mode 0600. */
export const LOGBOOK_SECRETS = ['cloudlog_api_key'] as const;

/** GET/POST /api/v1/settings/logbook. */
export const LogbookSettingsSchema = v.pipe(
  v.object({
    cloudlog_enabled: v.optional(v.boolean(), false),
    /** The Cloudlog or Wavelog base URL, as in the browser (with or without /index.php). */
    cloudlog_url: v.optional(httpUrl(), ''),
    cloudlog_api_key: v.optional(v.pipe(v.string(), v.maxLength(128), v.regex(/^[\x21-\x7e]*$/, 'must be printable ASCII without spaces')), ''),
    /** Cloudlog's station location id (a number in its UI); sent as a string, as Cloudlog reads it. */
    cloudlog_station_profile_id: v.optional(
      v.pipe(
        v.union([v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))], 'must be a station profile id'),
        v.transform(String),
        v.regex(/^[0-9]{0,10}$/, 'must be a station profile id (digits)'),
      ),
      '',
    ),
    /** The STATION_CALLSIGN of logged QSOs; empty: the APRS identity's callsign. */
    station_callsign: v.optional(v.union([v.literal(''), callField()], 'must be empty or a callsign'), ''),
  }),
  v.forward(
    v.check((s) => !s.cloudlog_enabled || (s.cloudlog_url !== '' && s.cloudlog_api_key !== '' && s.cloudlog_station_profile_id !== ''), 'push to Cloudlog needs the URL, the API key and the station profile id'),
    ['cloudlog_enabled'],
  ),
);
export type LogbookSettings = v.InferOutput<typeof LogbookSettingsSchema>;

export const DEFAULT_LOGBOOK_SETTINGS: LogbookSettings = v.parse(LogbookSettingsSchema, {});
