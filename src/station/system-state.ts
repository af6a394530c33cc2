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
  const { radio, aprs, rotator, hamlib, recording } = d;
  const identity = station.identity();
  return {
    timestamp: iso(now),
    location: { source: loc.source, lat: loc.lat, lon: loc.lon, alt_m: loc.alt_m, locator: locatorOf(loc) },
    settings: {
      iss_display_mode: d.settings.issDisplay.get().iss_display_mode,
      display_timezone: d.settings.timezone.get().display_timezone,
      pass_profile: d.settings.passFilter.get().pass_profile,
    },
    iss: issNow.state,
    activeTrack,
    activePass: pass ? { sat_id: pass.sat_id, aos: pass.aos, tca: pass.tca, los: pass.los, max_el_deg: pass.max_el_deg } : null,
    frequencyRecommendation: guidance.frequencyRecommendation,
    frequencyMatrix: guidance.frequencyMatrix,
    radioSettings: radio.publicSettings(),
    radioRuntime: radio.runtime(),
    radioControlSession: radio.session(),
    aprsSettings: aprs.publicSettings(),
    aprsRuntime: aprs.runtime(),
    aprsPreviewTarget: aprs.previewTarget(),
    rotatorSettings: rotator.settings(),
    rotatorRuntime: rotator.runtime(),
    hamlibSettings: hamlib.settings(),
    hamlibRuntime: hamlib.runtime(),
    recordingSettings: recording.settings(),
    recordingRuntime: recording.runtime(),
    stationIdentity: { valid: identity.valid, callsign: identity.callsign, ...(identity.reason ? { reason: identity.reason } : {}) },
    bodies: bodiesAt(now, loc.lat, loc.lon, loc.alt_m),
  };
}
export type SystemState = ReturnType<typeof buildSystemState>;
