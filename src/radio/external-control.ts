import type { RadioController } from './controller.js';
import type { RadioSettings } from './settings.js';
import type { Vfo } from './rig.js';
import { rigBandOf } from '../guidance/eligibility.js';
import { AppError } from '../util/errors.js';
import type { Clock } from '../util/clock.js';

// The rig as a network client (Hamlib's rigctld, issue 26) drives it. Gets answer from a readback
// at most one poll interval old: the poll loop's when it is fresh, else one poll that every
// client asking at that moment and the loop itself share, so twenty clients polling at 10 Hz
// cost the rig no more reads than the loop alone. Sets are manual writes: refused while the pass-pinned session
// holds the rig, and they stop auto-track and take the restore point first like every manual
// write; runtime.control_mode then says 'external' and external_client names who. PTT on keys only
// with the transmit frequency inside the eligibility bands; the station's own rules (allow_ptt,
// the emergency stop, the lock, the callsign) are checked by the Hamlib side before it asks.

export interface ExternalReading {
  a_hz: number | null;
  b_hz: number | null;
  a_mode: string | null;
  b_mode: string | null;
  split: boolean | null;
}

export interface ExternalControlDeps {
  clock: Clock;
  controller: RadioController;
  settings: () => RadioSettings;
  /**
   * Before a set: the session's hold (409), a connected rig, auto-track stopped, and with capture
   * the restore point taken (once per stretch of external control: a rig without snapshot reads
   * must not cost every one of gpredict's once-a-second sets a failed capture).
   */
  prepareWrite: (what: string, capture: boolean) => Promise<void>;
}

const notAvailable = (what: string) => new AppError(400, 'not_available', what);

export class ExternalControl {
  private ptt: { on: boolean; at_ms: number } | null = null;
  private pttReading: Promise<boolean> | null = null;

  constructor(private readonly d: ExternalControlDeps) {}

  private get maxAgeMs(): number {
    return this.d.settings().poll_interval_ms;
  }

  /** The rig's VFOs, from a readback at most one poll interval old. */
  async read(): Promise<ExternalReading> {
    const c = this.d.controller;
    c.requireRig();
    if (this.d.clock.now() - c.lastReadMs > this.maxAgeMs) {
      await c.sharedPoll().catch(() => {});
      if (this.d.clock.now() - c.lastReadMs > this.maxAgeMs) {
        throw new AppError(504, 'rig_timeout', `the rig gave no readback: ${c.runtime().last_error ?? 'no answer'}`);
      }
    }
    const { targets: t, raw_state } = c.runtime();
    return { a_hz: t.vfo_a_freq_hz, b_hz: t.vfo_b_freq_hz, a_mode: t.vfo_a_mode, b_mode: t.vfo_b_mode, split: raw_state.split_enabled };
  }

  async setFrequency(vfo: Vfo, hz: number, client: string): Promise<void> {
    await this.prepare(`${client}: set VFO ${vfo}`);
    await this.d.controller.writeFrequency(vfo, hz);
    this.hold(client);
  }

  /** A mode alone: the VFO's frequency is written again with it (the rigs take the two together). */
  async setMode(vfo: Vfo, mode: string, client: string): Promise<void> {
    const r = await this.read();
    const hz = vfo === 'A' ? r.a_hz : r.b_hz;
    if (hz === null) throw new AppError(504, 'rig_timeout', `VFO ${vfo}'s frequency is not known yet`);
    await this.prepare(`${client}: set VFO ${vfo} mode`);
    await this.d.controller.writeFrequency(vfo, hz, mode);
    this.hold(client);
  }

  /**
   * Split with the transmit on VFO B: rigA switches its split; rigB always transmits on SUB in
   * satellite mode, so "on" is already true there and "off" cannot be done.
   */
  async setSplit(on: boolean, client: string): Promise<void> {
    const c = this.d.controller;
    if (!c.capabilities().split) {
      if (on) return;
      throw notAvailable(`${c.capabilities().radio} transmits on SUB in satellite mode: split cannot be turned off`);
    }
    await this.prepare(`${client}: split ${on ? 'on' : 'off'}`);
    await c.operate(`split ${on ? 'on' : 'off'}`, (rig) => rig.setSplit(on));
    c.patch({ raw_state: { ...c.runtime().raw_state, split_enabled: on } });
    this.hold(client);
  }

  /** PTT over CI-V. Off is never refused (not even while the session holds the rig); on needs the transmit frequency in band. */
  async setPtt(on: boolean, client: string): Promise<void> {
    const c = this.d.controller;
    if (!on) {
      c.requireRig();
      // Straight on the bus, ahead of any queued write, like the emergency stop.
      if (!(await c.pttOff())) throw new AppError(504, 'rig_timeout', `PTT off was not confirmed: ${c.runtime().last_error ?? 'no answer'}`);
      this.ptt = { on: false, at_ms: this.d.clock.now() };
      return;
    }
    const r = await this.read();
    const txHz = r.split ? r.b_hz : r.a_hz;
    if (txHz === null || !rigBandOf(txHz)) {
      throw new AppError(403, 'tx_refused', `PTT refused: the transmit frequency ${txHz === null ? 'is unknown' : `${(txHz / 1e6).toFixed(3)} MHz is outside the eligibility bands`}`);
    }
    await this.prepare(`${client}: PTT on`);
    await c.operate('PTT on', (rig) => rig.pttOn());
    this.ptt = { on: true, at_ms: this.d.clock.now() };
    this.hold(client);
  }

  /** Whether the rig transmits, read over CI-V at most once per poll interval. */
  async readPtt(): Promise<boolean> {
    const c = this.d.controller;
    c.requireRig();
    if (this.ptt && this.d.clock.now() - this.ptt.at_ms <= this.maxAgeMs) return this.ptt.on;
    this.pttReading ??= c
      .operate('read PTT', (rig) => rig.readPtt())
      .then((on) => {
        if (on === null) throw new AppError(502, 'rig_error', 'the rig answered the PTT read with a malformed reply');
        this.ptt = { on, at_ms: this.d.clock.now() };
        return on;
      })
      .finally(() => (this.pttReading = null));
    return this.pttReading;
  }

  /** A client went away: if it held the rig, nobody does now (the rig stays where it was). */
  release(client: string): void {
    const c = this.d.controller;
    if (c.runtime().control_mode === 'external' && c.runtime().external_client === client) c.patch({ control_mode: 'idle', active_sat_id: null });
  }

  /** The emergency stop: PTT off at once (straight on the bus) and external control dropped. */
  async drop(): Promise<void> {
    const c = this.d.controller;
    if (c.runtime().control_mode === 'external') c.patch({ control_mode: 'idle', active_sat_id: null });
    this.ptt = null;
    if (c.rig) await c.pttOff();
  }

  private prepare(what: string): Promise<void> {
    return this.d.prepareWrite(what, this.d.controller.runtime().control_mode !== 'external');
  }

  private hold(client: string): void {
    this.d.controller.patch({ control_mode: 'external', external_client: client, active_sat_id: null });
  }
}
