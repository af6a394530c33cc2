import { cmd, decode } from './civ/commands.js';
import { RigRejected } from './civ-bus.js';
import { CivRig } from './civ-rig.js';
import { IC9700_CAPABILITIES } from './rig-capabilities.js';
import type { Readback, RigDriver, RigPair, RigSnapshot, Vfo, VfoState } from './rig.js';

// rigB: an Icom IC-9700 over CI-V (factory address 0xA2). Satellite mode pairs its two bands:
// MAIN receives (downlink) and SUB transmits (uplink) (gpredict's IC-9700 notes, Hamlib's satmode
// TX VFO). The runtime's VFO A is MAIN and VFO B is SUB, so receive is A and transmit B as on
// rigA. Each band is selected (07 D0/D1) and written with the operating-frequency and mode
// commands (05/06, read 03/04): the IC-9700 answers NG to 0x25/0x26 in satellite mode (Hamlib).
// MAIN is left selected. Same codec and interface as rigA, but not validated on a radio.

const BAND: Record<Vfo, 'MAIN' | 'SUB'> = { A: 'MAIN', B: 'SUB' };

export class Ic9700Driver extends CivRig implements RigDriver {
  readonly capabilities = IC9700_CAPABILITIES;

  private band(v: Vfo) {
    return this.bus.request(cmd.selectBand(BAND[v]));
  }

  async init(): Promise<void> {
    await this.band('A');
  }

  selectedVfo(): Vfo {
    return 'A';
  }

  private async readVfo(v: Vfo): Promise<{ freq: number | null; mode: { mode: string; filter: number } | null }> {
    await this.band(v);
    const freq = decode.freq(await this.bus.request(cmd.readFreq()));
    const mode = decode.mode(await this.bus.request(cmd.readMode()));
    return { freq, mode };
  }

  async read(): Promise<Readback> {
    const r: Readback = { a: null, b: null, a_freq_hz: null, b_freq_hz: null, selected_vfo: 'A', split_enabled: null, scope_enabled: null, error: null };
    try {
      for (const v of ['A', 'B'] as const) {
        const { freq, mode } = await this.readVfo(v);
        if (v === 'A') r.a_freq_hz = freq;
        else r.b_freq_hz = freq;
        if (freq !== null && mode) r[v === 'A' ? 'a' : 'b'] = { freq_hz: freq, mode: mode.mode };
      }
      await this.band('A');
      r.split_enabled = decode.onOff(await this.bus.request(cmd.readSatMode()));
      r.scope_enabled = decode.onOff(await this.bus.request(cmd.readScopeOn()));
    } catch (err) {
      r.error = `read: ${err instanceof Error ? err.message : String(err)}`;
    }
    return r;
  }

  async writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void> {
    await this.band(vfo);
    try {
      await this.bus.request(cmd.setFreq(hz));
      if (mode) await this.bus.request(cmd.setMode(mode));
    } finally {
      if (vfo !== 'A') await this.band('A');
    }
  }

  /**
   * Satellite mode on, then MAIN (downlink) and SUB (uplink), MAIN left selected. The two bands
   * cannot share a band plan segment: when the downlink's band is where SUB is now, the rig says
   * NG, so the bands are exchanged (07 B0) and the write tried once more.
   */
  async writePair(p: RigPair): Promise<void> {
    await this.bus.request(cmd.setSatMode(true));
    try {
      await this.writeVfo('A', p.rx_hz, p.rx_mode);
    } catch (err) {
      if (!(err instanceof RigRejected)) throw err;
      await this.bus.request(cmd.exchange());
      await this.writeVfo('A', p.rx_hz, p.rx_mode);
    }
    if (p.tx_hz !== null) await this.writeVfo('B', p.tx_hz, p.tx_mode);
  }

  writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void> {
    return this.writeVfo(leg === 'rx' ? 'A' : 'B', hz);
  }

  /** Satellite mode is the IC-9700's split: SUB transmits while MAIN receives. */
  async setSplit(on: boolean): Promise<void> {
    await this.bus.request(cmd.setSatMode(on));
  }

  /** Squelch of the receive band (MAIN) opened; scope on. */
  async prepareSatellite(): Promise<void> {
    await this.band('A');
    await this.bus.request(cmd.setSquelch(0));
    await this.bus.request(cmd.setScopeOn(true));
  }

  /** CTCSS on the transmit band (SUB unless told), MAIN selected again. */
  async setTone(hz: number | null, vfo: Vfo = 'B'): Promise<void> {
    await this.band(vfo);
    try {
      if (hz !== null) await this.bus.request(cmd.setToneFreq(hz));
      await this.bus.request(cmd.setToneOn(hz !== null));
    } finally {
      await this.band('A');
    }
  }

  async snapshot(): Promise<RigSnapshot> {
    const vfo = async (v: Vfo): Promise<VfoState> => {
      const { freq, mode } = await this.readVfo(v);
      if (freq === null || !mode) throw new Error('malformed VFO readback');
      return { freq_hz: freq, mode: mode.mode, filter: mode.filter };
    };
    const b = await vfo('B');
    const a = await vfo('A');
    const squelch = decode.squelch(await this.bus.request(cmd.readSquelch()));
    const sat = decode.onOff(await this.bus.request(cmd.readSatMode()));
    const scope = decode.onOff(await this.bus.request(cmd.readScopeOn()));
    if (squelch === null || sat === null || scope === null) throw new Error('malformed readback');
    return { a, b, split_enabled: sat, squelch, scope: { enabled: scope, mode: null, span_hz: null }, tone: null, selected_vfo: 'A' };
  }

  async restore(s: RigSnapshot): Promise<void> {
    await this.writePair({ rx_hz: s.a.freq_hz, rx_mode: s.a.mode, tx_hz: s.b.freq_hz, tx_mode: s.b.mode });
    await this.bus.request(cmd.setSquelch(s.squelch));
    await this.bus.request(cmd.setSatMode(s.split_enabled));
    await this.bus.request(cmd.setScopeOn(s.scope.enabled));
  }
}
