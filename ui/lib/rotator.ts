import type { RotatorPlanView, RotatorRuntime } from '../../src/rotator/schemas';
import type { RotatorSettings } from '../../src/rotator/settings';
import type { AzEl } from '../components/SkyPlot';

// What the pages make of the rotator's answers, without I/O. The API speaks controller
// coordinates (north stop 0…az_max up to 450; south stop centred on north, −180…180; elevation
// above 90 = over the top); the sky plots and the operator read compass directions.

export type { RotatorPlanView, RotatorRuntime, RotatorSettings };

export interface RotatorState {
  settings: RotatorSettings;
  runtime: RotatorRuntime;
  plan: RotatorPlanView | null;
}

/** The lite snapshot's rotator block (src/rotator/schemas.ts RotatorSummarySchema). */
export interface RotatorSummary {
  enabled: boolean;
  connected: boolean;
  control_mode: string;
  az_deg: number | null;
  el_deg: number | null;
  target_az_deg: number | null;
  target_el_deg: number | null;
  moving: boolean;
  active_sat_id: string | null;
  focused: boolean;
  last_error: string | null;
}

const mod360 = (x: number) => ((x % 360) + 360) % 360;

/**
 * Where on the sky a controller position points: azimuth mod 360; over the top (elevation above
 * 90) the dish looks at the opposite azimuth at 180 − el. Null when the position is unknown.
 */
export function skyPointing(az_deg: number | null, el_deg: number | null): AzEl | null {
  if (az_deg == null || el_deg == null) return null;
  if (el_deg > 90) return { az_deg: mod360(az_deg + 180), el_deg: 180 - el_deg };
  return { az_deg: mod360(az_deg), el_deg };
}

/** The antenna and its target on a sky plot: only while a controller answers (an old reading would mislead). */
export function antennaMarks(r: Pick<RotatorSummary, 'connected' | 'az_deg' | 'el_deg' | 'target_az_deg' | 'target_el_deg'> | null | undefined): {
  antenna: AzEl | null;
  target: AzEl | null;
} {
  if (!r?.connected) return { antenna: null, target: null };
  return { antenna: skyPointing(r.az_deg, r.el_deg), target: skyPointing(r.target_az_deg, r.target_el_deg) };
}

const d1 = (x: number | null) => (x == null ? '—' : `${x.toFixed(0).replace('-', '−')}°`);

/** The /lite one-liner: null while the rotator is disabled (no line at all: the footer is small). */
export function rotatorLine(r: RotatorSummary | null | undefined): { text: string; tone: 'ok' | 'warn' | 'bad' | 'idle'; short: string } | null {
  if (!r?.enabled) return null;
  if (r.last_error) return { text: `rotator: ${r.last_error}`, tone: 'bad', short: 'rotator error' };
  if (!r.connected) return { text: 'rotator: not connected', tone: 'idle', short: 'no rotator' };
  const at = `${d1(r.az_deg)}/${d1(r.el_deg)}`;
  const mode = r.control_mode === 'tracking' && r.active_sat_id ? `tracking ${r.active_sat_id}${r.focused ? '' : ' (not this one)'}` : r.control_mode;
  const to = r.moving && r.target_az_deg != null ? ` → ${d1(r.target_az_deg)}/${d1(r.target_el_deg)}` : '';
  return { text: `rotator: ${at}${to} · ${mode}`, tone: r.control_mode === 'stopped' ? 'warn' : 'ok', short: `rot ${at}` };
}

/** The serial protocols (every one but rotctld, which is a TCP client). */
export const SERIAL_PROTOCOLS = ['gs232a', 'gs232b', 'easycomm2', 'rot2prog'] as const;
