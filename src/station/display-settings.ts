import * as v from 'valibot';
import { choice } from '../util/choice.js';

// ISS display mode and display timezone (spec part 4, routes named without details).

export const ISS_DISPLAY_MODES = ['auto', 'video', 'track'] as const;
export type IssDisplayMode = (typeof ISS_DISPLAY_MODES)[number];

// NASA's YouTube channel live embed: the official ISS Earth-view stream runs there.
export const DEFAULT_ISS_STREAM_URL = 'https://www.youtube.com/embed/live_stream?channel=UCLA_DiR1FfKNvjuUpBHmylQ';

export const IssDisplaySchema = v.object({
  iss_display_mode: choice(ISS_DISPLAY_MODES, {
    auto: 'the Earth-view stream while it is worth showing (the ISS sunlit, the stream up), else the ground track',
    video: 'the stream whenever it is healthy',
    track: 'always the ground track, never the stream',
  }),
  stream_url: v.pipe(v.string(), v.maxLength(512), v.regex(/^https?:\/\/[^\s"'<>]+$/, 'must be an http(s) URL')),
});
export type IssDisplay = v.InferOutput<typeof IssDisplaySchema>;
export const defaultIssDisplay = (): IssDisplay => ({ iss_display_mode: 'auto', stream_url: DEFAULT_ISS_STREAM_URL });

// The runtime's IANA list (Intl.supportedValuesOf) holds one canonical name per zone and not
// the alias UTC. Other IANA spellings the runtime resolves onto a listed zone are accepted too
// (ICU lists Asia/Calcutta where IANA now says Asia/Kolkata); offsets and odd case are not.
// The list is read at the first zone other than UTC (issue 36): ~600 names, ~3 ms of CPU here and
// ICU's pages, which a station left on UTC (the default, checked at every boot's load) never needs.
let zones: ReadonlySet<string> | null = null;
const knownZones = (): ReadonlySet<string> => (zones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']));
const IANA_SHAPE = /^[A-Z][A-Za-z_-]*(\/[A-Z][A-Za-z0-9_+-]*){1,2}$/;

export function isKnownTimeZone(z: string): boolean {
  if (z === 'UTC' || knownZones().has(z)) return true;
  if (!IANA_SHAPE.test(z)) return false;
  try {
    return knownZones().has(new Intl.DateTimeFormat('en-US', { timeZone: z }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

export const TimezoneSchema = v.object({
  display_timezone: v.pipe(v.string(), v.maxLength(64), v.check(isKnownTimeZone, 'must be an IANA time zone such as Europe/London or UTC')),
});
export type TimezoneSetting = v.InferOutput<typeof TimezoneSchema>;
export const defaultTimezone = (): TimezoneSetting => ({ display_timezone: 'UTC' });

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in minutes (east positive). */
export function utcOffsetMinutes(zone: string, ms: number): number {
  if (zone === 'UTC') return 0;
  let f = offsetFormatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    if (offsetFormatters.size < 16) offsetFormatters.set(zone, f);
  }
  const name = f.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0;
}

/** Timezone state the lite snapshot carries: small clients have no zone database. */
export function timezoneState(zone: string, ms: number) {
  return { display_timezone: zone, utc_offset_minutes: utcOffsetMinutes(zone, ms) };
}
