import type { Services } from '../../app.js';
import type { RouteDef } from '../route.js';
import { stateRoutes } from '../state-routes.js';

// /api/v1/settings/*
export function settingsRoutes(s: Services): RouteDef[] {
  return [
    ...stateRoutes({
      path: '/api/v1/settings/developer-overrides',
      tag: 'settings',
      what: 'developer overrides (kiosk rotator)',
      store: s.stores.developerOverrides,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/gps',
      tag: 'settings',
      what: 'GPS connection settings',
      store: s.stores.gps,
      clearsLiteCache: true,
    }),
  ];
}
