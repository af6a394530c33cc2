import type { AprsSettings } from '../settings.js';
import type { AprsTarget } from '../types.js';
import type { FrequencyProfile, FrequencyRecommendation } from '../../guidance/schemas.js';
import type { PassEvent } from '../../orbit/types.js';
import { APRS_SATELLITE_CHANNELS, APRS_STEP_HZ, type AprsChannel } from './satellite-channels.js';
import { aprsRegionFor } from './regional-frequency.js';
import { transmitGate } from './tx-gate.js';

// APRS targets resolved against the station's location, the pass window and the shared Doppler
// model. The resolver reads the world through plain functions, so it is tested without servers.

export interface TargetWorld {
  now_ms: number;
  location: { lat: number; lon: number };
  identity: { valid: boolean; reason?: string };
  emergency_stopped: boolean;
  /** The catalog's satellite for a NORAD id, or null when it is not in the catalog. */
  satellite(norad_id: number): { sat_id: string; name: string } | null;
  /** The current or next pass (null: none in the pass horizon). */
  pass(sat_id: string, now_ms: number): PassEvent | null;
  /** The shared guidance model for an ad-hoc profile. */
  recommend(profile: FrequencyProfile, now_ms: number, pass: PassEvent | null): FrequencyRecommendation | null;
  /** True while the rig follows this target's corrected frequencies. */
  retuning(sat_id: string, channel_id: string): boolean;
}

/** The satellite channels whose satellite is in the current catalog. */
export function availableChannels(w: Pick<TargetWorld, 'satellite'>): { channel: AprsChannel; sat_id: string; sat_name: string }[] {
  const out = [];
  for (const channel of APRS_SATELLITE_CHANNELS) {
    const sat = w.satellite(channel.norad_id);
    if (sat) out.push({ channel, sat_id: sat.sat_id, sat_name: sat.name });
  }
  return out;
}

export function findChannel(w: Pick<TargetWorld, 'satellite'>, sat_id: string | null, channel_id: string | null) {
  if (!sat_id) return null;
  const list = availableChannels(w).filter((c) => c.sat_id === sat_id);
  return (channel_id ? list.find((c) => c.channel.channel_id === channel_id) : list[0]) ?? null;
}

function gated(t: Omit<AprsTarget, 'can_transmit' | 'tx_block_reason'>, s: AprsSettings, w: TargetWorld, problem: string | null): AprsTarget {
  const tx_hz = t.requires_pass ? t.corrected_uplink_hz : t.corrected_frequency_hz;
  const g = transmitGate({
    emergency_stopped: w.emergency_stopped,
    identity: w.identity,
    listen_only: s.listen_only,
    target_problem: problem,
    requires_pass: t.requires_pass,
    pass_active: t.pass_active,
    pass_aos: t.pass_aos,
    tx_hz,
  });
  return { ...t, ...g };
}

export function terrestrialTarget(s: AprsSettings, w: TargetWorld): AprsTarget {
  const region = aprsRegionFor(w.location.lat, w.location.lon);
  const manual = s.terrestrial_manual_frequency_hz;
  const hz = manual ?? region.frequency_hz;
  return gated(
    {
      operating_mode: 'terrestrial',
      label: manual === null ? `Terrestrial APRS ${(hz / 1e6).toFixed(3)} MHz (${region.label})` : `Terrestrial APRS ${(hz / 1e6).toFixed(3)} MHz (manual)`,
      sat_id: null,
      sat_name: null,
      channel_id: null,
      channel_label: null,
      frequency_hz: hz,
      uplink_hz: hz,
      downlink_hz: hz,
      path_default: region.path,
      region_label: region.label,
      guidance: null,
      requires_pass: false,
      pass_active: false,
      pass_aos: null,
      pass_los: null,
      corrected_frequency_hz: hz,
      corrected_uplink_hz: hz,
      corrected_downlink_hz: hz,
      correction_side: null,
      active_phase: null,
      retune_active: false,
      reason: manual === null ? `regional default for ${region.label}` : 'manual frequency from settings',
    },
    s,
    w,
    null,
  );
}

export function channelProfile(c: AprsChannel, sat_id: string, sat_name: string): FrequencyProfile {
  return {
    norad_id: c.norad_id,
    sat_id,
    name: sat_name,
    mode: 'fm',
    correction_side: 'uhf_only',
    columns: [{ uplink_hz: c.uplink_hz, downlink_hz: c.downlink_hz, label: 'APRS' }],
    uplink_step_hz: APRS_STEP_HZ,
    downlink_step_hz: APRS_STEP_HZ,
    uplink_mode: 'FM',
    downlink_mode: 'FM',
  };
}

export function satelliteTarget(s: AprsSettings, w: TargetWorld, sat_id: string | null, channel_id: string | null): AprsTarget {
  const found = findChannel(w, sat_id, channel_id);
  const base = {
    operating_mode: 'satellite' as const,
    region_label: null,
    requires_pass: true,
    retune_active: false,
  };
  if (!found) {
    const problem = !sat_id
      ? 'no satellite channel selected'
      : `no usable APRS channel: ${sat_id}${channel_id ? ` channel ${channel_id}` : ''} is not an APRS satellite in the catalog`;
    return gated(
      {
        ...base,
        label: 'Satellite APRS (no usable channel)',
        sat_id,
        sat_name: null,
        channel_id,
        channel_label: null,
        frequency_hz: null,
        uplink_hz: null,
        downlink_hz: null,
        path_default: s.satellite_path,
        guidance: null,
        pass_active: false,
        pass_aos: null,
        pass_los: null,
        corrected_frequency_hz: null,
        corrected_uplink_hz: null,
        corrected_downlink_hz: null,
        correction_side: null,
        active_phase: null,
        reason: problem,
      },
      s,
      w,
      problem,
    );
  }
  const { channel: c, sat_name } = found;
  const pass = w.pass(found.sat_id, w.now_ms);
  const pass_active = pass !== null && w.now_ms >= pass.aos_ms && w.now_ms < pass.los_ms;
  const rec = w.recommend(channelProfile(c, found.sat_id, sat_name), w.now_ms, pass);
  const up = rec?.uplink_hz ?? c.uplink_hz;
  const down = rec?.downlink_hz ?? c.downlink_hz;
  return gated(
    {
      ...base,
      label: `${sat_name}: ${c.channel_label}`,
      sat_id: found.sat_id,
      sat_name,
      channel_id: c.channel_id,
      channel_label: c.channel_label,
      frequency_hz: c.uplink_hz,
      uplink_hz: c.uplink_hz,
      downlink_hz: c.downlink_hz,
      path_default: c.path_default,
      guidance: rec,
      pass_active,
      pass_aos: pass?.aos ?? null,
      pass_los: pass?.los ?? null,
      corrected_frequency_hz: up,
      corrected_uplink_hz: up,
      corrected_downlink_hz: down,
      correction_side: rec?.correction_side ?? null,
      active_phase: rec?.phase ?? null,
      retune_active: pass_active && w.retuning(found.sat_id, c.channel_id),
      reason: pass ? (pass_active ? `pass under way until LOS ${pass.los}` : `next pass AOS ${pass.aos}`) : 'no pass in the prediction horizon',
    },
    s,
    w,
    null,
  );
}

/** The target the settings select now. */
export function selectedTarget(s: AprsSettings, w: TargetWorld): AprsTarget {
  return s.operating_mode === 'satellite' ? satelliteTarget(s, w, s.selected_satellite_id, s.selected_channel_id) : terrestrialTarget(s, w);
}

/** Every target the operator can pick: the terrestrial one, then each satellite channel. */
export function allTargets(s: AprsSettings, w: TargetWorld): AprsTarget[] {
  return [terrestrialTarget(s, w), ...availableChannels(w).map((c) => satelliteTarget(s, w, c.sat_id, c.channel.channel_id))];
}

/** The path a transmission on this target uses: the operator's, else the target's default. */
export function txPath(s: AprsSettings, t: AprsTarget): string {
  if (t.operating_mode === 'terrestrial') return s.terrestrial_path;
  return s.satellite_path || t.path_default;
}
