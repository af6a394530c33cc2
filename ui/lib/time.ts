// Times for people: in the station's display timezone with the zone named, countdowns and
// ages. Building an Intl.DateTimeFormat with a time zone loads ICU's zone data: ~30 ms on this
// machine, ~170 ms at 6x CPU throttling, most of /lite's first-frame budget. So a zone that
// carries the server's current UTC offset (the lite snapshot sends utc_offset_minutes, because
// small clients may have no zone database) is formatted by arithmetic, labelled "UTC+2";
// only a zone without it goes through Intl (built once per zone and kind).

export interface Zone {
  /** IANA name from the settings (display_timezone). */
  name: string;
  /** The zone's offset now, from the server: formats without Intl. */
  offsetMinutes?: number;
}

export const UTC: Zone = { name: 'UTC', offsetMinutes: 0 };

/** The zone of a lite snapshot's `timezone` block (formatted without Intl, see above). */
export const snapshotZone = (tz: { display_timezone: string; utc_offset_minutes: number }): Zone => ({ name: tz.display_timezone, offsetMinutes: tz.utc_offset_minutes });

type Kind = 'time' | 'seconds' | 'day';
const OPTIONS: Record<Kind, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  seconds: { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' },
  day: { weekday: 'short', day: 'numeric', month: 'short' },
};
/** Per zone and kind; null where the browser's Intl lacks the zone (the offset is used then). */
const cache = new Map<string, Intl.DateTimeFormat | null>();

function formatter(zone: Zone, kind: Kind): Intl.DateTimeFormat | null {
  if (zone.offsetMinutes !== undefined) return null;
  const key = zone.name + '|' + kind;
  let f = cache.get(key);
  if (f !== undefined) return f;
  try {
    f = new Intl.DateTimeFormat('en-GB', { ...OPTIONS[kind], timeZone: zone.name });
  } catch {
    f = null;
  }
  cache.set(key, f);
  return f;
}

const abbrs = new Map<string, string>();

function offsetName(min: number): string {
  if (min === 0) return 'UTC';
  const a = Math.abs(min);
  return `UTC${min < 0 ? '−' : '+'}${Math.floor(a / 60)}${a % 60 ? ':' + String(a % 60).padStart(2, '0') : ''}`;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function shifted(ms: number, zone: Zone): Date {
  return new Date(ms + (zone.offsetMinutes ?? 0) * 60_000);
}

/** "14:05" in the zone. */
export function clock(t: string | number, zone: Zone, withSeconds = false): string {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  const fmt = formatter(zone, withSeconds ? 'seconds' : 'time');
  if (fmt) return fmt.format(ms);
  const d = shifted(ms, zone);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${withSeconds ? ':' + pad(d.getUTCSeconds()) : ''}`;
}

/** "Mon 23 Nov" in the zone. */
export function day(t: string | number, zone: Zone): string {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  const f = formatter(zone, 'day');
  if (f) return f.format(ms);
  const d = shifted(ms, zone);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}

/**
 * The day of `t` beside a clock time, when it is not today in the zone: "tmrw", else the weekday
 * ("Tue"); empty today. A chip reading "ISS 10:33" must not be taken for this morning.
 */
export function dayMarker(t: string | number, now: number, zone: Zone): string {
  const d = day(t, zone);
  if (d === day(now, zone)) return '';
  return d === day(now + 86_400_000, zone) ? 'tmrw' : d.split(' ')[0];
}

/** The zone as people read it ("UTC", "CET", "GMT+1"). */
export function zoneLabel(zone: Zone): string {
  let a = abbrs.get(zone.name);
  if (a !== undefined) return a;
  a = offsetName(zone.offsetMinutes ?? 0);
  if (zone.name === 'UTC') a = 'UTC';
  else if (formatter(zone, 'time')) {
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone.name, timeZoneName: 'short' }).formatToParts(Date.now());
    a = parts.find((p) => p.type === 'timeZoneName')?.value ?? zone.name;
  }
  abbrs.set(zone.name, a);
  return a;
}

/** "2026-08-22 12:03Z": logbooks and recordings keep UTC, so their lists do too whatever the display zone. */
export const utcMinute = (iso: string): string => `${iso.slice(0, 10)} ${iso.slice(11, 16)}Z`;

/** A countdown: "04:12", "1:04:12", or "2 d 03 h" beyond a day. Negative counts as zero. */
export function countdown(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (h >= 24) return `${Math.floor(h / 24)} d ${pad(h % 24)} h`;
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${pad(m)}:${pad(s % 60)}`;
}

/** An age: "12 s", "5 min", "3 h 20 min", "2 d 4 h". */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 48) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}
