import { ISS_SAT_ID } from '../catalog/types.js';
import type { LiveSample, PassEvent } from '../orbit/types.js';
import { currentOrNextWorkablePass, workablePasses } from '../orbit/workable-pass.js';
import type { StationIdentity } from '../ham/callsign.js';
import { issState, type IssStateFlags } from './iss-state.js';
import type { Tracked } from './lite-settings-service.js';
import { passFilterSatIds } from './pass-filter.js';
import type { StationDeps } from './station-deps.js';

export interface IssNow {
  issTrack: LiveSample | null;
  state: IssStateFlags;
}

/**
 * Station facts several routes share: the ISS state, the station identity and the satellite
 * the main screen follows. Cached on the identity of their inputs (stores hand out a new
 * object on every change).
 */
export class StationService {
  constructor(readonly deps: StationDeps) {}

  tracked(): Tracked {
    return this.deps.liteSettings.tracked();
  }

  /** The station identity: the APRS side's callsign and SSID, computed there once. */
  identity(): StationIdentity {
    return this.deps.aprs.identity();
  }

  iss(now: number): IssNow {
    const d = this.deps;
    const issTrack = d.catalog.current().byId.has(ISS_SAT_ID) ? d.orbit.sample(ISS_SAT_ID, now) : null;
    const state = issState(issTrack, d.settings.issDisplay.get(), d.settings.developerOverrides.get(), d.network.isOnline());
    return { issTrack, state };
  }

  /**
   * The satellite the main screen follows (system state activeTrack/activePass):
   * 1. the developer override force_sat_id (overrides enabled), 2. the pinned radio session,
   * 3. among the candidates (pass filter IssOnly/Favorites, else the lite tracked set) the
   * first with a pass under way, 4. the candidate whose next pass comes first,
   * 5. the ISS, 6. the first candidate.
   * Every pass here reaches the operator's minimum elevation (pass filter min_el_deg): a graze
   * below it is listed nowhere by default, so the screen must not count down to it either.
   */
  activeTarget(now: number): { sat_id: string; pass: PassEvent | null } | null {
    const d = this.deps;
    const byId = d.catalog.current().byId;
    const filter = d.settings.passFilter.get();
    const passOf = (sat_id: string) => currentOrNextWorkablePass(d.orbit, sat_id, now, filter.min_el_deg);
    const o = d.settings.developerOverrides.get();
    const pinned = o.enabled && o.force_sat_id && byId.has(o.force_sat_id) ? o.force_sat_id : d.radio.session().selected_sat_id;
    if (pinned && byId.has(pinned)) return { sat_id: pinned, pass: passOf(pinned) };
    const candidates = (passFilterSatIds(filter, ISS_SAT_ID) ?? this.tracked().ids).filter((id) => byId.has(id));
    // One table scan for all candidates, sorted by AOS: the passes under way come first (at most
    // one per satellite), so candidates + 1 passes also hold the earliest one still to come.
    const passes = workablePasses(d.orbit, candidates, now, filter.min_el_deg, candidates.length + 1);
    for (const sat_id of candidates) {
      const underWay = passes.find((p) => p.sat_id === sat_id && p.aos_ms <= now);
      if (underWay) return { sat_id, pass: underWay };
    }
    const next = passes.find((p) => p.aos_ms > now);
    if (next) return { sat_id: next.sat_id, pass: next };
    const fallback = byId.has(ISS_SAT_ID) ? ISS_SAT_ID : candidates[0];
    return fallback ? { sat_id: fallback, pass: passOf(fallback) } : null;
  }
}
