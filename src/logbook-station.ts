// The logbook's view of the station, composed here from the areas that know it, so the logbook
// imports none of them: the APRS identity, the resolved location's locator, the radio session's
// pass and the lite focus's pass under way, the catalog's names, the frequency guide and the
// rig's targets (VFO A receives, VFO B transmits on both supported rigs).
import type { StationReader } from './logbook/logbook-service.js';
import type { QsoRecord } from './logbook/schemas.js';
import type { PassWindow } from './logbook/qso-fill.js';
import { focusPass } from './station/lite-focus.js';
import { toLocator } from './station/maidenhead.js';
import type { SettingsReader } from './station/station-deps.js';
import type { PassFilter } from './station/pass-filter.js';
import type { RadioStatusSource } from './radio/types.js';
import type { CatalogProvider } from './catalog/types.js';
import type { OrbitService } from './orbit/types.js';
import type { GuidanceService } from './guidance/guidance-service.js';

/** The lite focus only needs the pass under way, so a short look back and ahead is enough. */
const FOCUS_PASS_HOURS = 1;

/** What the logbook's view reads of each area, and no more. */
export interface LogbookStationParts {
  /** The APRS side's station identity. */
  aprs: { identity(): { valid: boolean; callsign: string } };
  location: { resolved(): { lat: number; lon: number } };
  radio: RadioStatusSource;
  liteSettings: { tracked(): { ids: string[] } };
  orbit: Pick<OrbitService, 'passes'>;
  /** The operator's minimum elevation: the focus pass is one the screens list. */
  passFilter: SettingsReader<Pick<PassFilter, 'min_el_deg'>>;
  catalog: CatalogProvider;
  guidance: Pick<GuidanceService, 'recommend'>;
  /** The pass recorder: the recording under way at a QSO's time, and told of each QSO logged. */
  recording: { mark(at_ms: number): { recording_id: string; recording_offset_s: number } | null; noteQso(q: QsoRecord): void };
}

export function logbookStation(s: LogbookStationParts): StationReader {
  return {
    identityCallsign() {
      const id = s.aprs.identity();
      return id.valid ? id.callsign.replace(/-\d+$/, '') : null;
    },
    gridsquare() {
      const loc = s.location.resolved();
      return toLocator(loc.lat, loc.lon, 6);
    },
    passes(now_ms) {
      const se = s.radio.session();
      const session: PassWindow | null =
        se.selected_sat_id && se.pass_aos && se.pass_los ? { sat_id: se.selected_sat_id, aos_ms: Date.parse(se.pass_aos), los_ms: Date.parse(se.pass_los) } : null;
      const ids = s.liteSettings.tracked().ids;
      const list = ids.length
        ? s.orbit.passes({ from_ms: now_ms, hours: FOCUS_PASS_HOURS, min_max_el_deg: s.passFilter.get().min_el_deg, sat_ids: ids, include_ongoing: true })
        : [];
      const p = focusPass(list, undefined, now_ms);
      return { session, focus: p ? { sat_id: p.sat_id, aos_ms: p.aos_ms, los_ms: p.los_ms } : null };
    },
    satellite(sat_id) {
      const sat = s.catalog.current().byId.get(sat_id);
      return sat ? { sat_id, norad_id: sat.norad_id, names: [sat.name, sat_id] } : null;
    },
    recommend(sat_id, now_ms) {
      return s.guidance.recommend(sat_id, now_ms)?.recommendation ?? null;
    },
    recording: (at_ms) => s.recording.mark(at_ms),
    logged: (q) => s.recording.noteQso(q),
    rig() {
      const r = s.radio.runtime();
      return {
        connected: r.connected,
        active_sat_id: r.active_sat_id,
        rx_hz: r.targets.vfo_a_freq_hz,
        tx_hz: r.targets.vfo_b_freq_hz,
        rx_mode: r.targets.vfo_a_mode,
        tx_mode: r.targets.vfo_b_mode,
        split: r.raw_state.split_enabled,
      };
    },
  };
}
