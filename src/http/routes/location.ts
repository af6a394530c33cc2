import * as v from 'valibot';
import type { Services } from '../../services.js';
import { LocationPatchSchema, LocationPointSchema, LocationStateSchema, GpsFixSchema, SOURCE_MODES } from '../../station/location-state.js';
import { route, type RouteDef } from '../route.js';

const ResolvedSchema = v.object({ source: v.picklist(SOURCE_MODES), ...LocationPointSchema.entries });
const LocationViewSchema = v.object({
  state: LocationStateSchema,
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
        'Impossible points and unknown profile ids are a 400; nothing is saved from a rejected request.',
      body: LocationPatchSchema,
      response: LocationViewSchema,
      clearsLiteCache: true,
      handler: ({ body }) => s.location.update(body),
    }),
  ];
}
