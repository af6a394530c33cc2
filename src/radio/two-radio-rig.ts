import type { Readback, RigDriver, RigPair, RigSnapshot, Vfo } from './rig.js';
import type { RuntimeCapabilities } from './types.js';
import { LegError, legDown, type LegName } from './leg-error.js';

// Two radios as one rig, for everything above the drivers (auto-track, the session, Apply, the
// Hamlib server): the downlink radio receives on its working VFO (A) and the uplink radio
// transmits on its own (A, split off), each over its own link. A pair writes both legs even when
// one fails, so one radio's fault never stops the other from tracking; the fault names its leg.
// Knob-follow listens to the receive radio; PTT and the emergency stop go to the transmit radio.

/** Whichever drivers are up now: a leg whose radio is away is null (its line reconnects on its own). */
export interface TwoRadioLegs {
  down(): RigDriver | null;
  up(): RigDriver | null;
  /** Each radio's short name for faults and capabilities ("FT-818", "IC-705"). */
  name(leg: LegName): string;
  /** A leg's operation failed (message) or succeeded (null): the leg's own last_error. */
  report(leg: LegName, error: string | null): void;
}

/** The working VFO of each radio: the downlink radio's receive VFO, the uplink radio's transmit one. */
const WORK: Vfo = 'A';

export class TwoRadioRig implements RigDriver {
  constructor(
    private readonly legs: TwoRadioLegs,
    private readonly model: RuntimeCapabilities['model'],
  ) {}

  get capabilities(): RuntimeCapabilities {
    const down = this.legs.name('downlink');
    const up = this.legs.name('uplink');
    return {
      model: this.model,
      radio: `${down} + ${up}`,
      validated: false,
      validation_note: 'two radios: the downlink radio receives, the uplink radio transmits',
      // Like an IC-9700 in satellite mode: the uplink always transmits, there is no split to turn off.
      split: false,
      scope: this.legs.down()?.capabilities.scope ?? false,
      tone: this.legs.up()?.capabilities.tone ?? true,
      snapshot: true,
      transceive_follow: this.legs.down()?.capabilities.transceive_follow ?? false,
      target_mapping: { tx: `the uplink radio (${up}), its working VFO`, rx: `the downlink radio (${down}), its working VFO` },
    };
  }

  /** Runs fn on a leg's radio, naming the leg in a fault and keeping the leg's own last_error. */
  private async on<T>(leg: LegName, fn: (rig: RigDriver) => Promise<T>): Promise<T> {
    const rig = leg === 'downlink' ? this.legs.down() : this.legs.up();
    if (!rig) {
      const err = legDown(leg, this.legs.name(leg));
      this.legs.report(leg, err.message);
      throw err;
    }
    try {
      const out = await fn(rig);
      this.legs.report(leg, null);
      return out;
    } catch (err) {
      const e = new LegError(leg, this.legs.name(leg), err);
      this.legs.report(leg, e.message);
      throw e;
    }
  }

  /** Both legs, each whatever the other does; the first fault is thrown once both are done. */
  private async both(down: (rig: RigDriver) => Promise<void>, up: ((rig: RigDriver) => Promise<void>) | null): Promise<void> {
    let first: unknown = null;
    await this.on('downlink', down).catch((e) => (first ??= e));
    if (up) await this.on('uplink', up).catch((e) => (first ??= e));
    if (first) throw first;
  }

  async init(): Promise<void> {
    // Each radio's own line initialises its driver when it opens (rig-connection.ts).
  }

  async read(): Promise<Readback> {
    const r: Readback = { a: null, b: null, a_freq_hz: null, b_freq_hz: null, selected_vfo: 'A', split_enabled: true, scope_enabled: null, error: null };
    const down = await this.on('downlink', (rig) => rig.read()).catch((e: Error) => ((r.error ??= e.message), null));
    const up = await this.on('uplink', (rig) => rig.read()).catch((e: Error) => ((r.error ??= e.message), null));
    if (down) {
      r.a = down.a;
      r.a_freq_hz = down.a_freq_hz;
      r.scope_enabled = down.scope_enabled;
      r.rx_ptt = down.ptt;
      if (down.error) r.error ??= new LegError('downlink', this.legs.name('downlink'), down.error).message;
    }
    if (up) {
      r.b = up.a;
      r.b_freq_hz = up.a_freq_hz;
      r.ptt = up.ptt;
      if (up.error) r.error ??= new LegError('uplink', this.legs.name('uplink'), up.error).message;
    }
    return r;
  }

  writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void> {
    return vfo === 'A' ? this.on('downlink', (rig) => rig.writeVfo(WORK, hz, mode)) : this.on('uplink', (rig) => rig.writeVfo(WORK, hz, mode));
  }

  /** Each radio simplex on its working VFO: split off on the uplink radio so it transmits where we write. */
  writePair(p: RigPair): Promise<void> {
    const tx = p.tx_hz;
    return this.both(
      (rig) => rig.writeVfo(WORK, p.rx_hz, p.rx_mode),
      tx === null
        ? null
        : async (rig) => {
            if (rig.capabilities.split) await rig.setSplit(false);
            await rig.writeVfo(WORK, tx, p.tx_mode);
          },
    );
  }

  writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void> {
    return this.writeVfo(leg === 'rx' ? 'A' : 'B', hz);
  }

  prepareSatellite(): Promise<void> {
    return this.on('downlink', (rig) => rig.prepareSatellite());
  }

  setTone(hz: number | null): Promise<void> {
    return this.on('uplink', (rig) => rig.setTone(hz, WORK));
  }

  /** Both radios' own snapshots, kept whole so each is put back as it was (split, squelch, scope, tone). */
  async snapshot(): Promise<RigSnapshot> {
    const down = await this.on('downlink', (rig) => rig.snapshot());
    const up = await this.on('uplink', (rig) => rig.snapshot());
    return { ...down, b: up.a, split_enabled: true, selected_vfo: 'A', radios: { downlink: down, uplink: up } };
  }

  async restore(s: RigSnapshot): Promise<void> {
    const radios = s.radios;
    if (!radios) throw new Error('the snapshot was taken with one radio: connect the same radios to restore it');
    await this.both(
      (rig) => rig.restore(radios.downlink),
      (rig) => rig.restore(radios.uplink),
    );
  }

  selectedVfo(): Vfo {
    return 'A';
  }

  watchRx(fn: (rx_hz: number) => void): () => void {
    // The downlink radio may come and go: listen to whichever driver is up when asked.
    const rig = this.legs.down();
    return rig ? rig.watchRx(fn) : () => {};
  }

  pttOff(): Promise<void> {
    return this.on('uplink', (rig) => rig.pttOff());
  }

  pttOn(): Promise<void> {
    return this.on('uplink', (rig) => rig.pttOn());
  }

  readPtt(): Promise<boolean | null> {
    return this.on('uplink', (rig) => rig.readPtt());
  }

  /** Two radios always transmit on the uplink one: "on" is already so, "off" is not a thing. */
  async setSplit(on: boolean): Promise<void> {
    if (!on) throw new Error('two radios: the uplink radio always transmits; split cannot be turned off');
  }
}
