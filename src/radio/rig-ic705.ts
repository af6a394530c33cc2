import { cmd, decode, type CivRequest, type VfoSlot } from './civ/commands.js';
import type { CivFrame } from './civ/frame.js';
import { CivRig } from './civ-rig.js';
import { IC705_CAPABILITIES } from './rig-capabilities.js';
import { SATELLITE_SCOPE_SPAN_HZ, type Readback, type RigDriver, type RigPair, type RigSnapshot, type Vfo, type VfoState } from './rig.js';

// rigA: an Icom IC-705 over CI-V (factory address 0xA4). Satellite work uses split: VFO A is the
// working (selected, receive) VFO and VFO B the transmit VFO. 0x25/0x26 address the selected
// (00) and unselected (01) VFO, so the driver keeps VFO A selected and maps the slots back to
// absolute A and B; the IC-705 has no command that reads which VFO is selected.

const fail = (what: string, err: unknown) => `${what}: ${err instanceof Error ? err.message : String(err)}`;

export class Ic705Driver extends CivRig implements RigDriver {
  readonly capabilities = IC705_CAPABILITIES;
  /** What we last selected; A except inside a write that needs B. */
  private selected: Vfo = 'A';

  private slot(v: Vfo): VfoSlot {
    return v === this.selected ? 0 : 1;
  }

  private async select(v: Vfo): Promise<void> {
    await this.bus.request(cmd.selectVfo(v));
    this.selected = v;
  }

  async init(): Promise<void> {
    await this.select('A');
  }

  selectedVfo(): Vfo {
    return this.selected;
  }

  /** Reads A and B (frequency, mode), split and scope; a rig that times out is not asked the rest. */
  async read(): Promise<Readback> {
    const r: Readback = { a: null, b: null, a_freq_hz: null, b_freq_hz: null, selected_vfo: this.selected, split_enabled: null, scope_enabled: null, error: null };
    const ask = async <T>(what: string, req: CivRequest, dec: (f: CivFrame) => T | null): Promise<T | null> => {
      if (r.error?.includes('no answer')) return null;
      try {
        const v = dec(await this.bus.request(req));
        if (v === null) r.error ??= `${what}: malformed reply`;
        return v;
      } catch (err) {
        r.error ??= fail(what, err);
        return null;
      }
    };
    for (const v of ['A', 'B'] as const) {
      const freq = await ask(`read VFO ${v} frequency`, cmd.readVfoFreq(this.slot(v)), decode.freq);
      const mode = await ask(`read VFO ${v} mode`, cmd.readVfoMode(this.slot(v)), decode.mode);
      if (v === 'A') r.a_freq_hz = freq;
      else r.b_freq_hz = freq;
      if (freq !== null && mode !== null) r[v === 'A' ? 'a' : 'b'] = { freq_hz: freq, mode: mode.mode };
    }
    r.split_enabled = await ask('read split', cmd.readSplit(), decode.onOff);
    r.scope_enabled = await ask('read scope', cmd.readScopeOn(), decode.onOff);
    return r;
  }

  async writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void> {
    await this.select('A'); // B is written as the unselected VFO, so A stays the working VFO
    await this.bus.request(cmd.setVfoFreq(this.slot(vfo), hz));
    if (mode) await this.bus.request(cmd.setVfoMode(this.slot(vfo), mode));
  }

  /** Spec order: split off; A frequency; A mode; B frequency; B mode; split on. */
  async writePair(p: RigPair): Promise<void> {
    await this.select('A');
    await this.bus.request(cmd.setSplit(false));
    await this.bus.request(cmd.setVfoFreq(0, p.rx_hz));
    if (p.rx_mode) await this.bus.request(cmd.setVfoMode(0, p.rx_mode));
    if (p.tx_hz === null) return; // receive only: no transmit VFO, split stays off
    await this.bus.request(cmd.setVfoFreq(1, p.tx_hz));
    if (p.tx_mode) await this.bus.request(cmd.setVfoMode(1, p.tx_mode));
    await this.bus.request(cmd.setSplit(true));
  }

  async writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void> {
    await this.bus.request(cmd.setVfoFreq(this.slot(leg === 'rx' ? 'A' : 'B'), hz));
  }

  async setSplit(on: boolean): Promise<void> {
    await this.bus.request(cmd.setSplit(on));
  }

  async prepareSatellite(): Promise<void> {
    await this.bus.request(cmd.setSquelch(0));
    await this.bus.request(cmd.setScopeOn(true));
    await this.bus.request(cmd.setScopeMode('center'));
    await this.bus.request(cmd.setScopeSpan(SATELLITE_SCOPE_SPAN_HZ));
  }

  /** The tone belongs to the transmit VFO (B unless told): select it, set, and come back to A. */
  async setTone(hz: number | null, vfo: Vfo = 'B'): Promise<void> {
    await this.select(vfo);
    try {
      if (hz !== null) await this.bus.request(cmd.setToneFreq(hz));
      await this.bus.request(cmd.setToneOn(hz !== null));
    } finally {
      await this.select('A');
    }
  }

  async snapshot(): Promise<RigSnapshot> {
    await this.select('A');
    const vfo = async (slot: VfoSlot): Promise<VfoState> => {
      const freq = decode.freq(await this.bus.request(cmd.readVfoFreq(slot)));
      const mode = decode.mode(await this.bus.request(cmd.readVfoMode(slot)));
      if (freq === null || !mode) throw new Error('malformed VFO readback');
      return { freq_hz: freq, mode: mode.mode, filter: mode.filter };
    };
    const a = await vfo(0);
    const b = await vfo(1);
    const split = decode.onOff(await this.bus.request(cmd.readSplit()));
    const squelch = decode.squelch(await this.bus.request(cmd.readSquelch()));
    const scopeOn = decode.onOff(await this.bus.request(cmd.readScopeOn()));
    const scopeMode = await this.optional(() => this.bus.request(cmd.readScopeMode()).then(decode.scopeMode));
    const span = await this.optional(() => this.bus.request(cmd.readScopeSpan()).then(decode.scopeSpan));
    if (split === null || squelch === null || scopeOn === null) throw new Error('malformed readback');
    await this.select('B');
    let tone: RigSnapshot['tone'];
    try {
      tone = {
        tone_hz: await this.optional(() => this.bus.request(cmd.readToneFreq()).then(decode.tone)),
        tone_on: await this.optional(() => this.bus.request(cmd.readToneOn()).then(decode.onOff)),
        tsql_hz: null,
        tsql_on: null,
      };
    } finally {
      await this.select('A');
    }
    return { a, b, split_enabled: split, squelch, scope: { enabled: scopeOn, mode: scopeMode, span_hz: span }, tone, selected_vfo: 'A' };
  }

  /** Puts a snapshot back in the pair's safe order; scope and tone last. */
  async restore(s: RigSnapshot): Promise<void> {
    await this.select('A');
    await this.bus.request(cmd.setSplit(false));
    await this.bus.request(cmd.setVfoFreq(0, s.a.freq_hz));
    await this.bus.request(cmd.setVfoMode(0, s.a.mode, filterOf(s.a)));
    await this.bus.request(cmd.setVfoFreq(1, s.b.freq_hz));
    await this.bus.request(cmd.setVfoMode(1, s.b.mode, filterOf(s.b)));
    if (s.split_enabled) await this.bus.request(cmd.setSplit(true));
    await this.bus.request(cmd.setSquelch(s.squelch));
    if (s.scope.mode) await this.bus.request(cmd.setScopeMode(s.scope.mode as 'center'));
    if (s.scope.span_hz) await this.bus.request(cmd.setScopeSpan(s.scope.span_hz));
    await this.bus.request(cmd.setScopeOn(s.scope.enabled));
    if (s.tone && s.tone.tone_on !== null) {
      await this.select('B');
      try {
        if (s.tone.tone_hz !== null) await this.bus.request(cmd.setToneFreq(s.tone.tone_hz));
        await this.bus.request(cmd.setToneOn(s.tone.tone_on));
      } finally {
        await this.select('A');
      }
    }
  }

  /** A read some firmware does not answer: its absence must not spoil the snapshot. */
  private async optional<T>(fn: () => Promise<T | null>): Promise<T | null> {
    try {
      return await fn();
    } catch {
      return null;
    }
  }
}

const filterOf = (v: VfoState): 1 | 2 | 3 | undefined => (v.filter === 1 || v.filter === 2 || v.filter === 3 ? v.filter : undefined);
