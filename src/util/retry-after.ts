// HTTP's Retry-After (RFC 9110 §10.2.3) as a wait: the catalog's source fetch and the logbook's
// push both honour it when a server says 429 or 503. Pure. How long a wait is too long is the
// caller's to decide (the push queue caps it at an hour).

/** delta-seconds or an HTTP-date → ms from now (a date already past is 0); null when absent or unreadable. */
export function retryAfterMs(value: string | null | undefined, nowMs: number): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isFinite(t) ? Math.max(0, t - nowMs) : null;
}
