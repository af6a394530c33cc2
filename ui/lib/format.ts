// Numbers with their units, the same way on every page.

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'];

/** Compass point of an azimuth in degrees. */
export const compass = (az: number): string => COMPASS[Math.round((((az % 360) + 360) % 360) / 45) % 8];

export const deg = (x: number | null | undefined, digits = 0): string => (x == null ? '—' : `${x.toFixed(digits).replace('-', '−')}°`);

/** Thousands grouped by hand: toLocaleString builds a NumberFormat on every call. */
export const km = (x: number | null | undefined): string => (x == null ? '—' : `${String(Math.round(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} km`);

export const mhz = (x: number | null | undefined): string => (x == null ? '—' : x.toFixed(3));

export const hzAsMhz = (hz: number | null | undefined): string => (hz == null ? '—' : (hz / 1e6).toFixed(3) + ' MHz');

/** A short satellite name for tight rows: "OSCAR 7 (AO-7)" → "AO-7", "ISS (ZARYA)" → "ISS". */
export function shortName(name: string): string {
  const m = /^(.*?)\s*\(([^)]*)\)$/.exec(name);
  if (!m) return name;
  return /^[A-Z]{1,3}-\d+$/.test(m[2]) ? m[2] : m[1] || name;
}

/** "3 satellites", "1 satellite", "1 QSO": a count with its noun, singular for one. */
export const counted = (n: number, noun: string, plural = `${noun}s`): string => `${n} ${n === 1 ? noun : plural}`;

/** A file's size: "340 KiB", "12.4 MiB" (binary units, as keep_mb counts them). */
export function size(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(bytes ? 1 : 0, Math.round(bytes / 1024))} KiB`;
  const mib = bytes / (1024 * 1024);
  return `${mib < 100 ? mib.toFixed(1) : Math.round(mib)} MiB`;
}

/** An audio level in whole dB with a true minus: "−23" (its unit, dBFS, beside it). */
export const db = (x: number): string => String(Math.round(x)).replace('-', '−');
