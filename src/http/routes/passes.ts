import * as v from 'valibot';
import type { Services } from '../../services.js';
import { ISS_SAT_ID } from '../../catalog/types.js';
import { PassItemSchema } from '../../orbit/schemas.js';
import { GuidanceEmbedSchema } from '../../guidance/schemas.js';
import type { PassEvent } from '../../orbit/types.js';
import { DEFAULT_MIN_EL_DEG, passFilterSatIds } from '../../station/pass-filter.js';
import { iso } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';
import { backgroundSlicer, drainSliced } from '../../util/loop-slices.js';
import { PassBytesCache } from '../pass-bytes-cache.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { qBool, qInt, qNumber, qSatIds } from '../validate.js';

const log = logger('passes');

export const DEFAULT_PASS_HOURS = 24;
/**
 * Passes in one answer: ~500 bytes each with guidance, so 2000 is ~1 MiB. The 16k catalog has
 * ~300k passes in 48 h, which no client can use and no 96 MiB heap can build at once.
 */
export const MAX_PASS_ITEMS = 2000;
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

/**
 * The one place a pass gets its frequency guidance (spec part 4 rule 10): services.guidance.embed,
 * the same model /system/state, the lite snapshot and /frequency-guides/recommendation use.
 */
export function passItem(s: Services, p: PassEvent, now_ms: number): v.InferOutput<typeof PassItemSchema> {
  const g = s.guidance.embed(p.sat_id, now_ms, p);
  return {
    sat_id: p.sat_id,
    name: p.name,
    aos: p.aos,
    tca: p.tca,
    los: p.los,
    max_el_deg: p.max_el_deg,
    frequencyRecommendation: g.frequencyRecommendation,
    frequencyMatrix: g.frequencyMatrix,
  };
}

const CLOSE = Buffer.from('}');
/** X-Cache says whether the items' bytes were reused whole (as on /lite/snapshot). */
const HIT = { 'X-Cache': 'HIT' };
const MISS = { 'X-Cache': 'MISS' };

// /api/v1/passes and /api/v1/passes/cache/refresh
export function passesRoutes(s: Services): RouteDef[] {
  const horizon = s.orbit.horizonHours;
  // Two of the largest answers' items fit, so the kiosk's and /radio's queries keep theirs.
  const bytes = new PassBytesCache(2 * MAX_PASS_ITEMS);
  // Each time a table is loaded or computed, the items of the whole horizon under the pass filter (a superset of
  // the 24 h / and the kiosk ask for, and of /radio's 48 h) are built in slices in the background:
  // the first /passes after boot then costs a concatenation (at a tenth of a core, guidance for
  // ~1000 passes is seconds).
  let warming: Promise<unknown> = Promise.resolve();
  s.orbit.table.onTable(() => {
    warming = warming
      .then(async () => {
        const now = s.clock.now();
        const filter = s.stores.passFilter.get();
        const passes = await s.orbit.passesWhenReady({
          from_ms: now,
          hours: horizon,
          min_max_el_deg: filter.min_el_deg,
          sat_ids: passFilterSatIds(filter, ISS_SAT_ID),
          include_ongoing: false,
          limit: MAX_PASS_ITEMS,
        });
        // The items' costly part, each pass's phase range rates, as the last run kept them.
        s.guidance.loadPassRates();
        // In the background's short slices: a request meanwhile builds what is not warm yet itself.
        await drainSliced(bytes.warm(s.guidance.basis(), passes, now, (p) => passItem(s, p, now)), backgroundSlicer);
        await s.guidance.persistPassRates(now);
      })
      // A warm-up that fails leaves the first answer to build its items, as before.
      .catch((err) => log.warn(`warming /passes items failed: ${errorMessage(err)}`));
  });
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
        const sat_ids = query.sat_ids ?? (query.include_all_sats ? undefined : passFilterSatIds(filter, ISS_SAT_ID));
        const passes = await s.orbit.passesWhenReady({
          from_ms: now,
          hours: query.hours,
          min_max_el_deg: min_max_el,
          sat_ids,
          include_ongoing: query.include_ongoing,
          limit: query.limit,
        });
        // The items' bytes are kept (src/http/pass-bytes-cache.ts): the same passes again are a lookup;
        // new ones get their guidance and JSON in slices (2000 cold items are ~100 ms here).
        const key = `${query.hours}|${min_max_el}|${query.include_all_sats}|${query.include_ongoing}|${query.limit}|${query.sat_ids?.join(',') ?? ''}`;
        // The catalog and the guidance profiles: a profile added or removed shows in the next answer.
        const basis = s.guidance.basis();
        const stored = bytes.answer(key, basis, passes, now);
        const items = stored ?? (await drainSliced(bytes.build(key, basis, passes, now, (p) => passItem(s, p, now))));
        const count = passes.length;
        const head = { timestamp: iso(now), hours: query.hours, min_max_el, count, total: passes.total, limit: query.limit, truncated: passes.total > count };
        // The same bytes as JSON.stringify({ ...head, items }).
        const text = JSON.stringify(head);
        return new RawReply(Buffer.concat([Buffer.from(`${text.slice(0, -1)},"items":`), items, CLOSE]), undefined, 200, stored ? HIT : MISS);
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
