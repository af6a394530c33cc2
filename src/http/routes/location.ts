import * as v from 'valibot';
import type { Services } from '../../services.js';
import { GpsFixSchema, Locator6Schema, LocationPatchSchema, LocationPointSchema, LocationProfileSchema, LocationStateSchema, SOURCE_MODES } from '../../station/location-state.js';
import { route, type RouteDef } from '../route.js';

const ResolvedSchema = v.object({ source: v.picklist(SOURCE_MODES), ...LocationPointSchema.entries, locator: Locator6Schema });
// The stored state as shown: every profile with the locator of its point.
const StateViewSchema = v.object({
  ...LocationStateSchema.entries,
  profiles: v.array(v.object({ ...LocationProfileSchema.entries, locator: Locator6Schema })),
});
const LocationViewSchema = v.object({
  state: StateViewSchema,
  resolved: ResolvedSchema,
  gps: v.object({ fix: v.nullable(GpsFixSchema), fresh: v.boolean(), age_s: v.nullable(v.number()) }),
});

// /api/v1/location
export function locationRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/location',
      tag: 'location',
      summary: 'Location state (profiles, source mode, last GPS fix) and the resolved location tracking uses',
      response: LocationViewSchema,
      handler: () => s.location.view(),
    }),
    route({
      method: 'POST',
      path: '/api/v1/location',
      tag: 'location',
      summary:
        'Change the location: remove_profile_id, add_profile (same id replaces), selected_profile_id, source_mode, applied in that order. ' +
        'add_profile gives either point {lat, lon, alt_m} or a Maidenhead locator (4, 6 or 8 characters, any case; the centre of its square) with an optional alt_m (default 0). ' +
        'Impossible points, invalid locators and unknown profile ids are a 400 naming the field; nothing is saved from a rejected request.',
      body: LocationPatchSchema,
      response: LocationViewSchema,
      clearsLiteCache: true,
      handler: ({ body }) => s.location.update(body),
    }),
  ];
}
