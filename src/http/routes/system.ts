import type { Services } from '../../services.js';
import { SystemStateSchema } from '../../station/schemas.js';
import { buildSystemState } from '../../station/system-state.js';
import { route, type RouteDef } from '../route.js';

// /api/v1/system/*
export function systemRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/system/state',
      tag: 'system',
      summary:
        'Station state in one read: location, settings, ISS state, the active track and pass with frequency guidance, ' +
        'radio and APRS blocks, station identity and Sun/Moon positions',
      response: SystemStateSchema,
      handler: () => buildSystemState(s.station),
    }),
  ];
}
