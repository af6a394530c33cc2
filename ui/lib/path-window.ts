// A path that slides with time (the next 100 minutes of a ground track, the ISS's next orbit),
// asked for in blocks instead of polled: from the start of the current block, long enough to
// cover the span ahead of any moment in the block. The page draws it from now; the URL, and so
// the request, changes once per block. The route lets a path start up to 1 h back.

const BLOCK_MIN = 30;

/** GET /api/v1/track/path for `minutes` ahead of every moment of the block `now` is in. */
export function slidingPathUrl(satId: string, minutes: number, stepS: number, now: number): string {
  const block = BLOCK_MIN * 60_000;
  const start = new Date(Math.floor(now / block) * block).toISOString();
  return `/api/v1/track/path?sat_id=${encodeURIComponent(satId)}&start=${encodeURIComponent(start)}&minutes=${minutes + BLOCK_MIN}&step_seconds=${stepS}`;
}

/** The points from the one at or just before `now`, for `minutes`. */
export function pathFromNow<P extends { timestamp: string }>(items: readonly P[], now: number, minutes: number): P[] {
  const end = now + minutes * 60_000;
  let first = 0;
  while (first + 1 < items.length && Date.parse(items[first + 1].timestamp) <= now) first++;
  const out: P[] = [];
  for (let i = first; i < items.length && Date.parse(items[i].timestamp) <= end; i++) out.push(items[i]);
  return out;
}
