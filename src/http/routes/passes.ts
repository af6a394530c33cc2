import * as v from 'valibot';
import type { Services } from '../../services.js';
import { ISS_SAT_ID } from '../../catalog/types.js';
import { PassItemSchema } from '../../orbit/schemas.js';
import { GuidanceEmbedSchema } from '../../guidance/schemas.js';
import { DEFAULT_MIN_EL_DEG, passFilterSatIds } from '../../station/pass-filter.js';
import { MAX_PASS_ITEMS } from '../../station/pass-items-service.js';
import { iso } from '../../util/clock.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { qBool, qInt, qNumber, qSatIds } from '../validate.js';

export const DEFAULT_PASS_HOURS = 24;
export const DEFAULT_PASS_LIMIT = 1000;
/** Satellites one `sat_ids` may name (the tracked set holds at most 8; the pass filter's favorites 64). */
export const MAX_PASS_SAT_IDS = 64;

const PassesResponse = v.object({
  timestamp: v.string(),
  hours: v.number(),
  min_max_el: v.number(),
  count: v.number(),
  /** Passes matching the query; more than count when the answer was cut at `limit`. */
  total: v.number(),
  limit: v.number(),
  truncated: v.boolean(),
  // The pass fields plus the guidance model's own schemas, so /docs shows the embedded recommendation and matrix.
  items: v.array(v.object({ ...PassItemSchema.entries, ...GuidanceEmbedSchema.entries })),
});

/** X-Cache says whether the items' bytes were reused whole (as on /lite/snapshot). */
const HIT = { 'X-Cache': 'HIT' };
const MISS = { 'X-Cache': 'MISS' };
const CLOSE = Buffer.from('}');

// /api/v1/passes and /api/v1/passes/cache/refresh
export function passesRoutes(s: Services): RouteDef[] {
  const horizon = s.orbit.horizonHours;
  // Two of the largest answers' items fit, so the kiosk's and /radio's queries keep theirs.
  return [
    route({
      method: 'GET',
      path: '/api/v1/passes',
      tag: 'tracking',
      summary:
        `Passes with AOS in the next \`hours\` (default ${DEFAULT_PASS_HOURS}, at most the ${horizon} h table horizon) ` +
        'reaching at least `min_max_el` degrees, sorted by AOS, from the precomputed pass table. Without `min_max_el` the ' +
        `operator's minimum elevation applies (\`min_el_deg\` of /api/v1/settings/pass-filter, default ${DEFAULT_MIN_EL_DEG}); \`min_max_el=0\` lists every pass; ` +
        'the answer\'s `min_max_el` is the value used. The pass ' +
        'filter profile applies unless include_all_sats; `sat_ids` (comma-separated, at most ' + MAX_PASS_SAT_IDS + ') lists those satellites\' passes instead ' +
        '(the station view\'s "Tracked"); include_ongoing adds passes already under way (true AOS in the past). ' +
        'aos/tca/los carry milliseconds; tca is the time of maximum elevation. At most `limit` passes ' +
        `(default ${DEFAULT_PASS_LIMIT}, at most ${MAX_PASS_ITEMS}), the earliest by AOS; total counts every match and truncated says the answer was cut. ` +
        'X-Cache says HIT when the items were served from stored bytes (the same passes as a previous answer, none under way).',
      query: v.object({
        hours: v.optional(qNumber(0.1, horizon), String(DEFAULT_PASS_HOURS)),
        // No default here: absent means the operator's own minimum, read per request.
        min_max_el: v.optional(qNumber(0, 90)),
        include_all_sats: v.optional(qBool(), 'false'),
        include_ongoing: v.optional(qBool(), 'false'),
        sat_ids: v.optional(qSatIds(MAX_PASS_SAT_IDS)),
        limit: v.optional(qInt(1, MAX_PASS_ITEMS), String(DEFAULT_PASS_LIMIT)),
      }),
      response: PassesResponse,
      handler: async ({ query }) => {
        const now = s.clock.now();
        const filter = s.stores.passFilter.get();
        const min_max_el = query.min_max_el ?? filter.min_el_deg;
        const { passes, items, hit } = await s.passItems.answer(
          {
            hours: query.hours,
            min_max_el_deg: min_max_el,
            sat_ids: query.sat_ids ?? (query.include_all_sats ? undefined : passFilterSatIds(filter, ISS_SAT_ID)),
            include_ongoing: query.include_ongoing,
            limit: query.limit,
            key: `${query.hours}|${min_max_el}|${query.include_all_sats}|${query.include_ongoing}|${query.limit}|${query.sat_ids?.join(',') ?? ''}`,
          },
          now,
        );
        const count = passes.length;
        const head = { timestamp: iso(now), hours: query.hours, min_max_el, count, total: passes.total, limit: query.limit, truncated: passes.total > count };
        // The same bytes as JSON.stringify({ ...head, items }).
        const text = JSON.stringify(head);
        return new RawReply(Buffer.concat([Buffer.from(`${text.slice(0, -1)},"items":`), items, CLOSE]), undefined, 200, hit ? HIT : MISS);
      },
    }),
    route({
      method: 'POST',
      path: '/api/v1/passes/cache/refresh',
      tag: 'tracking',
      summary: 'Clear the persisted pass cache; the table is recomputed in the background (answers wait for it meanwhile).',
      response: v.object({ ok: v.boolean(), cleared: v.boolean() }),
      handler: async () => ({ ok: true, cleared: await s.orbit.table.clear() }),
    }),
  ];
}
