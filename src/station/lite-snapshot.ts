import { satelliteItem } from '../catalog/catalog-build.js';
import { ISS_SAT_ID, type Satellite } from '../catalog/types.js';
import type { PassEvent, PathPoint } from '../orbit/types.js';
import { iso } from '../util/clock.js';
import { aprsSummary } from '../aprs/types.js';
import { timezoneState } from './display-settings.js';
import { focusCue, focusSubject } from './lite-focus.js';
import { toLocator } from './maidenhead.js';
import { radioControlSummary } from '../radio/types.js';
import { rotatorSummary } from '../rotator/schemas.js';
import { recordingSummary } from '../recording/schemas.js';
import type { StationService } from './station-service.js';

// The lite snapshot (spec part 2 and "Lite snapshot rules"): one bounded payload for a small
// screen about one subject (focusSatId: its track, pass, cue, path and pair). Passes peaking
// below the operator's minimum elevation (pass filter `min_el_deg`) are left out. Bounds: passes of the next 24 h, at most 3 per satellite and 24 in all; the focus
// path at most 40 points; metadata lists cut to 4 entries. 8 tracked satellites stay well
// under 24 KiB (a test checks it).

export const LITE_PASS_HOURS = 24;
export const LITE_PASSES_PER_SAT = 3;
export const LITE_PASSES_MAX = 24;
export const LITE_PATH_POINTS = 40;
/** Without a focus pass, the path shows the next 90 minutes (about one LEO orbit). */
export const LITE_PATH_MINUTES = 90;
const META_LIST_MAX = 4;
/** The client warns at 12 h and treats pass times as reference after 24 h (spec part 8). */
export const STALE_WARN_H = 12;
export const REFERENCE_ONLY_H = 24;

export interface LiteRequest {
  sat_id?: string;
  location_source?: 'manual' | 'gps';
}

const r1 = (x: number) => Math.round(x * 10) / 10;

function thinPath(points: readonly PathPoint[]) {
  return points.map((p) => ({ sat_id: p.sat_id, timestamp: p.timestamp, az_deg: r1(p.az_deg), el_deg: r1(p.el_deg), range_km: r1(p.range_km), sunlit: p.sunlit }));
}

function passItem(p: PassEvent) {
  return { sat_id: p.sat_id, name: p.name, aos: p.aos, tca: p.tca, los: p.los, max_el_deg: r1(p.max_el_deg) };
}

function satMeta(s: Satellite, now: number) {
  return {
    ...satelliteItem(s),
    transponders: s.transponders.slice(0, META_LIST_MAX),
    repeaters: s.repeaters.slice(0, META_LIST_MAX),
    epoch: iso(s.epoch_ms),
    epoch_age_h: r1((now - s.epoch_ms) / 3_600_000),
  };
}

/** Passes of the tracked set, ordered by AOS, at most LITE_PASSES_PER_SAT each and LITE_PASSES_MAX in all. */
function limitPasses(all: readonly PassEvent[]): PassEvent[] {
  const perSat = new Map<string, number>();
  const out: PassEvent[] = [];
  for (const p of all) {
    const n = perSat.get(p.sat_id) ?? 0;
    if (n >= LITE_PASSES_PER_SAT) continue;
    perSat.set(p.sat_id, n + 1);
    out.push(p);
    if (out.length >= LITE_PASSES_MAX) break;
  }
  return out;
}

export function buildLiteSnapshot(station: StationService, req: LiteRequest) {
  const d = station.deps;
  const now = d.clock.now();
  const catalog = d.catalog.current();
  const tracked = station.tracked();
  const ids = tracked.ids;
  const tracks = ids.length ? d.orbit.live(now, ids) : [];
  const minEl = d.settings.passFilter.get().min_el_deg;
  const passesOf = (sat_ids: string[], limit?: number) =>
    d.orbit.passes({ from_ms: now, hours: LITE_PASS_HOURS, min_max_el_deg: minEl, sat_ids, include_ongoing: true, limit });
  const passes = ids.length ? limitPasses(passesOf(ids)) : [];
  const iss = station.iss(now);

  const { track: fTrack, pass: fPass } = focusSubject(tracks, passes, req.sat_id, iss.issTrack, now, (id) => passesOf([id], 1)[0] ?? null);
  const focusSatId = fTrack?.sat_id ?? fPass?.sat_id ?? null;
  // The path follows the focus pass (the cue is read from it); without one, the focus satellite's next orbit.
  let path: PathPoint[] = [];
  if (fPass) {
    const span_s = Math.max(1, (fPass.los_ms - fPass.aos_ms) / 1000);
    path = d.orbit.path(fPass.sat_id, fPass.aos_ms, span_s / 60, Math.max(1, Math.ceil(span_s / (LITE_PATH_POINTS - 1))));
  } else if (focusSatId) {
    path = d.orbit.path(focusSatId, now, LITE_PATH_MINUTES, Math.ceil((LITE_PATH_MINUTES * 60) / (LITE_PATH_POINTS - 1)));
  }
  if (path.length > LITE_PATH_POINTS) path = path.slice(0, LITE_PATH_POINTS);
  const cue = focusCue(fPass, path, now);
  if (cue) {
    cue.az_deg = r1(cue.az_deg); // as the drawn path shows it
    cue.el_deg = r1(cue.el_deg);
  }
  const guidanceSatId = fPass?.sat_id ?? focusSatId;
  const guidance = guidanceSatId
    ? d.guidance.embed(guidanceSatId, now, fPass) // no workable pass: the live range rate, never a graze the screen does not show
    : { frequencyRecommendation: null, frequencyMatrix: null };

  const loc = req.location_source ? d.location.resolveFor(req.location_source) : d.location.resolved();
  const active = d.location.resolved();
  const gps = d.location.gpsStatus();
  const net = d.network.state();
  const { radio, aprs, rotator, recording } = d;
  const tz = d.settings.timezone.get().display_timezone;
  const lite = d.settings.lite.get();

  let oldestEpoch = Infinity;
  const satellites = [];
  for (const id of ids) {
    const s = catalog.byId.get(id);
    if (!s) continue;
    satellites.push(satMeta(s, now));
    if (s.epoch_ms < oldestEpoch) oldestEpoch = s.epoch_ms;
  }

  return {
    timestamp: iso(now),
    generated_at: iso(now),
    trackedSatIds: ids,
    tracks,
    passes: passes.map(passItem),
    focusSatId,
    focusTrack: fTrack,
    focusPass: fPass ? passItem(fPass) : null,
    ...(cue ? { focusCue: cue } : {}),
    focusPath: thinPath(path),
    frequencyRecommendation: guidance.frequencyRecommendation,
    frequencyMatrix: guidance.frequencyMatrix,
    // Tracking runs for the station's one resolved location; a requested source that is not
    // the active one is reported, so the client can say why.
    location: { ...loc, locator: toLocator(loc.lat, loc.lon), requested_source: req.location_source ?? null, tracking_source: active.source, gps_fix_fresh: gps.fresh, gps_fix_age_s: gps.age_s },
    network: { online: net.online, offline: net.offline, reason: net.reason },
    iss: { issTrack: iss.issTrack, state: iss.state, tracked: ids.includes(ISS_SAT_ID) },
    satellites,
    radioControl: radioControlSummary(radio.settings().enabled, radio.runtime(), radio.session(), focusSatId),
    aprs: aprsSummary(aprs.settings(), aprs.runtime(), aprs.previewTarget(), station.identity(), focusSatId),
    rotator: rotatorSummary(rotator.settings().enabled, rotator.runtime(), focusSatId),
    recording: recordingSummary(recording.settings().enabled, recording.runtime()),
    timezone: timezoneState(tz, now),
    gpsSettings: d.settings.gps.get(),
    liteSettings: { tracked_sat_ids: lite.tracked_sat_ids, setup_complete: lite.setup_complete },
    freshness: {
      generated_at: iso(now),
      catalog_origin: catalog.origin,
      catalog_loaded_at: iso(catalog.loaded_at_ms),
      oldest_epoch: Number.isFinite(oldestEpoch) ? iso(oldestEpoch) : null,
      catalog_epoch_age_h: Number.isFinite(oldestEpoch) ? r1((now - oldestEpoch) / 3_600_000) : null,
      stale_warning_after_h: STALE_WARN_H,
      reference_only_after_h: REFERENCE_ONLY_H,
    },
  };
}
export type LiteSnapshot = ReturnType<typeof buildLiteSnapshot>;
