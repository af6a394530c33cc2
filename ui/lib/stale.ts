// Client staleness rules (spec part 4, lite rules): from 12 h old the data is stale and says so
// strongly; from 24 h pass times are reference only.

export const STALE_WARN_H = 12;
export const REFERENCE_ONLY_H = 24;

export type Staleness = 'fresh' | 'late' | 'stale' | 'reference';

/** late: the appliance is not answering but the data is younger than the stale limit. */
export function staleness(receivedAt: number, now: number, offline: boolean): Staleness {
  if (!receivedAt) return offline ? 'late' : 'fresh';
  const h = (now - receivedAt) / 3_600_000;
  if (h >= REFERENCE_ONLY_H) return 'reference';
  if (h >= STALE_WARN_H) return 'stale';
  return offline ? 'late' : 'fresh';
}
