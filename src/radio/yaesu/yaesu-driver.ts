import { AppError, badRequest, errorMessage } from '../../util/errors.js';
import { OneAtATime } from '../../util/queue.js';
import { logger } from '../../util/logger.js';
import { yaesuCapabilities } from '../rig-capabilities.js';
import type { Readback, RigCapabilities, RigDriver, RigPair, RigSnapshot, Vfo, VfoState } from '../rig.js';
import type { YAESU_RIG_MODELS } from '../settings.js';
import type { CatPort } from './cat-port.js';
import { ACK, CAT_LEN, OP, writeCtcssTone, writeFixed, writeReadEeprom, writeSetFreq, writeSetMode, writeToneMode, type FixedOp } from './commands.js';
import { modelInfo, type YaesuModel } from './models.js';
import { readMode, setModeCode } from './modes.js';
import { decodeFreqMode, decodeTxStatus, isGarbled, splitFromEeprom, vfoFromEeprom, type FreqMode, type TxStatus } from './replies.js';

// An FT-817/818/857/897 over its 5-byte CAT (cat-port.ts), by issue 34's rules (decisions in
// docs/decisions/yaesu.md):
// - The radio takes no control while it transmits, and the operator may key it by hand: every
//   operation that writes reads TX status (F7) first and sends nothing while keyed.
// - The radio rests on its receive VFO (runtime A), whichever of its VFOs that is: init() learns it
//   from the EEPROM, and every write starts by reading the EEPROM's VFO byte and coming back to it
//   when the operator left the radio on the other.
// - The transmit VFO (runtime B) is written by toggling (81, write, 81), which puts the receiver on
//   the other frequency for a moment: an auto-track step rewrites it only when it moved by
//   TX_RETUNE_HZ, and read() never toggles (B is what was last written or read).
// - An F0 is a hint and the read-back the truth: F7 says whether the radio transmits, 03 or the
//   EEPROM whether the write took.

const log = logger('radio:yaesu');

type YaesuRigModel = (typeof YAESU_RIG_MODELS)[number];
const MODELS: Readonly<Record<YaesuRigModel, YaesuModel>> = Object.freeze({ ft817: 'FT-817', ft818: 'FT-818', ft857: 'FT-857', ft897: 'FT-897' });
/** 'ft817' → 'FT-817', the codec's name for the setting's model. */
export const yaesuModel = (m: YaesuRigModel): YaesuModel => MODELS[m];

/**
 * How far an auto-track step must move the transmit VFO from where it stands before the step
 * writes it, on top of auto-track's own deadband (tracking.ts: 300 Hz FM, 30 Hz linear). Each
 * write swaps the receiver to the transmit frequency and back; an FM satellite's receiver does
 * not notice 1 kHz, and 100 Hz on an SSB uplink is a small, steady offset, where the deadbands
 * alone would toggle every tick near the pass's middle.
 */
export const TX_RETUNE_HZ = Object.freeze({ fm: 1000, linear: 100 });
const FM_MODES: ReadonlySet<string> = new Set(['FM', 'FM-N', 'PKT']);

const command = (write: (out: Uint8Array) => unknown): Uint8Array => {
  const out = new Uint8Array(CAT_LEN);
  write(out);
  return out;
};
const fixed = (op: FixedOp) => command((o) => writeFixed(o, 0, op));
// Commands without parameters, built once; the port only reads them.
const TX_STATUS = fixed(OP.READ_TX_STATUS);
const FREQ_MODE = fixed(OP.READ_FREQ_MODE);
const TOGGLE = fixed(OP.TOGGLE_VFO);
const SPLIT_ON = fixed(OP.SPLIT_ON);
const SPLIT_OFF = fixed(OP.SPLIT_OFF);
const PTT_ON = fixed(OP.PTT_ON);
const PTT_OFF = fixed(OP.PTT_OFF);

const NO_SCOPE: RigSnapshot['scope'] = Object.freeze({ enabled: false, mode: null, span_hz: null });
const NOTHING = () => {};

/** What the radio holds after a frequency write: whole 10 Hz, rounded as the codec rounds. */
const tenHz = (hz: number) => Math.floor((hz + 5) / 10) * 10;
/** The mode as the radio reads it back ('USB-D' → DIG, 'FM-N'). */
const modeRead = (mode: string) => readMode(setModeCode(mode)!)!.mode;
const vfoState = (hz: number | null, mode: string | null): VfoState | null => (hz !== null && mode !== null ? { freq_hz: hz, mode } : null);

/** A write refused because the radio transmits (not exported: only this driver tells it from other faults). */
class Transmitting extends AppError {}

export class YaesuDriver implements RigDriver {
  readonly capabilities: RigCapabilities;
  readonly model: YaesuModel;
  /** Operations one at a time: a toggle sequence must not interleave with another. */
  private readonly ops = new OneAtATime(8);
  private readonly cmd = new Uint8Array(CAT_LEN);
  private readonly reply = new Uint8Array(5);
  private readonly urgentReply = new Uint8Array(1);
  private readonly readVfoByte: Uint8Array;
  private readonly readSplitByte: Uint8Array;
  /** The radio's VFO that receives (runtime A), learnt at init; null until the radio answered. */
  private rxVfo: 'A' | 'B' | null = null;
  /** The radio stands on rxVfo (as last read or left). */
  private onRx = true;
  private split: boolean | null = null;
  // Each VFO as last written or read; the transmit VFO is read only by toggling (init, snapshot).
  private rxHz: number | null = null;
  private rxMode: string | null = null;
  private txHz: number | null = null;
  private txMode: string | null = null;

  constructor(
    private readonly port: CatPort,
    rigModel: YaesuRigModel,
  ) {
    this.model = yaesuModel(rigModel);
    this.capabilities = yaesuCapabilities(rigModel);
    const ee = modelInfo(this.model).eeprom;
    this.readVfoByte = command((o) => writeReadEeprom(o, 0, ee.vfo));
    this.readSplitByte = command((o) => writeReadEeprom(o, 0, ee.split));
  }

  /** Learns the receive VFO (the one the radio stands on), split, and both VFOs (toggling once, unless it transmits). */
  init(): Promise<void> {
    return this.exclusive(async () => {
      const keyed = (await this.txStatus()).keyed;
      this.rxVfo = await this.vfoNow();
      this.onRx = true;
      this.split = splitFromEeprom(await this.eepromByte(this.readSplitByte));
      if (keyed) return; // no 81 while it transmits: read() fills the receive VFO in, a write the transmit one
      this.heard('rx', await this.freqMode());
      await this.onTx('reading the transmit VFO', async () => this.heard('tx', await this.freqMode()));
    });
  }

  /** The receive VFO's frequency and mode (knob-follow reads it), PTT, and where the radio stands; B as last known. */
  read(): Promise<Readback> {
    return this.exclusive(async () => {
      const r: Readback = { a: null, b: null, a_freq_hz: null, b_freq_hz: null, selected_vfo: null, split_enabled: null, scope_enabled: false, error: null };
      try {
        const keyed = (await this.txStatus()).keyed;
        r.ptt = keyed;
        await this.where();
        const fm = await this.freqMode();
        // Keyed in split, the radio shows (and 03 reads) the VFO it does not stand on.
        const showsRx = this.onRx !== (keyed && this.split === true);
        this.heard(showsRx ? 'rx' : 'tx', fm);
        if (showsRx) r.a_freq_hz = fm.hz; // only a fresh read of the receive VFO is news for knob-follow
        r.selected_vfo = this.selectedVfo();
      } catch (err) {
        r.error = errorMessage(err);
      }
      r.a = r.a_freq_hz === null ? null : vfoState(this.rxHz, this.rxMode);
      r.b = vfoState(this.txHz, this.txMode);
      r.b_freq_hz = this.txHz;
      r.split_enabled = this.split;
      return r;
    });
  }

  async writeVfo(vfo: Vfo, hz: number, mode?: string | null): Promise<void> {
    this.checkMode(mode);
    return this.exclusive(async () => {
      const what = vfo === 'A' ? 'the receive VFO' : 'the transmit VFO';
      await this.guard(what);
      if (vfo === 'A') await this.writeHere('rx', hz, mode, what);
      else await this.onTx(what, () => this.writeHere('tx', hz, mode, what));
    });
  }

  /** Receive VFO (frequency, mode), then the transmit VFO by toggling, then split; split off for a receive-only pair. */
  async writePair(p: RigPair): Promise<void> {
    this.checkMode(p.rx_mode);
    this.checkMode(p.tx_mode);
    return this.exclusive(async () => {
      await this.guard('the pair');
      await this.writeHere('rx', p.rx_hz, p.rx_mode, 'the receive VFO');
      const tx = p.tx_hz;
      if (tx === null) return this.setSplitHere(false);
      await this.onTx('the transmit VFO', () => this.writeHere('tx', tx, p.tx_mode, 'the transmit VFO'));
      await this.setSplitHere(true);
    });
  }

  /** An auto-track step; the transmit VFO only when it moved by TX_RETUNE_HZ from where it stands (each write toggles). */
  async writeLeg(leg: 'rx' | 'tx', hz: number): Promise<void> {
    if (leg === 'tx' && this.txHz !== null && Math.abs(hz - this.txHz) < this.retuneHz()) return;
    return this.exclusive(async () => {
      if (leg === 'rx') {
        await this.guard('the receive VFO');
        await this.writeHere('rx', hz, null, 'the receive VFO');
      } else {
        await this.guard('the transmit VFO');
        await this.onTx('the transmit VFO', () => this.writeHere('tx', hz, null, 'the transmit VFO'));
      }
    });
  }

  /** Nothing the CAT can do safely: it has no squelch, scope or span command (docs/decisions/yaesu.md). */
  async prepareSatellite(): Promise<void> {}

  /**
   * The tone on the transmit VFO (B), or on the receive one (A) when the radio is the uplink one
   * of two and transmits there; both byte pairs (commands.ts), the encoder on; null: tone off.
   */
  async setTone(hz: number | null, vfo: Vfo = 'B'): Promise<void> {
    if (hz !== null) {
      try {
        writeCtcssTone(this.cmd, 0, hz); // before any byte goes out
      } catch (err) {
        throw badRequest(errorMessage(err), { tone_hz: hz }, 'bad_tone');
      }
    }
    return this.exclusive(async () => {
      await this.guard('the CTCSS tone');
      const write = async () => {
        if (hz !== null) {
          writeCtcssTone(this.cmd, 0, hz);
          await this.must(this.cmd, `the CTCSS tone ${hz} Hz`);
        }
        writeToneMode(this.cmd, 0, this.model, hz === null ? 'off' : 'ctcss-enc');
        await this.must(this.cmd, hz === null ? 'tone off' : 'the tone encoder');
      };
      if (vfo === 'A') await write();
      else await this.onTx('the CTCSS tone', write);
    });
  }

  /** Both VFOs (the transmit one by toggling) and split. The CAT reads no tone, squelch or scope: those stay as they are. */
  snapshot(): Promise<RigSnapshot> {
    return this.exclusive(async () => {
      await this.guard('the snapshot (it reads the transmit VFO by toggling)');
      const a = await this.freqMode();
      this.heard('rx', a);
      this.split = splitFromEeprom(await this.eepromByte(this.readSplitByte));
      let b = a;
      await this.onTx('the snapshot', async () => {
        b = await this.freqMode();
        this.heard('tx', b);
      });
      return { a: { freq_hz: a.hz, mode: a.mode }, b: { freq_hz: b.hz, mode: b.mode }, split_enabled: this.split, squelch: 0, scope: NO_SCOPE, tone: null, selected_vfo: 'A' };
    });
  }

  /** Both VFOs' frequency and mode, then split; the radio left on its receive VFO. */
  restore(s: RigSnapshot): Promise<void> {
    const settable = (m: string) => setModeCode(m) !== null;
    return this.exclusive(async () => {
      await this.guard('the restore');
      await this.writeHere('rx', s.a.freq_hz, settable(s.a.mode) ? s.a.mode : null, 'the receive VFO');
      await this.onTx('the transmit VFO', () => this.writeHere('tx', s.b.freq_hz, settable(s.b.mode) ? s.b.mode : null, 'the transmit VFO'));
      await this.setSplitHere(s.split_enabled);
      const left = [s.a, s.b].filter((v) => !settable(v.mode)).map((v) => v.mode);
      if (left.length) throw new Error(`restored, except the mode ${left.join(' and ')}: the CAT cannot set it, so the radio keeps the mode it has`);
    });
  }

  /** The runtime's name of where the radio stands: A, its receive VFO, except while the operator left it on the other. */
  selectedVfo(): Vfo {
    return this.onRx ? 'A' : 'B';
  }

  /** These radios report nothing by themselves (no transceive): the poll reads the receive VFO. */
  watchRx(): () => void {
    return NOTHING;
  }

  /** 88 ahead of everything waiting. F0 means CAT had not keyed it: fine unless F7 says it still transmits. */
  async pttOff(): Promise<void> {
    await this.port.urgent(PTT_OFF, this.urgentReply);
    if (this.urgentReply[0] === ACK.OK) return;
    await this.port.urgent(TX_STATUS, this.urgentReply);
    if (!(decodeTxStatus(this.urgentReply) as TxStatus).keyed) {
      log.info(`PTT off: the ${this.model} answered F0 (CAT had not keyed it) and does not transmit`);
      return;
    }
    throw new AppError(409, 'rig_keyed_by_hand', `PTT off: the ${this.model} answered F0 and still transmits: it is keyed by hand, a footswitch or VOX, which CAT cannot release`);
  }

  /** 08 from the receive VFO, so that split transmits on the transmit VFO; nothing to send when it already transmits. */
  pttOn(): Promise<void> {
    return this.exclusive(async () => {
      if ((await this.txStatus()).keyed) return;
      await this.standOnRx('PTT on');
      await this.port.request(PTT_ON, this.reply);
      if (this.reply[0] === ACK.OK || (await this.txStatus()).keyed) return;
      throw this.refused('PTT on');
    });
  }

  readPtt(): Promise<boolean | null> {
    return this.exclusive(async () => (await this.txStatus()).keyed);
  }

  setSplit(on: boolean): Promise<void> {
    return this.exclusive(async () => {
      await this.guard(on ? 'split on' : 'split off');
      await this.setSplitHere(on);
    });
  }

  // --- the steps ------------------------------------------------------------------------------

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.ops.run(fn);
  }

  /** Before every write: nothing while it transmits (F7), and the radio on its receive VFO. */
  private async guard(what: string): Promise<void> {
    if ((await this.txStatus()).keyed) throw this.transmitting(what);
    await this.standOnRx(what);
  }

  /** The EEPROM says where the radio stands; an 81 brings it back when the operator left it on the other VFO. */
  private async standOnRx(what: string): Promise<void> {
    await this.where();
    if (!this.onRx) await this.toggle(what);
  }

  private async where(): Promise<void> {
    const v = await this.vfoNow();
    this.rxVfo ??= v; // init had no answer: the VFO the radio stands on now receives
    this.onRx = v === this.rxVfo;
  }

  /** fn on the transmit VFO, between two 81s: every update ends on the receive VFO. */
  private async onTx(what: string, fn: () => Promise<unknown>): Promise<void> {
    await this.toggle(what);
    try {
      await fn();
    } catch (err) {
      // Keyed meanwhile, the radio takes no 81 either: the next operation's guard comes back.
      if (!(err instanceof Transmitting)) await this.toggle(what).catch(() => {});
      throw err;
    }
    await this.toggle(what);
  }

  private async toggle(what: string): Promise<void> {
    if (!(await this.control(TOGGLE, what))) {
      // F0 without keying: the EEPROM says whether it swapped.
      const v = await this.vfoNow();
      if ((v === this.rxVfo) === this.onRx) throw this.refused(`the VFO toggle for ${what}`);
    }
    this.onRx = !this.onRx;
  }

  /** Frequency (and mode) of the VFO the radio stands on, which is leg's. */
  private async writeHere(leg: 'rx' | 'tx', hz: number, mode: string | null | undefined, what: string): Promise<void> {
    writeSetFreq(this.cmd, 0, hz);
    if (!(await this.control(this.cmd, what))) {
      const now = await this.freqMode();
      if (now.hz !== tenHz(hz)) throw this.refused(`${what}'s frequency ${hz} Hz`, `it stays on ${now.hz} Hz`);
    }
    if (leg === 'rx') this.rxHz = tenHz(hz);
    else this.txHz = tenHz(hz);
    if (!mode) return;
    writeSetMode(this.cmd, 0, mode);
    if (!(await this.control(this.cmd, what))) {
      const now = await this.freqMode();
      if (setModeCode(now.mode) !== setModeCode(mode)) throw this.refused(`${what}'s mode ${mode}`, `it stays in ${now.mode}`);
    }
    if (leg === 'rx') this.rxMode = modeRead(mode);
    else this.txMode = modeRead(mode);
  }

  private async setSplitHere(on: boolean): Promise<void> {
    // F0 when split already is so (docs/decisions/yaesu.md): the EEPROM says.
    if (!(await this.control(on ? SPLIT_ON : SPLIT_OFF, on ? 'split on' : 'split off'))) {
      if (splitFromEeprom(await this.eepromByte(this.readSplitByte)) !== on) throw this.refused(on ? 'split on' : 'split off');
    }
    this.split = on;
  }

  /** A control command: true when done (00); on F0, false for the caller to read back, or Transmitting when F7 says keyed. */
  private async control(cmd: Uint8Array, what: string): Promise<boolean> {
    await this.port.request(cmd, this.reply);
    if (this.reply[0] === ACK.OK) return true;
    if ((await this.txStatus()).keyed) throw this.transmitting(what);
    return false;
  }

  /** A command with nothing to read back: F0 is a refusal. */
  private async must(cmd: Uint8Array, what: string): Promise<void> {
    if (!(await this.control(cmd, what))) throw this.refused(what);
  }

  private async txStatus(): Promise<TxStatus> {
    await this.port.request(TX_STATUS, this.reply);
    return decodeTxStatus(this.reply) as TxStatus; // one byte always decodes
  }

  private async vfoNow(): Promise<'A' | 'B'> {
    return vfoFromEeprom(await this.eepromByte(this.readVfoByte));
  }

  private async eepromByte(cmd: Uint8Array): Promise<number> {
    await this.port.request(cmd, this.reply);
    return this.reply[0];
  }

  private async freqMode(): Promise<FreqMode> {
    await this.port.request(FREQ_MODE, this.reply);
    const fm = decodeFreqMode(this.reply);
    if (!isGarbled(fm)) return fm;
    this.port.lostStep(); // most likely a reply shifted by a lost byte
    throw new Error(`the ${this.model}'s frequency and mode came back garbled (${fm.garbled}); the line is resynchronised`);
  }

  /** Records what 03 read on leg's VFO. */
  private heard(leg: 'rx' | 'tx', fm: FreqMode): void {
    if (leg === 'rx') {
      this.rxHz = fm.hz;
      this.rxMode = fm.mode;
    } else {
      this.txHz = fm.hz;
      this.txMode = fm.mode;
    }
  }

  private retuneHz(): number {
    return this.txMode !== null && FM_MODES.has(this.txMode) ? TX_RETUNE_HZ.fm : TX_RETUNE_HZ.linear;
  }

  private checkMode(mode: string | null | undefined): void {
    if (mode && setModeCode(mode) === null) {
      throw badRequest(`mode ${mode} cannot be set by CAT on the ${this.model} (it takes LSB, USB, CW, CW-R, AM, FM, FM-N, USB-D as DIG, FM-D as PKT)`, { mode }, 'mode_unsupported');
    }
  }

  private transmitting(what: string): Transmitting {
    return new Transmitting(409, 'rig_transmitting', `the ${this.model} is transmitting (keyed by hand?): ${what} not written, as it takes nothing but PTT off while keyed`);
  }

  private refused(what: string, why?: string): AppError {
    return new AppError(502, 'rig_rejected', `the ${this.model} refused ${what} (answered F0)${why ? `: ${why}` : ''}`, { command: what });
  }
}
