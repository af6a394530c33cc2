// The recorder's view of the station, composed here from the areas that know it, so the recorder
// imports none of them but the radio's API: which satellite the radio follows (the session while
// it is armed or active, else auto-track), where it is, the rig's and the rotator's readings,
// the APRS packets heard, where the radio's Wi-Fi is and which sound card Dire Wolf holds.
import type { RecordingStation } from './recording/recording-service.js';
import type { LanLeaser, WifiRigSettings } from './radio/radio-api.js';
import type { RadioSettings } from './radio/settings.js';
import type { RadioStatusSource } from './radio/types.js';
import type { CatalogProvider } from './catalog/types.js';
import { plainElements } from './catalog/element-table.js';
import type { OrbitService } from './orbit/types.js';
import type { LocationProvider } from './orbit/location-types.js';
import type { AprsLogEntry } from './aprs/log/log-entry.js';
import { toLocator } from './station/maidenhead.js';

/** What the recorder's view reads of each area, and no more. */
export interface RecordingStationParts {
  radio: RadioStatusSource & { readonly loaded: boolean; settings(): RadioSettings };
  rotator: { runtime(): { connected: boolean; az_deg: number | null; el_deg: number | null } };
  aprs: {
    onPacket(fn: (e: AprsLogEntry) => void): () => void;
    runtime(): { sidecar_running: boolean; transport_mode: string };
    settings(): { audio_input_device: string };
  };
  orbit: Pick<OrbitService, 'sample' | 'currentOrNextPass'>;
  catalog: CatalogProvider;
  location: Pick<LocationProvider, 'resolved'>;
  lan: LanLeaser;
  env?: NodeJS.ProcessEnv;
  paceClock?: () => number;
}

/** Session states in which the radio follows (or has just followed) its satellite's pass. */
const FOLLOWING = new Set(['armed', 'active', 'completed']);

export function recordingStation(s: RecordingStationParts): RecordingStation {
  return {
    followed(at_ms, margin_ms) {
      if (!s.radio.loaded) return null;
      const se = s.radio.session();
      // The session follows one pass: not an earlier pass of the same satellite while it is armed,
      // and its tail after LOS still counts once the session has completed.
      if (se.selected_sat_id && se.pass_aos && se.pass_los && FOLLOWING.has(se.screen_state)) {
        if (at_ms >= Date.parse(se.pass_aos) - margin_ms && at_ms <= Date.parse(se.pass_los) + margin_ms) return se.selected_sat_id;
        if (se.screen_state !== 'completed') return null; // armed for a later pass: that one is the operator's
      }
      const rt = s.radio.runtime();
      return rt.control_mode === 'auto_tracking' ? rt.active_sat_id : null;
    },
    look(sat_id, at_ms) {
      const x = s.orbit.sample(sat_id, at_ms);
      return x && { az_deg: x.az_deg, el_deg: x.el_deg, range_rate_km_s: x.range_rate_km_s };
    },
    pass(sat_id, at_ms) {
      const p = s.orbit.currentOrNextPass(sat_id, at_ms);
      return p && { aos: p.aos, tca: p.tca, los: p.los, max_el_deg: p.max_el_deg };
    },
    satellite(sat_id) {
      const sat = s.catalog.current().byId.get(sat_id);
      return sat ? { name: sat.name, elements: plainElements(sat.elements) as unknown as Record<string, unknown> } : null;
    },
    location() {
      const l = s.location.resolved();
      return { lat_deg: l.lat, lon_deg: l.lon, alt_m: l.alt_m, grid: toLocator(l.lat, l.lon, 6) };
    },
    rig() {
      if (!s.radio.loaded) return { rx_hz: null, tx_hz: null };
      const legs = s.radio.runtime().legs;
      return { rx_hz: legs.downlink.connected ? legs.downlink.freq_hz : null, tx_hz: legs.uplink?.connected ? legs.uplink.freq_hz : null };
    },
    rotator() {
      const r = s.rotator.runtime();
      return r.connected ? { az_deg: r.az_deg, el_deg: r.el_deg } : { az_deg: null, el_deg: null };
    },
    onAprsPacket: (fn) => s.aprs.onPacket(fn),
    radioOnWifi(): WifiRigSettings | null {
      const r = s.radio.settings();
      return r.transport === 'wifi' ? { wifi_host: r.wifi_host, wifi_control_port: r.wifi_control_port, wifi_username: r.wifi_username, wifi_password: r.wifi_password, civ_address: r.civ_address } : null;
    },
    lan: s.lan,
    tncAudioDevice() {
      const rt = s.aprs.runtime();
      return rt.sidecar_running && rt.transport_mode === 'usb' ? s.aprs.settings().audio_input_device || 'default' : null;
    },
    env: s.env,
    paceClock: s.paceClock,
  };
}
