import type { LanLeaser } from './lan/lan-types.js';
import type { WifiRig, WifiRigSettings } from './lan/wifi-rig.js';

// What the radio area offers the other areas (the APRS station, the rotator, the Hamlib servers):
// the modes the station sets, the shared rig settings rules, the LAN sessions' lease interface,
// the rig over Wi-Fi as one object and the rig's reconnect pacing. Other areas import radio/
// through this module only (the architecture test checks it), so radio's drivers, CI-V commands
// and addresses stay its own. It is light on purpose: APRS settings and the radio's schemas load
// at boot, the rig code only when a Wi-Fi transport opens.

export { RIG_MODES, type RigMode } from './schemas.js';
export { RIG_MODELS, rigModel, civAddress, checkWifiTarget } from './settings.js';
export { LAN_AUDIO_RATE_HZ, endpointKey, type LanLeaser } from './lan/lan-types.js';
export type { WifiRig, WifiRigSettings } from './lan/wifi-rig.js';
export type { RigPair, RigSnapshot } from './rig.js';
export { RECONNECT } from './reconnect.js';


/** The IC-705 over its LAN session (one lease of the shared session), its code loaded on first use. */
export async function openWifiRig(lan: LanLeaser, owner: string, s: WifiRigSettings): Promise<WifiRig> {
  return (await import('./lan/wifi-rig.js')).openWifiRig(lan, owner, s);
}
