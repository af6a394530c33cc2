import * as v from 'valibot';
import type { Services } from '../../app.js';
import { LiveSampleSchema } from '../../orbit/schemas.js';
import { RawReply, route, type RouteDef } from '../route.js';

export const MAX_LIVE_SAT_IDS = 64;

const LiveResponse = v.object({
  timestamp: v.string(),
  location: v.object({ source: v.string(), lat: v.number(), lon: v.number(), alt_m: v.number() }),
  count: v.number(),
  items: v.array(LiveSampleSchema),
});

/** Comma-separated sat_ids, at most MAX_LIVE_SAT_IDS. */
const SatIdList = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,31}(,[a-z0-9][a-z0-9-]{0,31})*$/, 'must be comma-separated sat_ids'),
  v.transform((s) => [...new Set(s.split(','))]),
  v.maxLength(MAX_LIVE_SAT_IDS, `at most ${MAX_LIVE_SAT_IDS} sat_ids`),
);

// /api/v1/live
export function liveRoutes(s: Services): RouteDef[] {
  // The whole-catalog answer is serialised once per second (and per catalog and location).
  let cache: { key: string; reply: RawReply } | null = null;
  const body = (sat_ids?: string[]) => {
    const now = s.clock.now();
    const items = s.orbit.live(now, sat_ids);
    const loc = s.location.resolved();
    return {
      timestamp: new Date(Math.floor(now / 1000) * 1000).toISOString(),
      location: { source: loc.source, lat: loc.lat, lon: loc.lon, alt_m: loc.alt_m },
      count: items.length,
      items,
    };
  };
  return [
    route({
      method: 'GET',
      path: '/api/v1/live',
      tag: 'tracking',
      summary:
        'Live samples of every catalog satellite (or of sat_ids, comma-separated) at the current whole second; ' +
        'samples are computed once per second and shared by every caller. sunlit: outside the Earth\'s conical umbra.',
      query: v.object({ sat_ids: v.optional(SatIdList) }),
      response: LiveResponse,
      handler: ({ query }) => {
        if (query.sat_ids) return body(query.sat_ids);
        const loc = s.location.resolved();
        const key = `${Math.floor(s.clock.now() / 1000)}|${s.catalog.current().version}|${loc.lat},${loc.lon},${loc.alt_m}`;
        if (cache?.key !== key) cache = { key, reply: new RawReply(JSON.stringify(body())) };
        return cache.reply;
      },
    }),
  ];
}
