// Times for people: in the station's display timezone with the zone named, countdowns and
// ages. Intl formatters are built once per zone (they are the costly part on a small CPU).

export interface Zone {
  /** IANA name from the settings (display_timezone). */
  name: string;
  /** Offset now, for browsers whose Intl lacks the zone. */
  offsetMinutes?: number;
}

export const UTC: Zone = { name: 'UTC', offsetMinutes: 0 };

interface Formatters {
  time: Intl.DateTimeFormat | null;
  seconds: Intl.DateTimeFormat | null;
  day: Intl.DateTimeFormat | null;
  abbr: string;
}
const cache = new Map<string, Formatters>();

function formatters(zone: Zone): Formatters {
  let f = cache.get(zone.name);
  if (f) return f;
  try {
    const base = { timeZone: zone.name, hourCycle: 'h23' } as const;
    const time = new Intl.DateTimeFormat('en-GB', { ...base, hour: '2-digit', minute: '2-digit' });
    const seconds = new Intl.DateTimeFormat('en-GB', { ...base, hour: '2-digit', minute: '2-digit', second: '2-digit' });
    const day = new Intl.DateTimeFormat('en-GB', { timeZone: zone.name, weekday: 'short', day: 'numeric', month: 'short' });
    const parts = new Intl.DateTimeFormat('en-GB', { timeZone: zone.name, timeZoneName: 'short' }).formatToParts(new Date());
    const abbr = zone.name === 'UTC' ? 'UTC' : parts.find((p) => p.type === 'timeZoneName')?.value ?? zone.name;
    f = { time, seconds, day, abbr };
  } catch {
    f = { time: null, seconds: null, day: null, abbr: offsetName(zone.offsetMinutes ?? 0) };
  }
  cache.set(zone.name, f);
  return f;
}

function offsetName(min: number): string {
  if (min === 0) return 'UTC';
  const a = Math.abs(min);
  return `UTC${min < 0 ? '−' : '+'}${Math.floor(a / 60)}${a % 60 ? ':' + String(a % 60).padStart(2, '0') : ''}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

function shifted(ms: number, zone: Zone): Date {
  return new Date(ms + (zone.offsetMinutes ?? 0) * 60_000);
}

/** "14:05" in the zone. */
export function clock(t: string | number, zone: Zone, withSeconds = false): string {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  const f = formatters(zone);
  const fmt = withSeconds ? f.seconds : f.time;
  if (fmt) return fmt.format(ms);
  const d = shifted(ms, zone);
  return `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${withSeconds ? ':' + pad(d.getUTCSeconds()) : ''}`;
}

/** "Mon 23 Nov" in the zone. */
export function day(t: string | number, zone: Zone): string {
  const ms = typeof t === 'number' ? t : Date.parse(t);
  const f = formatters(zone);
  if (f.day) return f.day.format(ms);
  return shifted(ms, zone).toISOString().slice(0, 10);
}

/** The zone as people read it ("UTC", "CET", "GMT+1"). */
export const zoneLabel = (zone: Zone): string => formatters(zone).abbr;

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
