import * as v from 'valibot';
import type { Services } from '../../services.js';
import { LiveSampleSchema } from '../../orbit/schemas.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { qSatIds } from '../validate.js';

export const MAX_LIVE_SAT_IDS = 64;

const LiveResponse = v.object({
  timestamp: v.string(),
  location: v.object({ source: v.string(), lat: v.number(), lon: v.number(), alt_m: v.number() }),
  count: v.number(),
  items: v.array(LiveSampleSchema),
});


// /api/v1/live
export function liveRoutes(s: Services): RouteDef[] {
  const location = () => {
    const loc = s.location.resolved();
    return { source: loc.source, lat: loc.lat, lon: loc.lon, alt_m: loc.alt_m };
  };
  const keyAt = (now: number) => {
    const loc = s.location.resolved();
    return `${Math.floor(now / 1000)}|${s.catalog.current().version}|${loc.lat},${loc.lon},${loc.alt_m}`;
  };
  // The whole-catalog answer: computed and serialised by the orbit engine (on a worker thread or in
  // slices), once per second (and catalog and location) at most; callers meanwhile share the sweep
  // under way. On a slow board with a big catalog a sweep outlasts its second: the answer then
  // carries the second it was computed for.
  let cache: { key: string; reply: RawReply } | null = null;
  let sweep: Promise<RawReply> | null = null;
  const wholeCatalog = async (): Promise<RawReply> => {
    const key = keyAt(s.clock.now());
    const loc = location();
    const { second_ms, items } = await s.orbit.liveAllJson(s.clock.now());
    const reply = new RawReply(items.document({ timestamp: new Date(second_ms).toISOString(), location: loc, count: items.count }, 'items'));
    cache = { key, reply };
    return reply;
  };
  return [
    route({
      method: 'GET',
      path: '/api/v1/live',
      tag: 'tracking',
      summary:
        'Live samples of every catalog satellite (or of sat_ids, comma-separated) at the current whole second; ' +
        'samples are computed once per second and shared by every caller. sunlit: outside the Earth\'s conical umbra.',
      query: v.object({ sat_ids: v.optional(qSatIds(MAX_LIVE_SAT_IDS)) }),
      response: LiveResponse,
      handler: ({ query }) => {
        const now = s.clock.now();
        if (query.sat_ids) {
          const items = s.orbit.live(now, query.sat_ids);
          return { timestamp: new Date(Math.floor(now / 1000) * 1000).toISOString(), location: location(), count: items.length, items };
        }
        if (cache?.key === keyAt(now)) return cache.reply;
        sweep ??= wholeCatalog().finally(() => (sweep = null));
        return sweep;
      },
    }),
  ];
}
