import { restingLeg, shortRigName, type Leg, type RuntimeCapabilities } from './types.js';
import type { RadioSettings, RigLink, RigModel } from './settings.js';

// What each rig model can do, as the runtime shows it. Plain data, apart from the drivers: the
// station shows the configured model's capabilities before radio control is ever loaded.

export const IC705_CAPABILITIES: RuntimeCapabilities = {
  model: 'rigA',
  radio: 'Icom IC-705',
  validated: true,
  validation_note: 'live-validated: connect, poll, direct frequency write, manual pair',
  split: true,
  scope: true,
  tone: true,
  snapshot: true,
  transceive_follow: true,
  target_mapping: { tx: 'VFO B (transmit, split)', rx: 'VFO A (receive, selected)' },
};

export const IC9700_CAPABILITIES: RuntimeCapabilities = {
  model: 'rigB',
  radio: 'Icom IC-9700',
  validated: false,
  validation_note: 'controller and settings scaffolding: not validated against a radio as rigA is',
  split: false,
  scope: true,
  tone: true,
  snapshot: true,
  transceive_follow: false,
  target_mapping: { tx: 'SUB band (VFO B, satellite uplink)', rx: 'MAIN band (VFO A, satellite downlink)' },
};

const YAESU_NAMES = { ft817: 'FT-817', ft818: 'FT-818', ft857: 'FT-857', ft897: 'FT-897' } as const;

/** The FT-817/818/857/897: split between the two VFOs, the one the radio rests on receiving. */
export const yaesuCapabilities = (model: keyof typeof YAESU_NAMES): RuntimeCapabilities => ({
  model,
  radio: `Yaesu ${YAESU_NAMES[model]}`,
  validated: false,
  validation_note: "5-byte CAT checked against Hamlib's own rigctl and a simulator: not yet validated on a radio",
  split: true,
  scope: false,
  tone: true,
  snapshot: true,
  transceive_follow: false,
  target_mapping: { tx: 'the other VFO (transmit, split; written by toggling)', rx: 'the VFO the radio rests on (receive)' },
});

/** A radio behind Hamlib's rigctld: what the station asks of it is what Hamlib's rig API offers for split radios. */
export const hamlibCapabilities = (hamlibModel: number, name: string | null): RuntimeCapabilities => ({
  model: 'hamlib',
  radio: hamlibRigName(hamlibModel, name),
  validated: false,
  validation_note: "through Hamlib's rigctld: tested against Hamlib's dummy rig and a simulated FT-817 behind rigctld",
  split: true,
  scope: false,
  tone: true,
  snapshot: true,
  transceive_follow: false,
  target_mapping: { tx: 'the transmit VFO (split, VFOB or Sub as rigctld names it)', rx: 'the receive VFO (VFOA or Main)' },
});

/** "Hamlib 1035 FT-991"; "Hamlib rigctld" for a daemon the operator runs (its model is its own). */
export const hamlibRigName = (hamlibModel: number, name: string | null): string => (hamlibModel > 0 ? `Hamlib ${hamlibModel}${name ? ` ${name}` : ''}` : 'Hamlib rigctld');

/** What the configured model can do, before its driver is loaded (a Hamlib rig's name fills in once connected). */
export function capabilitiesOf(link: Pick<RigLink, 'rig_model' | 'hamlib_model' | 'hamlib_address'>): RuntimeCapabilities {
  const m: RigModel = link.rig_model;
  if (m === 'rigA') return IC705_CAPABILITIES;
  if (m === 'rigB') return IC9700_CAPABILITIES;
  if (m === 'hamlib') return hamlibCapabilities(link.hamlib_address ? 0 : link.hamlib_model, null);
  return yaesuCapabilities(m);
}

export { shortRigName } from './types.js';

/**
 * Each side's radio while no radio is connected, from the settings alone: with an uplink radio
 * the uplink side names it; one radio names itself on both sides.
 */
export function restingLegs(s: RadioSettings): { downlink: Leg; uplink: Leg } {
  const downlink = restingLeg(shortRigName(capabilitiesOf(s)));
  return { downlink, uplink: s.uplink_rig ? restingLeg(shortRigName(capabilitiesOf(s.uplink_rig))) : downlink };
}
