import type { Services } from '../../services.js';
import { iso } from '../../util/clock.js';
import { IssStateResponseSchema } from '../../station/schemas.js';
import { route, type RouteDef } from '../route.js';

// /api/v1/iss/*
export function issRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/iss/state',
      tag: 'iss',
      summary:
        'ISS live track and display state. videoEligible: the ISS is in sunlight; streamHealthy: online with a stream URL set; ' +
        'developer overrides may force both; mode is pass (above the horizon), video or track.',
      response: IssStateResponseSchema,
      handler: () => {
        const now = s.clock.now();
        return { timestamp: iso(now), ...s.station.iss(now) };
      },
    }),
  ];
}
