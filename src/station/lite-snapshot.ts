import { ISS_SAT_ID } from '../catalog/types.js';
import { iso } from '../util/clock.js';
import { aprsSummary } from '../aprs/types.js';
import { timezoneState } from './display-settings.js';
import { focusCue, focusSubject } from './lite-focus.js';
import { toLocator } from './maidenhead.js';
import { radioControlSummary } from '../radio/types.js';
import { rotatorSummary } from '../rotator/schemas.js';
import { recordingSummary } from '../recording/schemas.js';
import type { StationService } from './station-service.js';
import { LiteBase, passItem, type LiteBaseMemo } from './lite-base.js';

// The lite snapshot (spec part 2 and "Lite snapshot rules"): one bounded payload for a small
// screen about one subject (focusSatId: its track, pass, cue, path and pair). Passes peaking
// below the operator's minimum elevation (pass filter `min_el_deg`) are left out. Bounds: passes of the next 24 h, at most 3 per satellite and 24 in all; the focus
// path at most 40 points; metadata lists cut to 4 entries. 8 tracked satellites stay well
// under 24 KiB (a test checks it).

export { LITE_PASS_HOURS, LITE_PATH_POINTS } from './lite-base.js';
/** The client warns at 12 h and treats pass times as reference after 24 h (spec part 8). */
export const STALE_WARN_H = 12;
export const REFERENCE_ONLY_H = 24;

export interface LiteRequest {
  sat_id?: string;
  location_source?: 'manual' | 'gps';
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/**
 * One snapshot at the clock's now. `memo` shares the tracked set's part and the focus parts with
 * the other snapshots of the same second (LiteService's misses); without it all is built here.
 */
export function buildLiteSnapshot(station: StationService, req: LiteRequest, memo: LiteBaseMemo | null = null) {
  const d = station.deps;
  const now = d.clock.now();
  const catalog = d.catalog.current();
  const base = memo ? memo.get(now) : new LiteBase(station, now);
  const { ids, tracks, passes } = base;
  const iss = station.iss(now);

  const { track: fTrack, pass: fPass } = focusSubject(tracks, passes, req.sat_id, iss.issTrack, now, (id) => base.passesOf([id], 1, now)[0] ?? null);
  const focusSatId = fTrack?.sat_id ?? fPass?.sat_id ?? null;
  const focus = focusSatId ? base.focus(focusSatId, fPass, now) : null;
  const cue = focusCue(fPass, focus?.path ?? [], now);
  if (cue) {
    cue.az_deg = r1(cue.az_deg); // as the drawn path shows it
    cue.el_deg = r1(cue.el_deg);
  }
  const guidance = focus?.guidance ?? { frequencyRecommendation: null, frequencyMatrix: null };

  const loc = req.location_source ? d.location.resolveFor(req.location_source) : d.location.resolved();
  const active = d.location.resolved();
  const gps = d.location.gpsStatus();
  const net = d.network.state();
  const { radio, aprs, rotator, recording } = d;
  const tz = d.settings.timezone.get().display_timezone;
  const lite = d.settings.lite.get();

  const oldestEpoch = base.oldestEpoch;

  return {
    timestamp: iso(now),
    generated_at: iso(now),
    trackedSatIds: ids,
    tracks,
    passes: base.passItems,
    focusSatId,
    focusTrack: fTrack,
    focusPass: fPass ? passItem(fPass) : null,
    ...(cue ? { focusCue: cue } : {}),
    focusPath: focus?.focusPath ?? [],
    frequencyRecommendation: guidance.frequencyRecommendation,
    frequencyMatrix: guidance.frequencyMatrix,
    // Tracking runs for the station's one resolved location; a requested source that is not
    // the active one is reported, so the client can say why.
    location: { ...loc, locator: toLocator(loc.lat, loc.lon), requested_source: req.location_source ?? null, tracking_source: active.source, gps_fix_fresh: gps.fresh, gps_fix_age_s: gps.age_s },
    network: { online: net.online, offline: net.offline, reason: net.reason },
    iss: { issTrack: iss.issTrack, state: iss.state, tracked: ids.includes(ISS_SAT_ID) },
    satellites: base.satellites,
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
