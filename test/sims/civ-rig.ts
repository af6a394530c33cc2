import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';

// An Icom CI-V rig simulator (IC-705 or IC-9700) on the rig end of a pseudo-terminal. It is an
// independent reading of Icom's CI-V references (cross-checked against Hamlib's icom.c,
// icom_defs.h and ic7300.c, where the IC-705 and IC-9700 are described) and shares no code with
// src/: strict like the radio (a wrongly encoded value gets NG), with state a test can read and
// set, USB echo, transceive broadcasts from the front panel, and fault switches. README.md in
// this folder documents it.

export type RigKind = 'IC-705' | 'IC-9700';
export type SimMode = 'LSB' | 'USB' | 'AM' | 'CW' | 'RTTY' | 'FM' | 'WFM' | 'CW-R' | 'RTTY-R' | 'DV' | 'DD';
export type SimScopeMode = 'center' | 'fixed' | 'scroll-center' | 'scroll-fixed';

export interface SimTone {
  repeaterToneHz: number;
  tsqlHz: number;
  toneOn: boolean;
  tsqlOn: boolean;
}

export interface SimVfo {
  freq: number;
  mode: SimMode;
  /** Data mode (USB-D and so on), set with 0x26. */
  data: boolean;
  filter: 1 | 2 | 3;
  /** Tone settings belong to the VFO on these radios; 1B/16 42/16 43 act on the operating VFO. */
  tone: SimTone;
}

/** One receiver band: the IC-705 has one (MAIN), the IC-9700 MAIN and SUB. */
export interface SimBand {
  vfoA: SimVfo;
  vfoB: SimVfo;
  selected: 'A' | 'B';
  squelch: number;
}

export interface SimScope {
  on: boolean;
  mode: SimScopeMode;
  /** The ± value the radio states and CI-V carries: ±500 kHz is a 1 MHz wide display. */
  spanHalfHz: number;
}

export interface RigSimState {
  /** IC-705: VFO A. IC-9700: shorthand for the MAIN band's operating VFO (main[main.selected]). */
  vfoA: SimVfo;
  /** IC-705: VFO B. IC-9700: shorthand for the SUB band's operating VFO (sub[sub.selected]). */
  vfoB: SimVfo;
  /** IC-705: the selected VFO. IC-9700: the selected band's selected VFO. */
  selected: 'A' | 'B';
  /** 0..255. IC-705: the radio's squelch. IC-9700: the selected band's (see main/sub.squelch). */
  squelch: number;
  split: boolean;
  /** The scope: on/off and, for the IC-705 and the IC-9700's MAIN band, mode and span. */
  scope: SimScope;
  /** IC-9700: the SUB band's scope mode and span (27 14 01 / 27 15 01). */
  scopeSub: { mode: SimScopeMode; spanHalfHz: number };
  /** IC-9700 satellite mode (16 5A). Always false on the IC-705. */
  satMode: boolean;
  /** IC-9700: the band 03/04/05/06/07 00|01/14/16/1B/25/26 act on. Always 'MAIN' on the IC-705. */
  band: 'MAIN' | 'SUB';
  /** The bands themselves. The IC-705 keeps its VFOs in main; its sub is unused. */
  main: SimBand;
  sub: SimBand;
  /** CI-V transceive: front-panel changes are broadcast (only turnKnob/pressMode, not CI-V writes). */
  transceive: boolean;
  /** USB CI-V echo back: every byte received is written back before the reply. */
  echo: boolean;
  /** Transmitting (1C 00 01 keys, 1C 00 00 unkeys; the operator's PTT via keyUp()). */
  transmitting: boolean;
}

export interface RigSimFaults {
  /** Commands carried out (sets applied) but never answered: the spec's 0x25 timeout case. */
  noReplyTo: Set<number>;
  /** Commands answered NG (FA) without being carried out. */
  ngTo: Set<number>;
  /** A rig that has gone quiet: no echo, no reply, nothing applied (frames are still logged). */
  noReplyAtAll: boolean;
  /** Every reply is held back this long (echo is not: it is immediate on a real radio). */
  delayMs: number;
  /** The next n commands are carried out but their replies are lost (a busy bus, a late reply). */
  loseReplies?: number;
  /** Replies keep their frame, command and sub-command, but their value bytes are corrupted (OK/NG become AA BB). */
  garble: boolean;
  /** Set commands are answered OK (FB) but not carried out. */
  dropApply: boolean;
}

export interface RigLogEntry {
  /** Date.now() when the frame was complete. */
  at: number;
  /** The frame as hex, normalised to a two-byte preamble: "FE FE A4 E0 07 00 FD". */
  bytes: string;
  to: number;
  from: number;
  cmd: number;
  /** Sub-command and data bytes after cmd, without the FD. */
  data: number[];
}

export interface RigSimOptions {
  kind: RigKind;
  /** Default 0xA4 (IC-705), 0xA2 (IC-9700). */
  address?: number;
  /** USB CI-V echo back; default off. */
  echo?: boolean;
  /** CI-V transceive; default on (the radios' factory setting). */
  transceive?: boolean;
}

const PRE = 0xfe;
const EOM = 0xfd;
const OK = 0xfb;
const NG = 0xfa;
const COLLISION = 0xfc;
const BROADCAST = 0x00;

const MODE_CODES: Record<SimMode, number> = { LSB: 0x00, USB: 0x01, AM: 0x02, CW: 0x03, RTTY: 0x04, FM: 0x05, WFM: 0x06, 'CW-R': 0x07, 'RTTY-R': 0x08, DV: 0x17, DD: 0x22 };
const MODES_OF: Record<RigKind, SimMode[]> = {
  'IC-705': ['LSB', 'USB', 'AM', 'CW', 'RTTY', 'FM', 'WFM', 'CW-R', 'RTTY-R', 'DV'],
  'IC-9700': ['LSB', 'USB', 'AM', 'CW', 'RTTY', 'FM', 'CW-R', 'RTTY-R', 'DV', 'DD'],
};
/** Modes that have a data variant (LSB-D, USB-D, AM-D, FM-D). */
const DATA_MODES: SimMode[] = ['LSB', 'USB', 'AM', 'FM'];
/** The 50 standard CTCSS tones, in tenths of a hertz. */
export const CTCSS_TENTHS = [
  670, 693, 719, 744, 770, 797, 825, 854, 885, 915, 948, 974, 1000, 1035, 1072, 1109, 1148, 1188, 1230, 1273, 1318, 1365, 1413, 1462, 1514,
  1567, 1598, 1622, 1655, 1679, 1713, 1738, 1773, 1799, 1835, 1862, 1899, 1928, 1966, 1995, 2035, 2065, 2107, 2181, 2257, 2291, 2336, 2418,
  2503, 2541,
];
const SCOPE_MODES: SimScopeMode[] = ['center', 'fixed', 'scroll-center', 'scroll-fixed'];
/** Centre-mode spans as the radios state them (±). Total widths 5 kHz .. 1 MHz. */
const HALF_SPANS = [2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000];
const RANGES: Record<RigKind, Array<[number, number]>> = {
  'IC-705': [[30_000, 199_999_999], [400_000_000, 470_000_000]],
  'IC-9700': [[144_000_000, 148_000_000], [430_000_000, 450_000_000], [1_240_000_000, 1_300_000_000]],
};

const hex = (bytes: ArrayLike<number>) => Array.from(bytes, (b) => b.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const isDigitPair = (b: number) => b >> 4 <= 9 && (b & 0x0f) <= 9;

/** 5 bytes, least significant digit pair first (145.800.000 Hz -> 00 00 80 45 01); null if not BCD. */
function readFreq(b: number[]): number | null {
  if (b.length !== 5 || !b.every(isDigitPair)) return null;
  let hz = 0;
  for (let i = 4; i >= 0; i--) hz = hz * 100 + (b[i] >> 4) * 10 + (b[i] & 0x0f);
  return hz;
}

function writeFreq(hz: number): number[] {
  const out: number[] = [];
  let rest = hz;
  for (let i = 0; i < 5; i++) {
    const pair = rest % 100;
    rest = Math.floor(rest / 100);
    out.push(((pair / 10) | 0) * 16 + (pair % 10));
  }
  return out;
}

/** Big-endian BCD, two digits a byte (squelch 0128 -> 01 28, tone 88.5 Hz -> 00 08 85). */
export function readBcdBE(b: number[]): number | null {
  if (!b.every(isDigitPair)) return null;
  return b.reduce((v, x) => v * 100 + (x >> 4) * 10 + (x & 0x0f), 0);
}

export function writeBcdBE(v: number, bytes: number): number[] {
  const out = new Array<number>(bytes);
  let rest = v;
  for (let i = bytes - 1; i >= 0; i--) {
    const pair = rest % 100;
    rest = Math.floor(rest / 100);
    out[i] = ((pair / 10) | 0) * 16 + (pair % 10);
  }
  return out;
}

const newVfo = (freq: number, mode: SimMode): SimVfo => ({ freq, mode, data: false, filter: 1, tone: { repeaterToneHz: 88.5, tsqlHz: 88.5, toneOn: false, tsqlOn: false } });
const cloneVfo = (v: SimVfo): SimVfo => ({ ...v, tone: { ...v.tone } });
const opKey = (b: SimBand) => (b.selected === 'A' ? 'vfoA' : 'vfoB');

function initialState(kind: RigKind, echo: boolean, transceive: boolean): RigSimState {
  const nineSeven = kind === 'IC-9700';
  const s = {
    split: false,
    scope: { on: false, mode: 'center' as SimScopeMode, spanHalfHz: 25_000 },
    scopeSub: { mode: 'center' as SimScopeMode, spanHalfHz: 25_000 },
    satMode: false,
    band: 'MAIN' as 'MAIN' | 'SUB',
    main: nineSeven
      ? { vfoA: newVfo(145_900_000, 'LSB'), vfoB: newVfo(145_500_000, 'FM'), selected: 'A' as const, squelch: 128 }
      : { vfoA: newVfo(145_000_000, 'FM'), vfoB: newVfo(435_000_000, 'FM'), selected: 'A' as const, squelch: 128 },
    sub: nineSeven
      ? { vfoA: newVfo(435_800_000, 'USB'), vfoB: newVfo(435_000_000, 'FM'), selected: 'A' as const, squelch: 128 }
      : { vfoA: newVfo(435_000_000, 'FM'), vfoB: newVfo(435_000_000, 'FM'), selected: 'A' as const, squelch: 128 },
    transceive,
    echo,
    transmitting: false,
  } as Omit<RigSimState, 'vfoA' | 'vfoB' | 'selected' | 'squelch'>;
  const cur = () => (s.band === 'MAIN' ? s.main : s.sub);
  // The flat names are views onto the bands, so a test can read and set either.
  Object.defineProperties(
    s,
    nineSeven
      ? {
          vfoA: { enumerable: true, get: () => s.main[opKey(s.main)], set: (v: SimVfo) => (s.main[opKey(s.main)] = v) },
          vfoB: { enumerable: true, get: () => s.sub[opKey(s.sub)], set: (v: SimVfo) => (s.sub[opKey(s.sub)] = v) },
          selected: { enumerable: true, get: () => cur().selected, set: (v: 'A' | 'B') => (cur().selected = v) },
          squelch: { enumerable: true, get: () => cur().squelch, set: (v: number) => (cur().squelch = v) },
        }
      : {
          vfoA: { enumerable: true, get: () => s.main.vfoA, set: (v: SimVfo) => (s.main.vfoA = v) },
          vfoB: { enumerable: true, get: () => s.main.vfoB, set: (v: SimVfo) => (s.main.vfoB = v) },
          selected: { enumerable: true, get: () => s.main.selected, set: (v: 'A' | 'B') => (s.main.selected = v) },
          squelch: { enumerable: true, get: () => s.main.squelch, set: (v: number) => (s.main.squelch = v) },
        },
  );
  return s as RigSimState;
}

/** What a command produces: a read's reply body, a validated set to carry out, or NG. */
type Outcome = { read: number[] } | { set: () => void } | null;

export class CivRigSim {
  readonly kind: RigKind;
  readonly address: number;
  readonly state: RigSimState;
  /** Every frame addressed to the rig (or broadcast), in arrival order. */
  readonly log: RigLogEntry[] = [];
  readonly faults: RigSimFaults = { noReplyTo: new Set(), ngTo: new Set(), noReplyAtAll: false, delayMs: 0, garble: false, dropApply: false };
  private port: SerialPort | null = null;
  // Parser: consecutive preamble bytes seen, then the frame body (null while outside a frame).
  private preamble = 0;
  private body: number[] | null = null;
  private readonly timers = new Set<NodeJS.Timeout>();
  private watch: NodeJS.Timeout | null = null;
  /** A byte-level attachment (attach()): receives everything the rig writes, like the port does. */
  private sink: ((bytes: Uint8Array) => void) | null = null;
  private readonly pttListeners = new Set<(on: boolean) => void>();

  constructor(opts: RigSimOptions) {
    if (opts.kind !== 'IC-705' && opts.kind !== 'IC-9700') throw new RangeError(`unknown rig kind ${String(opts.kind)}`);
    this.kind = opts.kind;
    this.address = opts.address ?? (opts.kind === 'IC-705' ? 0xa4 : 0xa2);
    this.state = initialState(opts.kind, opts.echo ?? false, opts.transceive ?? true);
  }

  get echo(): boolean {
    return this.state.echo;
  }
  set echo(on: boolean) {
    this.state.echo = on;
  }
  get transceive(): boolean {
    return this.state.transceive;
  }
  set transceive(on: boolean) {
    this.state.transceive = on;
  }
  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  /** Opens the rig end of the line (baud is irrelevant on a pty). */
  open(path: string, baudRate = 115200): Promise<void> {
    if (this.port) return Promise.reject(new Error('the simulator is already open'));
    return new Promise((resolve, reject) => {
      const p = new SerialPort({ path, baudRate, autoOpen: false });
      p.open((err) => {
        if (err) return reject(err);
        this.port = p;
        this.preamble = 0;
        this.body = null;
        p.on('data', (chunk: Buffer) => this.onBytes(chunk));
        p.on('error', () => {}); // an unplugged cable: 'close' follows
        p.on('close', () => {
          if (this.port === p) void this.close();
        });
        // A pulled cable is not always reported: after a pty hangup a read can return 0 bytes,
        // which serialport retries forever. The rig end goes away with its device path instead.
        this.watch = setInterval(() => {
          if (!existsSync(path)) void this.close();
        }, 50);
        this.watch.unref();
        resolve();
      });
    });
  }

  /**
   * Drives the rig without a serial port (a LAN emulator, say): every byte the rig writes goes to
   * `write` (one call per frame it sends, as on the port), and `feed` hands it received bytes,
   * parsed exactly as from the port. One attachment at a time. It works alongside an open port
   * (replies then go to both), but the two share one frame parser, so don't feed both at once.
   */
  attach(write: (bytes: Uint8Array) => void): { feed(bytes: Uint8Array): void; detach(): void } {
    if (this.sink) throw new Error('the simulator is already attached');
    this.sink = write;
    return {
      feed: (bytes) => {
        if (this.sink === write) this.onBytes(Buffer.from(bytes));
      },
      detach: () => {
        if (this.sink === write) this.sink = null;
      },
    };
  }

  /**
   * Calls `listener` whenever CI-V 1C 00 00/01 changes the transmit state (a repeated key-up, a
   * dropApply fault or a direct write to state.transmitting does not). Returns the unsubscribe.
   */
  onPtt(listener: (on: boolean) => void): () => void {
    this.pttListeners.add(listener);
    return () => this.pttListeners.delete(listener);
  }

  close(): Promise<void> {
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const p = this.port;
    this.port = null;
    if (!p || !p.isOpen) return Promise.resolve();
    return new Promise((resolve) => p.close(() => resolve()));
  }

  clearLog(): void {
    this.log.length = 0;
  }

  /**
   * The operator turns a VFO's dial. IC-705: 'A'/'B' (MAIN/SUB are taken as A/B). IC-9700:
   * 'MAIN'/'SUB' (or 'A'/'B', as in state.vfoA/vfoB) is that band's operating VFO. With
   * transceive on, a change to the operating VFO (what 03 reads) is broadcast: FE FE 00 <addr> 00 <freq> FD.
   */
  turnKnob(vfo: 'A' | 'B' | 'MAIN' | 'SUB', hz: number): void {
    if (!Number.isInteger(hz) || !this.inRange(hz)) throw new RangeError(`${this.kind} cannot tune to ${hz} Hz`);
    const v = this.panelVfo(vfo);
    v.freq = hz;
    if (this.state.transceive && v === this.op()) this.write([PRE, PRE, BROADCAST, this.address, 0x00, ...writeFreq(hz), EOM]);
  }

  /** The operator picks a mode (and filter) for a VFO; broadcast with 01 like turnKnob. */
  pressMode(vfo: 'A' | 'B' | 'MAIN' | 'SUB', mode: SimMode, filter: 1 | 2 | 3 = 1): void {
    if (!MODES_OF[this.kind].includes(mode)) throw new RangeError(`${this.kind} has no mode ${mode}`);
    const v = this.panelVfo(vfo);
    Object.assign(v, { mode, filter, data: false });
    if (this.state.transceive && v === this.op()) this.write([PRE, PRE, BROADCAST, this.address, 0x01, MODE_CODES[mode], filter, EOM]);
  }

  /** A bus collision as a radio signals it. */
  jam(): void {
    this.write([PRE, PRE, COLLISION, COLLISION, COLLISION, EOM]);
  }

  /** Writes raw bytes to the controller (unsolicited frames, noise). */
  sendRaw(bytes: ArrayLike<number>): void {
    this.write(Array.from(bytes));
  }

  private write(bytes: number[]): void {
    if (this.port?.isOpen) this.port.write(Buffer.from(bytes));
    this.sink?.(Uint8Array.from(bytes));
  }

  private panelVfo(which: 'A' | 'B' | 'MAIN' | 'SUB'): SimVfo {
    const first = which === 'A' || which === 'MAIN';
    if (this.kind === 'IC-705') return first ? this.state.main.vfoA : this.state.main.vfoB;
    const band = first ? this.state.main : this.state.sub;
    return band[opKey(band)];
  }

  private curBand(): SimBand {
    return this.state.band === 'MAIN' ? this.state.main : this.state.sub;
  }

  private otherBand(): SimBand {
    return this.state.band === 'MAIN' ? this.state.sub : this.state.main;
  }

  /** The operating VFO: the selected VFO of the selected band (what 03/05 address). */
  private op(): SimVfo {
    const b = this.curBand();
    return b[opKey(b)];
  }

  /** 0x25/0x26 slots: 00 the selected VFO, 01 the unselected one (of the selected band). */
  private slot(s: number): SimVfo {
    const b = this.curBand();
    const sel = opKey(b);
    return s === 0 ? b[sel] : b[sel === 'vfoA' ? 'vfoB' : 'vfoA'];
  }

  private inRange(hz: number): boolean {
    return RANGES[this.kind].some(([lo, hi]) => hz >= lo && hz <= hi);
  }

  /** Whether a VFO of the selected band may be tuned to hz (range; IC-9700: not onto the other band's band). */
  private tunable(hz: number | null): hz is number {
    if (hz === null || !this.inRange(hz)) return false;
    if (this.kind === 'IC-9700') {
      const other = this.otherBand();
      if (hamBand(other[opKey(other)].freq) === hamBand(hz)) return false; // MAIN and SUB cannot share a band
    }
    return true;
  }

  private modeFrom(code: number | undefined, v: SimVfo): SimMode | null {
    const m = MODES_OF[this.kind].find((k) => MODE_CODES[k] === code);
    if (!m) return null;
    if (m === 'DD' && (this.state.satMode || hamBand(v.freq) !== '23cm')) return null; // DD: 1200 MHz band, not in satellite mode
    return m;
  }

  // ---- the wire -------------------------------------------------------------------------

  private onBytes(chunk: Buffer): void {
    if (this.state.echo && !this.faults.noReplyAtAll) this.write(Array.from(chunk));
    for (const b of chunk) {
      if (b === PRE) {
        if (this.body && this.body.length > 0) this.body = null; // a new frame starts mid-frame: resync
        this.preamble++;
        continue;
      }
      if (!this.body) {
        if (this.preamble < 2) {
          this.preamble = 0; // noise outside a frame
          continue;
        }
        this.body = [];
      }
      this.preamble = 0;
      if (b === EOM) {
        const frame = this.body;
        this.body = null;
        this.onFrame(frame);
      } else if (b === COLLISION || this.body.length > 64) {
        this.body = null; // a collision (or a runaway frame) spoils the frame
      } else {
        this.body.push(b);
      }
    }
  }

  private onFrame(body: number[]): void {
    if (body.length < 3) return;
    const [to, from, cmd, ...data] = body;
    if ((to !== this.address && to !== BROADCAST) || from === this.address) return;
    this.log.push({ at: Date.now(), bytes: hex([PRE, PRE, ...body, EOM]), to, from, cmd, data });
    if (this.faults.noReplyAtAll) return;
    let reply: number[];
    if (this.faults.ngTo.has(cmd)) reply = [NG];
    else {
      const out = this.execute(cmd, data);
      if (out === null) reply = [NG];
      else if ('read' in out) reply = out.read;
      else {
        if (!this.faults.dropApply) out.set();
        reply = [OK];
      }
    }
    if (this.faults.noReplyTo.has(cmd)) return; // carried out, never answered
    if (this.faults.loseReplies) {
      this.faults.loseReplies--;
      return; // carried out, this reply lost
    }
    if (this.faults.garble) reply = garbled(reply, cmd, data);
    const frame = [PRE, PRE, from, this.address, ...reply, EOM];
    if (this.faults.delayMs > 0) {
      const t = setTimeout(() => {
        this.timers.delete(t);
        this.write(frame);
      }, this.faults.delayMs);
      this.timers.add(t);
    } else this.write(frame);
  }

  // ---- the commands ---------------------------------------------------------------------

  private execute(cmd: number, d: number[]): Outcome {
    const s = this.state;
    const nineSeven = this.kind === 'IC-9700';
    const onOff = (x: number | undefined): boolean | null => (x === 0x00 ? false : x === 0x01 ? true : null);
    switch (cmd) {
      case 0x03: // read operating frequency
        return d.length === 0 ? { read: [0x03, ...writeFreq(this.op().freq)] } : null;
      case 0x04: // read operating mode: mode, filter
        return d.length === 0 ? { read: [0x04, MODE_CODES[this.op().mode], this.op().filter] } : null;
      case 0x05: {
        const hz = readFreq(d);
        if (!this.tunable(hz)) return null;
        const v = this.op();
        return { set: () => (v.freq = hz) };
      }
      case 0x06: {
        // mode [filter]; without a filter the mode's default (FIL1) is taken. 06 has no data field.
        const v = this.op();
        const mode = this.modeFrom(d[0], v);
        const filter = d.length === 2 ? d[1] : 1;
        if (d.length < 1 || d.length > 2 || !mode || !isFilter(filter)) return null;
        return { set: () => Object.assign(v, { mode, filter }) };
      }
      case 0x07:
        return this.vfoCommand(d);
      case 0x0f: {
        if (d.length === 0) return { read: [0x0f, s.split ? 0x01 : 0x00] };
        const on = onOff(d[0]);
        if (d.length !== 1 || on === null || (on && s.satMode)) return null; // no split in satellite mode
        return { set: () => (s.split = on) };
      }
      case 0x14: {
        if (d[0] !== 0x03) return null;
        const band = this.curBand();
        if (d.length === 1) return { read: [0x14, 0x03, ...writeBcdBE(band.squelch, 2)] };
        const level = d.length === 3 ? readBcdBE(d.slice(1)) : null;
        if (level === null || level > 255) return null;
        return { set: () => (band.squelch = level) };
      }
      case 0x16: {
        const sub = d[0];
        const tone = this.op().tone;
        let get: () => boolean;
        let put: (on: boolean) => void;
        if (sub === 0x42) [get, put] = [() => tone.toneOn, (on) => (tone.toneOn = on)];
        else if (sub === 0x43) [get, put] = [() => tone.tsqlOn, (on) => (tone.tsqlOn = on)];
        else if (sub === 0x5a && nineSeven) {
          get = () => s.satMode;
          put = (on) => {
            s.satMode = on;
            if (on) s.split = false; // satellite mode is a split of its own; split is off in it
          };
        } else return null;
        if (d.length === 1) return { read: [0x16, sub, get() ? 0x01 : 0x00] };
        const on = onOff(d[1]);
        if (d.length !== 2 || on === null) return null;
        return { set: () => put(on) };
      }
      case 0x1b: {
        const sub = d[0];
        if (sub !== 0x00 && sub !== 0x01) return null;
        const tone = this.op().tone;
        const key = sub === 0x00 ? 'repeaterToneHz' : 'tsqlHz';
        if (d.length === 1) return { read: [0x1b, sub, ...writeBcdBE(Math.round(tone[key] * 10), 3)] };
        const tenths = d.length === 4 ? readBcdBE(d.slice(1)) : null;
        if (tenths === null || !CTCSS_TENTHS.includes(tenths)) return null;
        return { set: () => (tone[key] = tenths / 10) };
      }
      case 0x1c: {
        // 1C 00 [00|01]: transmit state (read with no data byte).
        if (d[0] !== 0x00) return null;
        if (d.length === 1) return { read: [0x1c, 0x00, s.transmitting ? 0x01 : 0x00] };
        const on = d.length === 2 ? onOff(d[1]) : null;
        if (on === null) return null;
        return {
          set: () => {
            const was = s.transmitting;
            s.transmitting = on;
            if (was !== on) for (const l of this.pttListeners) l(on);
          },
        };
      }
      case 0x25: {
        if (s.satMode) return null; // the IC-9700 cannot do 0x25/0x26 in satellite mode
        const slot = d[0];
        if (slot !== 0x00 && slot !== 0x01) return null;
        const v = this.slot(slot);
        if (d.length === 1) return { read: [0x25, slot, ...writeFreq(v.freq)] };
        const hz = readFreq(d.slice(1));
        if (!this.tunable(hz)) return null;
        return { set: () => (v.freq = hz) };
      }
      case 0x26: {
        if (s.satMode) return null;
        const slot = d[0];
        if (slot !== 0x00 && slot !== 0x01) return null;
        const v = this.slot(slot);
        if (d.length === 1) return { read: [0x26, slot, MODE_CODES[v.mode], v.data ? 0x01 : 0x00, v.filter] };
        // mode [data [filter]]: skipped data is DATA OFF, a skipped filter the mode's default (FIL1).
        const mode = this.modeFrom(d[1], v);
        const data = d.length >= 3 ? onOff(d[2]) : false;
        const filter = d.length === 4 ? d[3] : 1;
        if (d.length > 4 || !mode || data === null || !isFilter(filter) || (data && !DATA_MODES.includes(mode))) return null;
        return { set: () => Object.assign(v, { mode, data, filter }) };
      }
      case 0x27:
        return this.scopeCommand(d);
      default:
        return null;
    }
  }

  private vfoCommand(d: number[]): Outcome {
    const s = this.state;
    const nineSeven = this.kind === 'IC-9700';
    const band = this.curBand();
    const op = d[0];
    if (nineSeven && op === 0xd2) {
      // read / set the selected band: 00 MAIN, 01 SUB
      if (d.length === 1) return { read: [0x07, 0xd2, s.band === 'MAIN' ? 0x00 : 0x01] };
      if (d.length !== 2 || (d[1] !== 0x00 && d[1] !== 0x01)) return null;
      return { set: () => (s.band = d[1] === 0x00 ? 'MAIN' : 'SUB') };
    }
    if (d.length !== 1) return null;
    switch (op) {
      case 0x00:
        return { set: () => (band.selected = 'A') };
      case 0x01:
        if (s.satMode) return null; // no VFO B in satellite mode
        return { set: () => (band.selected = 'B') };
      case 0xa0: // equalize: the unselected VFO becomes a copy of the selected one
        return {
          set: () => {
            if (band.selected === 'A') band.vfoB = cloneVfo(band.vfoA);
            else band.vfoA = cloneVfo(band.vfoB);
          },
        };
      case 0xb0: // exchange: IC-705 VFO A and B; IC-9700 the MAIN and SUB bands
        return {
          set: () => {
            if (nineSeven) [s.main, s.sub] = [s.sub, s.main];
            else [band.vfoA, band.vfoB] = [band.vfoB, band.vfoA];
          },
        };
      case 0xd0:
      case 0xd1:
        if (!nineSeven) return null;
        return { set: () => (s.band = op === 0xd0 ? 'MAIN' : 'SUB') };
      default:
        return null;
    }
  }

  private scopeCommand(d: number[]): Outcome {
    const s = this.state;
    const sub = d[0];
    if (sub === 0x10) {
      if (d.length === 1) return { read: [0x27, 0x10, s.scope.on ? 0x01 : 0x00] };
      if (d.length !== 2 || (d[1] !== 0x00 && d[1] !== 0x01)) return null;
      return { set: () => (s.scope.on = d[1] === 0x01) };
    }
    if (sub !== 0x14 && sub !== 0x15) return null;
    // 00 the main scope; 01 the sub scope, which only the IC-9700 has
    const which = d[1];
    if (which !== 0x00 && !(which === 0x01 && this.kind === 'IC-9700')) return null;
    const target = which === 0x00 ? s.scope : s.scopeSub;
    if (sub === 0x14) {
      if (d.length === 2) return { read: [0x27, 0x14, which, SCOPE_MODES.indexOf(target.mode)] };
      const mode = SCOPE_MODES[d[2]];
      if (d.length !== 3 || !mode) return null;
      return { set: () => (target.mode = mode) };
    }
    if (d.length === 2) return { read: [0x27, 0x15, which, ...writeFreq(target.spanHalfHz)] };
    const half = readFreq(d.slice(2));
    if (half === null || !HALF_SPANS.includes(half)) return null; // the ± value: 1 MHz wide is 500000
    return { set: () => (target.spanHalfHz = half) };
  }
}

function isFilter(f: number): f is 1 | 2 | 3 {
  return f === 1 || f === 2 || f === 3;
}

function hamBand(hz: number): '2m' | '70cm' | '23cm' | null {
  if (hz >= 144_000_000 && hz <= 148_000_000) return '2m';
  if (hz >= 430_000_000 && hz <= 450_000_000) return '70cm';
  if (hz >= 1_240_000_000 && hz <= 1_300_000_000) return '23cm';
  return null;
}

/** Leading bytes of a reply that name what it answers (command, sub-command): kept by garble. */
function garbled(reply: number[], cmd: number, data: number[]): number[] {
  if (reply.length === 1) return [0xaa, 0xbb]; // OK / NG
  const keep = 1 + (cmd === 0x27 ? (data[0] === 0x10 ? 1 : 2) : [0x07, 0x14, 0x16, 0x1b, 0x25, 0x26].includes(cmd) ? 1 : 0);
  return [...reply.slice(0, keep), ...reply.slice(keep).map(() => 0xaa)];
}
