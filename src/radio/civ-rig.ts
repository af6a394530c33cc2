import { cmd, decode } from './civ/commands.js';
import type { CivBus } from './civ-bus.js';
import type { Vfo } from './rig.js';

// What the two Icom drivers share: their CI-V bus, the transceive broadcasts of the receive VFO
// (knob-follow hears the operator's knob between polls), and PTT over CI-V. The emergency stop's
// PTT off goes straight on the bus, ahead of any queued write.

export abstract class CivRig {
  constructor(readonly bus: CivBus) {}

  abstract selectedVfo(): Vfo;

  watchRx(fn: (rx_hz: number) => void): () => void {
    return this.bus.onBroadcast((f) => {
      // A broadcast carries the selected VFO's frequency: it is the receive one only while A is selected.
      if (f.cmd !== 0x00 || this.selectedVfo() !== 'A') return;
      const hz = decode.freq(f);
      if (hz !== null) fn(hz);
    });
  }

  async pttOff(): Promise<void> {
    await this.bus.urgent(cmd.setTransmit(false));
  }

  async pttOn(): Promise<void> {
    await this.bus.request(cmd.setTransmit(true));
  }

  async readPtt(): Promise<boolean | null> {
    return decode.onOff(await this.bus.request(cmd.readTransmit()));
  }
}
