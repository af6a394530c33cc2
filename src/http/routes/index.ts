import type { Services } from '../../services.js';
import type { RouteDef } from '../route.js';
import { uiRoutes, type UiBundle } from '../ui-pages.js';
import { healthRoutes } from './health.js';
import { settingsRoutes } from './settings.js';
import { locationRoutes } from './location.js';
import { networkRoutes } from './network.js';
import { systemRoutes } from './system.js';
import { issRoutes } from './iss.js';
import { liteRoutes } from './lite.js';
import { satellitesRoutes } from './satellites.js';
import { datasetsRoutes } from './datasets.js';
import { snapshotsRoutes } from './snapshots.js';
import { liveRoutes } from './live.js';
import { trackRoutes } from './track.js';
import { passesRoutes } from './passes.js';
import { frequencyGuideRoutes } from './frequency-guides.js';
import { radioRoutes } from './radio.js';
import { aprsRoutes } from './aprs.js';
import { rotatorRoutes } from './rotator.js';
import { accessRoutes } from './access.js';
import { logbookRoutes } from './logbook.js';
import { eventsRoutes } from './events.js';
import { recordingsRoutes } from './recordings.js';

// Route files in the order /docs lists them.
const AREAS: ReadonlyArray<(s: Services) => RouteDef[]> = [
  settingsRoutes,
  locationRoutes,
  networkRoutes,
  systemRoutes,
  issRoutes,
  liteRoutes,
  satellitesRoutes,
  datasetsRoutes,
  snapshotsRoutes,
  liveRoutes,
  trackRoutes,
  passesRoutes,
  frequencyGuideRoutes,
  radioRoutes,
  aprsRoutes,
  rotatorRoutes,
  accessRoutes,
  logbookRoutes,
  recordingsRoutes,
  eventsRoutes,
];

/** Every route of the appliance; a route's file is named after its path area. */
export function allRoutes(s: Services, ui: UiBundle | null): RouteDef[] {
  const list: RouteDef[] = [];
  list.push(...healthRoutes(s, () => list, ui));
  list.push(...uiRoutes(ui, s.config.lowPower));
  for (const area of AREAS) list.push(...area(s));
  return list;
}
