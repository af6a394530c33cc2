import { RIGCTLD_VERSION, type FreqRange, type RigDescription } from './protocol/dump-state.js';
import type { HamlibMode, HamlibVfo } from '../ham/hamlib/vocab.js';
import { HAMLIB_MODES } from './station-modes.js';

// What \dump_state tells a client about the station's rig, by the configured model: Hamlib's own
// model numbers (3085 IC-705, 3081 IC-9700) so clients that look them up find the right rig, the
// rig's receive coverage, and as transmit ranges only the bands the station ever keys in (the
// eligibility bands): a client then refuses out-of-band transmit frequencies itself. Every range
// carries every mode the station sets, receive and transmit alike.

const range = (start_hz: number, end_hz: number, vfos: readonly HamlibVfo[], power?: [number, number]): FreqRange => ({
  start_hz,
  end_hz,
  modes: HAMLIB_MODES,
  low_power_mw: power ? power[0] : -1,
  high_power_mw: power ? power[1] : -1,
  vfos,
  ant: 1,
});

/** The width a mode's FIL1 has on both rigs (Hz): what get_mode answers as the passband. */
export function passbandOf(hamlibMode: string): number {
  switch (hamlibMode) {
    case 'FM':
    case 'PKTFM':
      return 15000;
    case 'AM':
    case 'PKTAM':
      return 9000;
    case 'CW':
    case 'CWR':
      return 1200;
    case 'RTTY':
    case 'RTTYR':
      return 2400;
    case 'D-STAR':
      return 6000;
    default:
      return 3000; // SSB and its data variants
  }
}

const FILTERS = [
  { modes: ['USB', 'LSB', 'PKTUSB', 'PKTLSB'] as HamlibMode[], width_hz: 3000 },
  { modes: ['CW', 'CWR'] as HamlibMode[], width_hz: 1200 },
  { modes: ['RTTY', 'RTTYR'] as HamlibMode[], width_hz: 2400 },
  { modes: ['AM', 'PKTAM'] as HamlibMode[], width_hz: 9000 },
  { modes: ['FM', 'PKTFM'] as HamlibMode[], width_hz: 15000 },
  { modes: ['D-STAR'] as HamlibMode[], width_hz: 6000 },
];
const STEPS = [1, 10, 100, 1000, 5000].map((step_hz) => ({ modes: HAMLIB_MODES, step_hz }));

const common = { tuning_steps: STEPS, filters: FILTERS, ptt_type: 'RIG' as const, timeout_ms: 1000, has_set_vfo: true, has_get_vfo: true, has_set_freq: true, has_get_freq: true };

const IC705_VFOS: readonly HamlibVfo[] = ['VFOA', 'VFOB'];
const IC9700_VFOS: readonly HamlibVfo[] = ['Main', 'Sub', 'VFOA', 'VFOB'];

const IC705: RigDescription = {
  model: 3085,
  rx_ranges: [range(30_000, 199_999_999, IC705_VFOS), range(400_000_000, 470_000_000, IC705_VFOS)],
  tx_ranges: [range(144_000_000, 148_000_000, IC705_VFOS, [100, 10_000]), range(420_000_000, 450_000_000, IC705_VFOS, [100, 10_000])],
  ...common,
  info: `Icom IC-705 (rigA) via satstation, ${RIGCTLD_VERSION}`,
};

const IC9700: RigDescription = {
  model: 3081,
  rx_ranges: [range(144_000_000, 148_000_000, IC9700_VFOS), range(430_000_000, 450_000_000, IC9700_VFOS), range(1_240_000_000, 1_300_000_000, IC9700_VFOS)],
  tx_ranges: [range(144_000_000, 148_000_000, IC9700_VFOS, [500, 100_000]), range(430_000_000, 450_000_000, IC9700_VFOS, [500, 75_000])],
  ...common,
  info: `Icom IC-9700 (rigB) via satstation, ${RIGCTLD_VERSION}`,
};

export const rigDescriptionOf = (model: 'rigA' | 'rigB'): RigDescription => (model === 'rigB' ? IC9700 : IC705);
