// Where catalog elements and operational statuses come from, and when they are refreshed.
// CATALOG_SOURCES (environment) wins over the settings file, which wins over these defaults.
import * as v from 'valibot';
import { isCronExpression } from '../util/cron-expression.js';
import { isUrl } from './fetch-source.js';

export const DEFAULT_CATALOG_SOURCES = [
  'https://celestrak.org/NORAD/elements/gp.php?GROUP=amateur&FORMAT=json',
  'https://celestrak.org/NORAD/elements/gp.php?GROUP=stations&FORMAT=json',
];
/** AMSAT status API: one row per satellite name and report value over the last `hours`. */
export const DEFAULT_STATUS_URL = 'https://www.amsat.org/status/api/v1/summary.php?hours=48';
/** Daily at 04:17 local: off the hour, so appliances do not all hit CelesTrak at once. */
export const DEFAULT_REFRESH_CRON = '17 4 * * *';
export const DEFAULT_STATUS_CRON = '43 */12 * * *';
/** SatNOGS DB's active transmitters (JSON, ~2,900 records, ~2 MB): the data guidance profiles are built from. */
export const DEFAULT_TRANSMITTERS_SOURCE = 'https://db.satnogs.org/api/transmitters/?format=json&status=active';
/** Weekly, Monday 05:29 local: frequencies change over weeks, and off the hour spares SatNOGS DB the crowd. */
export const DEFAULT_TRANSMITTERS_CRON = '29 5 * * 1';

/** Kernel and device trees: never a catalog, and reading them can hang or never end. */
const SPECIAL_DIRS = /^\/(dev|proc|sys|run)(\/|$)/;

const source = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1),
  v.maxLength(2048),
  v.check((s) => /^https?:\/\/\S+$/i.test(s) || !/^[a-z][a-z0-9+.-]*:\/\//i.test(s), 'must be an http(s) URL or a file path'),
  v.check((s) => isUrl(s) || s.startsWith('/'), 'a file source must be an absolute path'),
  v.check((s) => isUrl(s) || !SPECIAL_DIRS.test(s), 'a file source cannot be under /dev, /proc, /sys or /run'),
  v.check((s) => !s.includes('\0'), 'must not contain a NUL character'),
);

/**
 * Five fields (node-cron also takes a leading seconds field, which could retry a failing source
 * every second), and one fixed minute, so a schedule runs at most once an hour.
 */
export function cronProblem(expr: string): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) return 'must have five fields (minute hour day month weekday)';
  if (!/^\d{1,2}$/.test(fields[0]) || Number(fields[0]) > 59) return 'the minute field must be one number 0-59: at most one run an hour';
  return isCronExpression(expr) ? null : 'not a valid cron expression';
}
const cronExpr = v.pipe(
  v.string(),
  v.rawCheck(({ dataset, addIssue }) => {
    const why = dataset.typed ? cronProblem(dataset.value) : null;
    if (why) addIssue({ message: why });
  }),
);

/**
 * The whole active catalog is ~12 MiB as OMM JSON. The body is held as bytes (outside the JS heap)
 * while parsed a record at a time, so 32 MiB of body stays well inside the unit's MemoryMax.
 */
export const MAX_SOURCE_BYTES = 32 * 1024 * 1024;
/** The full transmitters dump is ~2 MB; four times that is room to grow, and still a bounded JSON.parse. */
export const MAX_TRANSMITTERS_BYTES = 8 * 1024 * 1024;

export const CatalogSourcesSchema = v.object({
  /** URLs (http/https) or file paths; OMM JSON or TLE text, detected by content. */
  sources: v.pipe(v.array(source), v.maxLength(16)),
  /** Catalog refresh schedule (node-cron, local time). */
  refresh_cron: cronExpr,
  /** AMSAT status source (summary.php, sat_info.php-style JSON or the status page HTML); "" disables it. */
  status_url: v.union([v.literal(''), v.pipe(v.string(), v.url())]),
  status_cron: cronExpr,
  /** SatNOGS DB transmitters JSON (URL or absolute file path) guidance profiles are rebuilt from; "" disables it. */
  transmitters_source: v.union([v.literal(''), source]),
  transmitters_cron: cronExpr,
  /** Per-source limits: the whole answer must arrive within the timeout and under the cap. */
  fetch_timeout_ms: v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(300_000)),
  max_bytes: v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(MAX_SOURCE_BYTES)),
});
export type CatalogSources = v.InferOutput<typeof CatalogSourcesSchema>;

export const defaultCatalogSources = (): CatalogSources => ({
  sources: [...DEFAULT_CATALOG_SOURCES],
  refresh_cron: DEFAULT_REFRESH_CRON,
  status_url: DEFAULT_STATUS_URL,
  status_cron: DEFAULT_STATUS_CRON,
  transmitters_source: DEFAULT_TRANSMITTERS_SOURCE,
  transmitters_cron: DEFAULT_TRANSMITTERS_CRON,
  fetch_timeout_ms: 20_000,
  // CelesTrak's amateur and stations groups are ~60 KiB each as JSON; the whole active catalog ~12 MiB.
  max_bytes: 16 * 1024 * 1024,
});

/** The sources in effect: the environment list when set, else the settings file's. */
export function effectiveSources(envSources: readonly string[], settings: CatalogSources): string[] {
  return envSources.length > 0 ? [...envSources] : settings.sources;
}
