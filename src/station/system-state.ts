import { iso } from '../util/clock.js';
import { bodiesAt } from './bodies.js';
import { locatorOf } from './location-state.js';
import type { StationService } from './station-service.js';

/**
 * GET /api/v1/system/state (spec part 2 "System state"): every block, built fresh per request
 * from cached parts (live samples are cached per second by the orbit engine, passes come from
 * its tables, guidance caches phase range rates per pass).
 */
export function buildSystemState(station: StationService) {
  const d = station.deps;
  const now = d.clock.now();
  const loc = d.location.resolved();
  const issNow = station.iss(now);
  const target = station.activeTarget(now);
  const activeTrack = target ? d.orbit.sample(target.sat_id, now) : null;
  const pass = target?.pass ?? null;
  const guidance = target
    ? d.guidance.embed(target.sat_id, now, pass)
    : { frequencyRecommendation: null, frequencyMatrix: null };
  const aprsSettings = d.stores.aprs.get();
  const radio = d.radioStatus();
  const aprs = d.aprsStatus();
  const identity = station.identity();
  return {
    timestamp: iso(now),
    location: { source: loc.source, lat: loc.lat, lon: loc.lon, alt_m: loc.alt_m, locator: locatorOf(loc) },
    settings: {
      iss_display_mode: d.stores.issDisplay.get().iss_display_mode,
      display_timezone: d.stores.timezone.get().display_timezone,
      pass_profile: d.stores.passFilter.get().pass_profile,
    },
    iss: issNow.state,
    activeTrack,
    activePass: pass ? { sat_id: pass.sat_id, aos: pass.aos, tca: pass.tca, los: pass.los, max_el_deg: pass.max_el_deg } : null,
    frequencyRecommendation: guidance.frequencyRecommendation,
    frequencyMatrix: guidance.frequencyMatrix,
    radioSettings: d.stores.radio.publicView(),
    radioRuntime: radio.runtime(),
    radioControlSession: radio.session(),
    aprsSettings: d.stores.aprs.publicView(),
    aprsRuntime: aprs.runtime(aprsSettings),
    aprsPreviewTarget: aprs.previewTarget(aprsSettings),
    rotatorSettings: d.stores.rotator.get(),
    rotatorRuntime: d.rotatorRuntime(),
    hamlibSettings: d.stores.hamlib.get(),
    hamlibRuntime: d.hamlibRuntime(),
    stationIdentity: { valid: identity.valid, callsign: identity.callsign, ...(identity.reason ? { reason: identity.reason } : {}) },
    bodies: bodiesAt(now, loc.lat, loc.lon, loc.alt_m),
  };
}
export type SystemState = ReturnType<typeof buildSystemState>;
