import * as v from 'valibot';
import { serialDevice, baudRate } from '../util/serial-rules.js';
import { hostName, udpPort } from '../util/net-rules.js';
import { badRequest } from '../util/errors.js';
import { choice } from '../util/choice.js';

// Rotator settings (issue 25): exactly the fields. The station owns the flat file from
// the start, so system state shows them while the rotator itself is not loaded.

export const ROTATOR_PROTOCOLS = ['gs232a', 'gs232b', 'easycomm2', 'rot2prog', 'rotctld'] as const;
/** Serial rates rotator controllers use (a SPID Rot2Prog runs at 600 baud; GS-232 and EasyComm at 9600). */
export const ROTATOR_BAUD_RATES = [600, 1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200] as const;
/** Hamlib's rotctld listens here unless told otherwise. */
export const ROTCTLD_PORT = 4533;

const degrees = (min: number, max: number) => v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max));

export const RotatorSettingsSchema = v.object({
  enabled: v.boolean(),
  protocol: choice(ROTATOR_PROTOCOLS, {
    gs232a: 'Yaesu GS-232A on serial_device',
    gs232b: 'Yaesu GS-232B on serial_device',
    easycomm2: 'EasyComm II on serial_device',
    rot2prog: 'SPID Rot2Prog on serial_device (600 baud)',
    rotctld: "Hamlib's rotator daemon over TCP at rotctld_host:rotctld_port (any rotator Hamlib knows)",
  }),
  serial_device: serialDevice(),
  baud_rate: baudRate(ROTATOR_BAUD_RATES),
  rotctld_host: hostName(),
  rotctld_port: udpPort(),
  az_min_deg: degrees(0, 360),
  /** 360, or up to 450 for an overlap rotator. */
  az_max_deg: degrees(1, 450),
  el_min_deg: degrees(0, 90),
  /** 90, or 180 for a flip-capable (over-the-top) elevation rotator. */
  el_max_deg: degrees(1, 180),
  /** Where the mechanical end stop is. */
  az_stop: choice(['north', 'south'], {
    north: 'the stop is at north: azimuth runs az_min_deg…az_max_deg from 0',
    south: 'the stop is at south: the range is centred on north',
  }),
  flip: choice(['auto', 'never'], {
    auto: 'take a pass over the top when that avoids the stop or the swing at the zenith (needs el_max_deg above 90)',
    never: 'azimuth always follows the satellite',
  }),
  deadband_deg: degrees(0.1, 20),
  lead_s: degrees(0, 10),
  update_interval_ms: v.pipe(v.number(), v.integer(), v.minValue(200), v.maxValue(10000)),
  preposition_s: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(900)),
  park_az_deg: degrees(0, 360),
  park_el_deg: degrees(0, 90),
  park_after_pass: v.boolean(),
  follow_radio_session: v.boolean(),
});
export type RotatorSettings = v.InferOutput<typeof RotatorSettingsSchema>;

export const defaultRotatorSettings = (): RotatorSettings => ({
  enabled: false,
  protocol: 'rotctld',
  serial_device: '',
  baud_rate: 9600,
  rotctld_host: '127.0.0.1',
  rotctld_port: ROTCTLD_PORT,
  az_min_deg: 0,
  az_max_deg: 360,
  el_min_deg: 0,
  el_max_deg: 90,
  az_stop: 'north',
  flip: 'auto',
  deadband_deg: 2,
  lead_s: 1,
  update_interval_ms: 1000,
  preposition_s: 120,
  park_az_deg: 0,
  park_el_deg: 0,
  park_after_pass: true,
  follow_radio_session: true,
});

/** Cross-field rules of a merged settings body: a 400 naming the field, before anything is stored. */
export function checkRotatorSettings(s: RotatorSettings): RotatorSettings {
  const span = s.az_max_deg - s.az_min_deg;
  if (span < 180 || span > 450) throw badRequest(`az_max_deg − az_min_deg must be 180…450° (is ${span}°)`, { field: 'az_max_deg' });
  if (s.el_max_deg <= s.el_min_deg) throw badRequest('el_max_deg must be above el_min_deg', { field: 'el_max_deg' });
  if (s.park_el_deg < s.el_min_deg || s.park_el_deg > s.el_max_deg) throw badRequest(`park_el_deg must be within ${s.el_min_deg}…${s.el_max_deg}°`, { field: 'park_el_deg' });
  return s;
}
