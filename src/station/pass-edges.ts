import { ISS_SAT_ID } from '../catalog/types.js';
import { workablePasses } from '../orbit/workable-pass.js';
import type { Clock, Timer } from '../util/clock.js';
import type { Subscribe } from '../util/listeners.js';
import { passFilterSatIds } from './pass-filter.js';
import type { StationService } from './station-service.js';

// The instants the station's screens change by themselves: the AOS and LOS of the passes they
// show (the lite snapshot's tracked satellites, system state's candidates: the pass filter's, the
// ISS, the pinned ones). A pass ending moves the focus to the next one and out of the list, so
// whoever follows the screens without asking again (the push hub) is told then, by a timer armed
// for that instant, never by one that rebuilds and compares.

/** The satellites whose passes the lite snapshot and system state show. */
function shownSatellites(station: StationService): string[] {
  const d = station.deps;
  const byId = d.catalog.current().byId;
  const o = d.settings.developerOverrides.get();
  const pinned = [d.radio.session().selected_sat_id, o.enabled ? o.force_sat_id : null];
  const ids = [...station.tracked().ids, ...(passFilterSatIds(d.settings.passFilter.get(), ISS_SAT_ID) ?? []), ISS_SAT_ID, ...pinned];
  return [...new Set(ids)].filter((id): id is string => typeof id === 'string' && byId.has(id));
}

/** The next AOS or LOS after now among the passes shown; null when there is none in the window. */
export function nextPassEdge(station: StationService, now: number): number | null {
  const ids = shownSatellites(station);
  // Sorted by AOS, those under way first (one per satellite at most): the earliest edge is the
  // LOS of one under way or the first AOS to come, both within ids.length + 1 passes.
  const passes = workablePasses(station.deps.orbit, ids, now, station.deps.settings.passFilter.get().min_el_deg, ids.length + 1);
  let next = Infinity;
  for (const p of passes) {
    if (p.aos_ms > now) next = Math.min(next, p.aos_ms);
    else if (p.los_ms > now) next = Math.min(next, p.los_ms);
  }
  return Number.isFinite(next) ? next : null;
}

/**
 * Calls fn at each pass edge while subscribed. The next edge is found again after each one and
 * whenever `inputs` say what is shown may have changed (tracked set, pass filter, a new table).
 */
export function passEdges(station: StationService, clock: Clock, inputs: readonly Subscribe[]): Subscribe {
  return (fn) => {
    let timer: Timer | null = null;
    const arm = () => {
      timer?.cancel();
      const now = clock.now();
      const at = nextPassEdge(station, now);
      timer = at === null ? null : clock.setTimeout(() => {
        arm();
        fn();
      }, at - now);
    };
    const offs = inputs.map((on) => on(arm));
    arm();
    return () => {
      timer?.cancel();
      for (const off of offs) off();
    };
  };
}
