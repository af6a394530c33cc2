import { Ic705Driver } from '../rig-ic705.js';
import { cmd } from '../civ/commands.js';
import { civAddressByte } from '../civ-line.js';
import type { RigPair, RigSnapshot } from '../rig.js';
import type { RadioSettings } from '../settings.js';
import type { LanLease, LanLeaser } from './lan-types.js';

// The IC-705 over its Wi-Fi LAN session, as the radio area offers it to another area (the APRS
// station's Wi-Fi transport): PTT, the rig's state and frequencies, and the audio both ways,
// without reaching into the radio's drivers, CI-V commands or addresses. One lease of the shared
// session (lan-hub.ts), so radio control and APRS can both hold the radio.

/** The settings that say where the radio is (the APRS settings carry the same fields). */
export type WifiRigSettings = Pick<RadioSettings, 'wifi_host' | 'wifi_control_port' | 'wifi_username' | 'wifi_password' | 'civ_address'>;

export interface WifiRig {
  readonly radioName: string;
  /** The radio's transmit audio: play a buffer, abort, whether it is playing. */
  readonly audioTx: LanLease['session']['audioTx'];
  /**
   * Receive audio, 16-bit PCM at LAN_AUDIO_RATE_HZ (the samples may be a view: copy to keep).
   * Returns the unsubscribe: the session may outlive this lease (radio control holds it too).
   */
  onAudio(fn: (pcm: Int16Array) => void): () => void;
  /** Once, if the session drops while this rig is held (radio off, out of range). */
  onLost(fn: (reason: string) => void): void;
  /** PTT on (queued behind other CI-V), or off (ahead of everything). */
  ptt(on: boolean): Promise<void>;
  snapshot(): Promise<RigSnapshot>;
  restore(s: RigSnapshot): Promise<void>;
  /** VFO A (receive) to this frequency and mode. */
  tuneReceive(hz: number, mode: string): Promise<void>;
  writePair(p: RigPair): Promise<void>;
  /** Lets the session go (it closes when nobody else holds it). Idempotent. */
  release(): Promise<void>;
}

export async function openWifiRig(lan: LanLeaser, owner: string, s: WifiRigSettings): Promise<WifiRig> {
  const lease = await lan.lease(owner, { host: s.wifi_host, port: s.wifi_control_port, username: s.wifi_username, password: s.wifi_password }, civAddressByte(s.civ_address));
  const rig = new Ic705Driver(lease.bus);
  return {
    radioName: lease.radioName,
    audioTx: lease.session.audioTx,
    onAudio: (fn) => lease.session.onAudio(fn),
    onLost: (fn) => lease.onLost(fn),
    ptt: async (on) => {
      if (on) await lease.bus.request(cmd.setTransmit(true));
      else await lease.bus.urgent(cmd.setTransmit(false));
    },
    snapshot: () => rig.snapshot(),
    restore: (snap) => rig.restore(snap),
    tuneReceive: (hz, mode) => rig.writeVfo('A', hz, mode),
    writePair: (p) => rig.writePair(p),
    release: () => lease.release(),
  };
}
