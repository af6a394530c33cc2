import type { LiteSnapshot } from '../../../src/station/lite-snapshot';
import type { DeveloperOverrides } from '../../../src/station/developer-overrides';
import type { Recommendation } from '../Tune';
import type { SystemState } from '../useStationState';
import type { PathSample } from '../../lib/pass';

// The answers the kiosk reads, as far as it reads them.

export type { LiteSnapshot, DeveloperOverrides };

export interface PassItem {
  sat_id: string;
  name: string;
  aos: string;
  los: string;
  max_el_deg: number;
  frequencyRecommendation?: Recommendation | null;
}

export interface PassesAnswer {
  items: PassItem[];
}

export interface Sample {
  sat_id: string;
  name?: string;
  az_deg: number;
  el_deg: number;
  range_km: number;
}

export interface KioskSystemState extends SystemState {
  activeTrack: Sample | null;
  activePass: (Omit<PassItem, 'name'> & { name?: string }) | null;
  frequencyRecommendation: Recommendation | null;
  radioControlSession: SystemState['radioControlSession'] & {
    sat_name: string | null;
    pass_aos: string | null;
    pass_los: string | null;
    max_el_deg: number | null;
  };
  radioRuntime: SystemState['radioRuntime'] & {
    targets?: { vfo_a_freq_hz: number | null; vfo_b_freq_hz: number | null; vfo_a_mode: string | null; vfo_b_mode: string | null };
  };
}

/** A point of /api/v1/track/path; lat/lon/alt arrive with the ground-track work. */
export interface TrackPoint extends PathSample {
  t_ms: number;
  lat_deg?: number;
  lon_deg?: number;
  alt_km?: number;
}
