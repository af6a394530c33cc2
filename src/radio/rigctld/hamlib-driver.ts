import type { Readback, RigCapabilities, RigDriver, RigPair, RigSnapshot, Vfo } from '../rig.js';
import type { RigctldClient } from './rigctld-client.js';
import { RigctldRejected } from './rigctld-errors.js';
import { hamlibModeFor, radioModeOf } from './hamlib-modes.js';
import { HamlibError } from '../../ham/hamlib/errors.js';
import type { HamlibVfo } from '../../ham/hamlib/vocab.js';
import type { Clock } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';

// Any radio Hamlib drives, through rigctld (rigctld-client.ts). The runtime's VFO A is the receive
// VFO (VFOA, or Main on a Main/Sub rig) and B split's transmit VFO (VFOB or Sub, whichever the
// client's opening named in "S 1 <tx>"): receive is set and read with F/M and f/m, transmit with
// split's own commands I/X and i/x, so the rig stays on its receive VFO and Hamlib finds the
// transmit one itself, however the backend does it (a targetable VFO, or a toggle and back).
//
// Pacing, for CAT links of ~300 ms a command (FT-847): a tracking tick is one line per leg (F for
// receive, I for transmit), and the client's queue replaces a waiting line of the same command and
// VFO with the newer value, so nothing stale is ever sent ahead of it. The poll reads both
// frequencies every time, but modes and split only when they may have changed: after the station
// set one, and every MODE_READ_MS otherwise (the operator's hand on the mode knob), so a poll on a
// slow rig costs two commands, not five, and a tick rarely waits behind one.

const log = logger('radio:hamlib');

/** How long modes and split read back are taken as current when the station did not change them. */
export const MODE_READ_MS = 5_000;

/** Refusals that mean "this rig (or Hamlib's backend for it) has no such thing", not "that value is wrong". */
const notOffered = (err: unknown): boolean => err instanceof RigctldRejected && (err.code === HamlibError.ENIMPL || err.code === HamlibError.ENAVAIL);

export interface HamlibDriverOptions {
  clock: Clock;
  capabilities: RigCapabilities;
  modeReadMs?: number;
}

/** What the last full read (or the station's own write) says the modes and split are. */
interface Modes {
  a: string | null;
  b: string | null;
  split: boolean | null;
}

export class HamlibDriver implements RigDriver {
  readonly capabilities: RigCapabilities;
  /** The receive VFO by Hamlib's name (VFOA, or Main beside a Sub transmit VFO). */
  readonly rxVfo: HamlibVfo;
  /** Split's transmit VFO, as the client's opening named it. */
  readonly txVfo: HamlibVfo;
  private modes: Modes = { a: null, b: null, split: null };
  /** When modes were last read; null: read them on the next poll (never read, or the station changed one). */
  private modesReadAt: number | null = null;

  constructor(
    private readonly client: RigctldClient,
    private readonly o: HamlibDriverOptions,
  ) {
    const info = client.info;
    if (!info) throw new Error('the rigctld client has not finished its opening');
    this.txVfo = info.txVfo;
    this.rxVfo = info.txVfo === 'Sub' ? 'Main' : 'VFOA';
    // A rig that refused split receives only: say so rather than fail every pair.
    this.capabilities = info.splitRefused ? { ...o.capabilities, split: false } : o.capabilities;
  }

  /** Stands the rig on its receive VFO, so F and f are the receive leg; a rig without VFO selection is left as it is. */
  async init(): Promise<void> {
    await this.client.setVfo(this.rxVfo).catch((err) => {
      if (!notOffered(err)) throw err;
    });
  }

  selectedVfo(): Vfo {
    return 'A';
  }

  async read(): Promise<Readback> {
    const r: Readback = { a: null, b: null, a_freq_hz: null, b_freq_hz: null, selected_vfo: 'A', split_enabled: null, scope_enabled: null, error: null };
    const ask = async <T>(what: string, fn: () => Promise<T>): Promise<T | null> => {
      try {
        return await fn();
      } catch (err) {
        r.error ??= `${what}: ${errorMessage(err)}`;
        return null;
      }
    };
    const now = this.o.clock.now();
    const full = this.modesReadAt === null || now - this.modesReadAt >= (this.o.modeReadMs ?? MODE_READ_MS);
    r.a_freq_hz = await ask('read the receive frequency', () => this.client.freq(this.rxVfo));
    if (full) {
      const a = await ask('read the receive mode', () => this.client.mode(this.rxVfo));
      if (a) this.modes.a = radioModeOf(a.mode);
    }
    r.b_freq_hz = await ask('read the transmit frequency', () => this.client.splitFreq());
    if (full) {
      const b = await ask('read the transmit mode', () => this.client.splitMode());
      if (b) this.modes.b = radioModeOf(b.mode);
      const split = await ask('read split', () => this.client.split());
      if (split) this.modes.split = split.on;
      if (r.error === null) this.modesReadAt = now;
    }
    if (r.a_freq_hz !== null && this.modes.a !== null) r.a = { freq_hz: r.a_freq_hz, mode: this.modes.a };
    if (r.b_freq_hz !== null && this.modes.b !== null) r.b = { freq_hz: r.b_freq_hz, mode: this.modes.b };
    r.split_enabled = this.modes.split;
    return r;
  }

  /**
   * B through split's I and X while split is on; with split off Hamlib keeps I's frequency for
   * when it is turned on (the dummy rig does) and VFO B itself is written, with the VFO named.
   */
  async writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void> {
    if (vfo === 'A') return this.writeRx(hz, mode ?? null);
    if (this.modes.split !== false) return this.writeTx(hz, mode ?? null);
    await this.onTxVfo(async (v) => {
      await this.client.setFreq(hz, v);
      if (mode) {
        this.modesReadAt = null;
        await this.client.setMode(hamlibModeFor(mode), 0, v);
      }
    });
  }

  /** Receive first (F, M); then split on with the transmit VFO named, and transmit through I, X. Receive only: split off. */
  async writePair(p: RigPair): Promise<void> {
    await this.writeRx(p.rx_hz, p.rx_mode);
    if (p.tx_hz === null) return this.setSplit(false);
    // Named every time: a restore or the operator may have turned split off, and I goes where S last said.
    await this.setSplit(true);
    await this.writeTx(p.tx_hz, p.tx_mode);
  }

  /** One line: F for receive, I for transmit. */
  writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void> {
    return leg === 'rx' ? this.client.setFreq(hz, this.rxVfo) : this.client.setSplitFreq(hz);
  }

  async setSplit(on: boolean): Promise<void> {
    this.modesReadAt = null;
    await this.client.setSplit(on, this.txVfo);
    this.modes.split = on;
  }

  /** Hamlib's levels differ from rig to rig: squelch and scope are left to the operator here (capabilities.scope false). */
  async prepareSatellite(): Promise<void> {}

  /**
   * CTCSS on the transmit VFO: C (tenths of Hz) and the encoder on (U TONE 1, which some backends
   * need besides C). A daemon with --vfo takes the VFO in the line; otherwise the rig stands on the
   * transmit VFO for it (V) and goes back to receive. A rig Hamlib offers no tone for is skipped
   * with a warning (the operator sets it on the radio); a tone it refuses is an error.
   */
  async setTone(hz: number | null): Promise<void> {
    const list = this.client.info?.dump.keys.get('ctcss_list');
    if (list !== undefined && list.trim() === '') return this.skipTone(hz, 'Hamlib lists no CTCSS tones for this rig');
    try {
      await this.onTxVfo(async (vfo) => {
        if (hz !== null) await this.client.setCtcssTone(Math.round(hz * 10), vfo);
        await this.client.setFunc('TONE', hz !== null, vfo).catch((err) => {
          // C alone keys the encoder on some backends (the FT-817's); one without TONE refuses U.
          if (hz === null || !notOffered(err)) throw err;
        });
      });
    } catch (err) {
      if (notOffered(err)) return this.skipTone(hz, errorMessage(err));
      throw err;
    }
  }

  async snapshot(): Promise<RigSnapshot> {
    const a = await this.client.freq(this.rxVfo);
    const aMode = await this.client.mode(this.rxVfo);
    const b = await this.client.splitFreq();
    const bMode = await this.client.splitMode();
    const split = await this.client.split();
    return {
      a: { freq_hz: a, mode: radioModeOf(aMode.mode) },
      b: { freq_hz: b, mode: radioModeOf(bMode.mode) },
      split_enabled: split.on,
      // Neither squelch nor scope is touched (prepareSatellite), nor the tone read back: nothing of them to put back.
      squelch: 0,
      scope: { enabled: false, mode: null, span_hz: null },
      tone: null,
      selected_vfo: 'A',
    };
  }

  /** Both VFOs and their modes (each at the rig's normal passband), then split as it was. */
  async restore(s: RigSnapshot): Promise<void> {
    await this.writePair({ rx_hz: s.a.freq_hz, rx_mode: s.a.mode, tx_hz: s.b.freq_hz, tx_mode: s.b.mode });
    if (!s.split_enabled) await this.setSplit(false);
  }

  /** Hamlib reports no knob turns by itself: knob-follow reads the receive VFO on each poll. */
  watchRx(): () => void {
    return () => {};
  }

  /** T 0 ahead of everything waiting in the client's queue. */
  pttOff(): Promise<void> {
    return this.client.setPtt(false);
  }

  pttOn(): Promise<void> {
    return this.client.setPtt(true);
  }

  readPtt(): Promise<boolean | null> {
    return this.client.ptt();
  }

  private async writeRx(hz: number, mode: string | null): Promise<void> {
    await this.client.setFreq(hz, this.rxVfo);
    if (mode) await this.setMode('A', mode);
  }

  private async writeTx(hz: number, mode: string | null): Promise<void> {
    await this.client.setSplitFreq(hz);
    if (mode) await this.setMode('B', mode);
  }

  private async setMode(vfo: Vfo, mode: string): Promise<void> {
    const h = hamlibModeFor(mode);
    this.modesReadAt = null;
    // Passband 0: the rig's normal width for the mode (a width kept from another mode would be wrong).
    await (vfo === 'A' ? this.client.setMode(h, 0, this.rxVfo) : this.client.setSplitMode(h, 0));
  }

  /** Runs fn with the VFO to name in a line: the transmit VFO itself (--vfo), or currVFO while the rig stands on it. */
  private async onTxVfo(fn: (vfo: HamlibVfo) => Promise<void>): Promise<void> {
    if (this.client.info?.vfoArg) return fn(this.txVfo);
    await this.client.setVfo(this.txVfo);
    try {
      await fn('currVFO');
    } finally {
      await this.client.setVfo(this.rxVfo);
    }
  }

  private skipTone(hz: number | null, why: string): void {
    log.warn(`CTCSS ${hz === null ? 'off' : `${hz} Hz`} not set (${why}): set the tone on the radio`);
  }
}
