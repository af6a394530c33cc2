import * as v from 'valibot';
import type { Services } from '../../services.js';
import { SOURCE_MODES } from '../../station/location-state.js';
import { LiteSnapshotSchema } from '../../station/schemas.js';
import { RawReply, route, type RouteDef } from '../route.js';

/** How a cached snapshot goes out: the bytes, their gzip twin, and whether it was a cache hit. */
export const liteReply = (body: Buffer, gzip: Buffer | null, hit: boolean): RawReply =>
  new RawReply(body, 'application/json; charset=utf-8', 200, { 'X-Cache': hit ? 'HIT' : 'MISS' }, gzip);

const LiteQuery = v.object({
  sat_id: v.optional(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id'))),
  location_source: v.optional(v.picklist(SOURCE_MODES)),
});

// /api/v1/lite/*
export function liteRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/lite/snapshot',
      tag: 'lite',
      summary:
        'Bounded snapshot for small screens (tracked satellites, passes, focus track/pass/cue/path, guidance, station blocks). ' +
        'Cached 15 s per tracked set, focus, location_source and rounded location; X-Cache says HIT or MISS; gzip when accepted.',
      query: LiteQuery,
      response: LiteSnapshotSchema,
      handler: ({ query }) => s.lite.reply(query),
    }),
  ];
}
