import * as v from 'valibot';
import type { Services } from '../../services.js';
import { satelliteItem } from '../../catalog/catalog-build.js';
import { route, type RouteDef } from '../route.js';
import { qBool } from '../validate.js';

const StatusSchema = v.object({ source: v.string(), summary: v.string(), matched_name: v.string() });

/** Spec part 2 "Satellite item": one schema for the docs and the handler's shape. */
export const SatelliteItemSchema = v.object({
  sat_id: v.string(),
  norad_id: v.number(),
  name: v.string(),
  is_iss: v.boolean(),
  has_amateur_radio: v.boolean(),
  transponders: v.array(v.string()),
  repeaters: v.array(v.string()),
  operational_status: StatusSchema,
});

const SatellitesResponse = v.object({
  count: v.number(),
  refreshed: v.boolean(),
  ephemerisRefreshed: v.boolean(),
  refreshError: v.nullable(v.string()),
  items: v.array(SatelliteItemSchema),
});

// /api/v1/satellites
export function satellitesRoutes(s: Services): RouteDef[] {
  // Items are rebuilt only when the catalog generation object changes.
  let cache: { catalog: unknown; items: v.InferOutput<typeof SatelliteItemSchema>[] } | null = null;
  const items = () => {
    const c = s.catalog.current();
    if (cache?.catalog !== c) cache = { catalog: c, items: c.satellites.map(satelliteItem) };
    return cache.items;
  };
  return [
    route({
      method: 'GET',
      path: '/api/v1/satellites',
      tag: 'satellites',
      summary:
        'Catalog satellites. refresh_from_sources=true fetches the configured sources first (subject to the 2-hour ' +
        'politeness window) and clears the lite snapshot cache; refreshed/ephemerisRefreshed say whether new elements were loaded.',
      query: v.object({ refresh_from_sources: v.optional(qBool(), 'false') }),
      response: SatellitesResponse,
      handler: async ({ query }) => {
        let refreshed = false;
        let ephemerisRefreshed = false;
        let refreshError: string | null = null;
        if (query.refresh_from_sources) {
          const { catalog, status } = await s.datasets.refresh('satellites');
          refreshed = catalog.fetched;
          ephemerisRefreshed = catalog.ephemeris.ok;
          refreshError = [catalog.error, status.error].filter(Boolean).join('; ') || null;
          s.invalidateLite();
        }
        const list = items();
        return { count: list.length, refreshed, ephemerisRefreshed, refreshError, items: list };
      },
    }),
  ];
}
