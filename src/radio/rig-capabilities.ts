import type { RuntimeCapabilities } from './types.js';

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

const CAPABILITIES = { rigA: IC705_CAPABILITIES, rigB: IC9700_CAPABILITIES };
export const capabilitiesOf = (model: 'rigA' | 'rigB'): RuntimeCapabilities => CAPABILITIES[model];
