import { modeMask, PttType, vfoMask, type HamlibMode, type HamlibVfo, type PttTypeName } from '../../ham/hamlib/vocab.js';

// \dump_state, the capabilities a Hamlib network client loads when it opens (netrigctl_open
// and netrotctl_open in Hamlib 4.5 read it line by line, and fail the open on a short or
// malformed line: the reason clients rejected several emulations).
//
// rigctld, fixed part (both protocol versions): protocol version; rig model; ITU region (0);
// the receive ranges "start end modes low_mW high_mW vfos ant" ended by "0 0 0 0 0 0 0"; the
// transmit ranges likewise; tuning steps "modes step" ended by "0 0"; filters likewise; max RIT,
// max XIT, max IF shift, announces; preamps and attenuators as dB lists; has_get_func,
// has_set_func, has_get_level, has_set_level, has_get_parm, has_set_parm as hex masks.
// Protocol 1 then adds "key=value" lines up to "done" (the PTT type, what the rig can set and
// get...). Hamlib's client stops after the fixed part for protocol 0 and reads to "done" for 1.

export interface FreqRange {
  start_hz: number;
  end_hz: number;
  modes: readonly HamlibMode[];
  /** Power limits in mW; -1 for a receive range (Hamlib's convention). */
  low_power_mw: number;
  high_power_mw: number;
  vfos: readonly HamlibVfo[];
  /** Antenna bitmask (RIG_ANT_1 = 1). */
  ant: number;
}

export interface RigDescription {
  /** The Hamlib model number reported to clients (3085 is Hamlib's IC-705). */
  model: number;
  rx_ranges: readonly FreqRange[];
  tx_ranges: readonly FreqRange[];
  tuning_steps: readonly { modes: readonly HamlibMode[]; step_hz: number }[];
  filters: readonly { modes: readonly HamlibMode[]; width_hz: number }[];
  ptt_type: PttTypeName;
  /** A hint to clients how long to wait for an answer: the rig's timeout (Hamlib adds 500 ms). */
  timeout_ms: number;
  has_set_vfo: boolean;
  has_get_vfo: boolean;
  has_set_freq: boolean;
  has_get_freq: boolean;
  /** The line \get_info and \dump_caps answer (model and who serves it). */
  info: string;
}

export type DumpStateVersion = 0 | 1;

/** What a protocol 1 dump names as the daemon's version. */
export const RIGCTLD_VERSION = 'Hamlib 4.5.4 satstation';

const freqText = (hz: number) => `${Math.round(hz)}.000000`; // Hamlib prints frequencies as "%lf"
const hex = (n: bigint | number) => `0x${n.toString(16)}`;

function rangeLines(ranges: readonly FreqRange[]): string {
  let out = '';
  for (const r of ranges) {
    out += `${freqText(r.start_hz)} ${freqText(r.end_hz)} ${hex(modeMask(r.modes))} ${Math.round(r.low_power_mw)} ${Math.round(r.high_power_mw)} ${hex(vfoMask(r.vfos))} ${hex(r.ant)}\n`;
  }
  return `${out}0 0 0 0 0 0 0\n`;
}

function pairLines(rows: readonly { modes: readonly HamlibMode[]; value: number }[]): string {
  return `${rows.map((r) => `${hex(modeMask(r.modes))} ${Math.round(r.value)}\n`).join('')}0 0\n`;
}

export function rigDumpState(d: RigDescription, version: DumpStateVersion): string {
  let out = `${version}\n${d.model}\n0\n`;
  out += rangeLines(d.rx_ranges);
  out += rangeLines(d.tx_ranges);
  out += pairLines(d.tuning_steps.map((t) => ({ modes: t.modes, value: t.step_hz })));
  out += pairLines(d.filters.map((f) => ({ modes: f.modes, value: f.width_hz })));
  // No RIT, XIT, IF shift, announces, preamps or attenuators through the network, and no funcs,
  // levels or parms: a client must not offer controls the station does not pass on.
  out += '0\n0\n0\n0\n\n\n0x0\n0x0\n0x0\n0x0\n0x0\n0x0\n';
  if (version === 0) return out;
  const b = (x: boolean) => (x ? 1 : 0);
  const v1: [string, string | number][] = [
    ['vfo_ops', '0x0'],
    ['ptt_type', hex(PttType[d.ptt_type])],
    ['targetable_vfo', '0x0'],
    ['has_set_vfo', b(d.has_set_vfo)],
    ['has_get_vfo', b(d.has_get_vfo)],
    ['has_set_freq', b(d.has_set_freq)],
    ['has_get_freq', b(d.has_get_freq)],
    ['has_set_conf', 0],
    ['has_get_conf', 0],
    ['has_power2mW', 0],
    ['has_mW2power', 0],
    ['timeout', Math.round(d.timeout_ms)],
    ['rig_model', d.model],
    ['rigctld_version', RIGCTLD_VERSION],
    ['agc_levels', ''],
  ];
  return `${out}${v1.map(([k, v]) => `${k}=${v}\n`).join('')}done\n`;
}

/** A short \dump_caps: Hamlib prints pages of capabilities; clients only show it, none parses it. */
export function rigDumpCaps(d: RigDescription): string {
  return `Caps dump for model: ${d.model}\nModel name:\t${d.info}\nMfg name:\tsatstation\nBackend version:\t${RIGCTLD_VERSION}\nRig type:\tTransceiver\nPTT type:\t${d.ptt_type === 'NONE' ? 'None' : 'Rig capable'}\n`;
}

/** A rotator's limits as rotctld's \dump_state announces them. */
export interface DumpStateLimits {
  min_az_deg: number;
  max_az_deg: number;
  min_el_deg: number;
  max_el_deg: number;
  /** Azimuth 0 points south (a rotator that counts from south). */
  south_zero: boolean;
}

/**
 * rotctld's dump (protocol 1): version, model, then the limits as "key=value" lines up to
 * "done", which Hamlib's netrotctl adopts as its own limits. Under an extended prefix rotctld
 * prints labels instead of keys and separates with the prefix char (rotctl_parse.c dump_state).
 */
export function rotDumpState(model: number, l: DumpStateLimits, ext: { sep: string } | null): string {
  const sep = ext?.sep ?? '\n';
  const deg = (x: number) => x.toFixed(6); // "%lf"
  const rows: [key: string, label: string, value: string | number][] = [
    ['', 'rotctld Protocol Ver: ', 1],
    ['', 'Rotor Model: ', model],
    ['min_az=', 'Minimum Azimuth: ', deg(l.min_az_deg)],
    ['max_az=', 'Maximum Azimuth: ', deg(l.max_az_deg)],
    ['min_el=', 'Minimum Elevation: ', deg(l.min_el_deg)],
    ['max_el=', 'Maximum Elevation: ', deg(l.max_el_deg)],
    ['south_zero=', 'South Zero: ', l.south_zero ? 1 : 0],
  ];
  const lines = rows.map(([key, label, value]) => `${ext ? label : key}${value}${sep}`).join('');
  return `${lines}rot_type=AzEl${sep}done${sep}`;
}
