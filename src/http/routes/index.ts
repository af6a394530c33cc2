import type { Services } from '../../app.js';
import type { RouteDef } from '../route.js';
import { uiRoutes, type UiBundle } from '../ui-pages.js';
import { healthRoutes } from './health.js';
import { settingsRoutes } from './settings.js';

/** Every route of the appliance; a route's file is named after its path area. */
export function allRoutes(s: Services, ui: UiBundle | null): RouteDef[] {
  const list: RouteDef[] = [];
  list.push(...healthRoutes(s, () => list));
  list.push(...uiRoutes(ui, s.config.lowPower));
  list.push(...settingsRoutes(s));
  return list;
}
