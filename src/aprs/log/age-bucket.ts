import * as v from 'valibot';

// POST /aprs/log/clear {age_bucket}: a bucket names an age, and clearing removes every entry
// OLDER than it (received_at before now − age), keeping the recent ones; `all` empties the log.
// "Clear 24h" therefore means "keep the last 24 hours", the reading that never deletes what the
// operator is looking at right now.
export const AGE_BUCKETS = ['1h', '6h', '24h', '7d', '30d', 'all'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];

const HOUR = 3600_000;
const AGE_MS: Record<Exclude<AgeBucket, 'all'>, number> = {
  '1h': HOUR,
  '6h': 6 * HOUR,
  '24h': 24 * HOUR,
  '7d': 7 * 24 * HOUR,
  '30d': 30 * 24 * HOUR,
};

export const AgeBucketSchema = v.picklist(AGE_BUCKETS, `age_bucket must be one of ${AGE_BUCKETS.join(', ')}`);

/** The age a bucket keeps, in ms; null for `all` (nothing kept). */
export function ageBucketMs(b: AgeBucket): number | null {
  return b === 'all' ? null : AGE_MS[b];
}

/** Entries received before this instant are removed by `b` (+Infinity for `all`). */
export function ageBucketCutoff(b: AgeBucket, nowMs: number): number {
  const ms = ageBucketMs(b);
  return ms === null ? Number.POSITIVE_INFINITY : nowMs - ms;
}
