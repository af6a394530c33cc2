import { openRigEnd, type RigEnd } from './rig-end.js';
// Big-endian BCD and the CTCSS tones are the same on both makers' wires: one reading of them.
import { CTCSS_TENTHS, readBcdBE as fromBcd, writeBcdBE as toBcd } from './civ-rig.js';

// A Yaesu FT-817/818/857/897 on the rig end of a pseudo-terminal, speaking the 5-byte CAT. It is
// an independent reading of Hamlib's rigs/yaesu/ft817.c, ft857.c and ft897.c and its issue logs,
// and shares no code with src/ (see README.md): two VFOs, split, PTT by CAT or by the operator's
// hand, CTCSS per VFO, the ACK byte, and the radio's refusal of control while it transmits.
// README.md in this folder documents it; docs/decisions/yaesu.md says where it guesses.

export type YaesuSimModel = 'FT-817' | 'FT-818' | 'FT-857' | 'FT-897';
export type YaesuSimMode = 'LSB' | 'USB' | 'CW' | 'CW-R' | 'AM' | 'WFM' | 'FM' | 'FM-N' | 'DIG' | 'PKT';
export type YaesuSimToneMode = 'off' | 'ctcss' | 'ctcss-enc' | 'ctcss-dec' | 'dcs' | 'dcs-enc' | 'dcs-dec';

export interface YaesuSimVfo {
  /** Hz, a multiple of 10 (the CAT's resolution). */
  freq: number;
  mode: YaesuSimMode;
  toneMode: YaesuSimToneMode;
  /** The transmit CTCSS tone (P1 P2 of 0B). */
  toneHz: number;
  /** FT-857/897: the receive tone (P3 P4 of 0B). The FT-817/818 have one tone and ignore P3 P4. */
  rxToneHz: number;
}

export interface YaesuSimState {
  vfoA: YaesuSimVfo;
  vfoB: YaesuSimVfo;
  /** The VFO the radio stands on: 01, 07, 0A and 0B act on it, 03 reads it, 81 swaps it. */
  current: 'A' | 'B';
  split: boolean;
  /** Keyed by CAT (08 / 88). */
  catPtt: boolean;
  /** Keyed by the operator's microphone (keyByHand()); CAT's 88 does not release it. */
  handPtt: boolean;
  locked: boolean;
  /** What E7 reports. */
  rx: { squelchOpen: boolean; toneMatched: boolean; centered: boolean; sMeter: number };
  /** What F7 reports while keyed. */
  tx: { highSwr: boolean; powerMeter: number };
  /** The DIG sub-mode the menu holds (0..7, the top 3 bits of its EEPROM byte). */
  digMode: number;
}

export interface YaesuLogEntry {
  /** Date.now() when the fifth byte arrived. */
  at: number;
  /** The five bytes as hex: "14 58 00 00 01". */
  bytes: string;
  opcode: number;
  /** What the radio answered, as hex ('' for nothing). */
  reply: string;
  /** Carried out (reads always are); false for an F0 or an unknown opcode. */
  done: boolean;
}

export interface YaesuSimFaults {
  /** Nothing answered or carried out (commands are still logged). */
  silent: boolean;
  /** Every reply is held back this long. */
  delayMs: number;
  /** Replies keep their length but their bytes become AA. */
  garble: boolean;
}

const OP = {
  LOCK_ON: 0x00, SET_FREQ: 0x01, SPLIT_ON: 0x02, READ_FREQ_MODE: 0x03, SET_MODE: 0x07, PTT_ON: 0x08, TONE_MODE: 0x0a, CTCSS_TONE: 0x0b,
  LOCK_OFF: 0x80, TOGGLE: 0x81, SPLIT_OFF: 0x82, PTT_OFF: 0x88, READ_EEPROM: 0xbb, READ_RX: 0xe7, READ_TX: 0xf7,
} as const;
const OK = 0x00;
const REFUSED = 0xf0;

const SET_MODES: Record<number, YaesuSimMode> = { 0x00: 'LSB', 0x01: 'USB', 0x02: 'CW', 0x03: 'CW-R', 0x04: 'AM', 0x08: 'FM', 0x88: 'FM-N', 0x0a: 'DIG', 0x0c: 'PKT' };
/** The 03 reply's mode byte; bit 7 is the narrow filter. */
const READ_CODES: Record<YaesuSimMode, number> = { LSB: 0x00, USB: 0x01, CW: 0x02, 'CW-R': 0x03, AM: 0x04, WFM: 0x06, FM: 0x08, 'FM-N': 0x88, DIG: 0x0a, PKT: 0x0c };
const TONE_MODES_817: Record<number, YaesuSimToneMode> = { 0x8a: 'off', 0x0a: 'dcs', 0x2a: 'ctcss', 0x4a: 'ctcss-enc' };
const TONE_MODES_857: Record<number, YaesuSimToneMode> = { ...TONE_MODES_817, 0x3a: 'ctcss-dec', 0x0b: 'dcs-dec', 0x0c: 'dcs-enc' };
/** The 50 standard CTCSS tones, tenths of Hz (the same list as the Icom radios'). */
const CTCSS = new Set(CTCSS_TENTHS);
/** Receive ranges (Hamlib's rx_range_list1 for the FT-817; the FT-857/897 cover the same satellite bands). */
const RANGES: Array<[number, number]> = [[100_000, 56_000_000], [76_000_000, 108_000_000], [118_000_000, 164_000_000], [420_000_000, 470_000_000]];
/** EEPROM addresses Hamlib reads: VFO (bit 0), split (bit 7), DIG sub-mode (top 3 bits). */
const EEPROM = {
  '817': { vfo: 0x55, split: 0x7a, dig: 0x65 },
  '857': { vfo: 0x68, split: 0x8d, dig: 0x78 },
} as const;

const hex = (b: ArrayLike<number>) => Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const newVfo = (freq: number, mode: YaesuSimMode): YaesuSimVfo => ({ freq, mode, toneMode: 'off', toneHz: 88.5, rxToneHz: 88.5 });

export class YaesuCatSim {
  readonly model: YaesuSimModel;
  readonly state: YaesuSimState;
  /** Every complete 5-byte command, in arrival order. */
  readonly log: YaesuLogEntry[] = [];
  /** Every byte received, for comparing with what another program wrote. */
  readonly received: number[] = [];
  readonly faults: YaesuSimFaults = { silent: false, delayMs: 0, garble: false };
  /** The baud rate open() was given (a pty ignores it; the radios take 4800, 9600 or 38400). */
  baudRate = 0;
  /**
   * Take the line's time: a pty moves bytes at once whatever the baud, so with pace on every reply
   * waits for what a serial line at baudRate would take to carry the bytes that brought it and its
   * own (8N2: 11 bits a byte), on top of faults.delayMs.
   */
  pace = false;
  private port: RigEnd | null = null;
  private pending: number[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(opts: { model: YaesuSimModel }) {
    if (!['FT-817', 'FT-818', 'FT-857', 'FT-897'].includes(opts.model)) throw new RangeError(`unknown model ${String(opts.model)}`);
    this.model = opts.model;
    this.state = {
      vfoA: newVfo(145_800_000, 'FM'),
      vfoB: newVfo(435_800_000, 'FM'),
      current: 'A',
      split: false,
      catPtt: false,
      handPtt: false,
      locked: false,
      rx: { squelchOpen: false, toneMatched: true, centered: true, sMeter: 0 },
      tx: { highSwr: false, powerMeter: 8 },
      digMode: 0,
    };
  }

  private get family(): '817' | '857' {
    return this.model === 'FT-817' || this.model === 'FT-818' ? '817' : '857';
  }

  /** Transmitting, by CAT or by hand. */
  get keyed(): boolean {
    return this.state.catPtt || this.state.handPtt;
  }

  /** The VFO 01/07/0A/0B write and 03 reads (while keyed in split, the transmit VFO is shown). */
  get currentVfo(): YaesuSimVfo {
    return this.state.current === 'A' ? this.state.vfoA : this.state.vfoB;
  }

  private get otherVfo(): YaesuSimVfo {
    return this.state.current === 'A' ? this.state.vfoB : this.state.vfoA;
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  /** The operator presses (true) or releases (false) the microphone's PTT. */
  keyByHand(on: boolean): void {
    this.state.handPtt = on;
  }

  clearLog(): void {
    this.log.length = 0;
    this.received.length = 0;
  }

  /** Opens the rig end of the line; the baud is recorded (a pty ignores it, 8N2 too). */
  async open(path: string, baudRate = 9600): Promise<void> {
    if (this.port) throw new Error('the simulator is already open');
    this.pending = [];
    this.port = await openRigEnd(path, { baudRate, stopBits: 2 }, (chunk) => this.send(this.feed(chunk), chunk.length), () => void this.close());
    this.baudRate = baudRate;
  }

  close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    const p = this.port;
    this.port = null;
    return p ? p.close() : Promise.resolve();
  }

  /**
   * Hands the radio received bytes and returns what it answers; the port does this and writes
   * the answer back (after faults.delayMs). A test may call it directly: the answer is then only
   * returned. The radio has no framing: every fifth byte completes a command, so a stray byte
   * shifts every later command until four more restore the count.
   */
  feed(bytes: ArrayLike<number>): number[] {
    const out: number[] = [];
    for (let i = 0; i < bytes.length; i++) {
      this.received.push(bytes[i]);
      this.pending.push(bytes[i]);
      if (this.pending.length === 5) {
        const cmd = this.pending;
        this.pending = [];
        out.push(...this.command(cmd));
      }
    }
    return out;
  }

  private command(cmd: number[]): number[] {
    const entry: YaesuLogEntry = { at: Date.now(), bytes: hex(cmd), opcode: cmd[4], reply: '', done: false };
    this.log.push(entry);
    if (this.faults.silent) return [];
    const r = this.execute(cmd);
    if (r === null) return []; // an opcode the radio does not know: it says nothing
    entry.done = r.done;
    const reply = this.faults.garble ? r.reply.map(() => 0xaa) : r.reply;
    entry.reply = hex(reply);
    return reply;
  }

  /** Writes the reply to bytesIn received bytes, after faults.delayMs and, with pace, the line's time. */
  private send(reply: number[], bytesIn: number): void {
    const p = this.port;
    if (!p || reply.length === 0) return;
    const write = () => p.write(reply);
    const wait = this.faults.delayMs + (this.pace && this.baudRate > 0 ? ((bytesIn + reply.length) * 11 * 1000) / this.baudRate : 0);
    if (wait <= 0) return write();
    // Never sooner than the line would carry it: a timer counts from the loop's cached time and
    // whole milliseconds, so it can fire a little early; it is then armed again for the rest.
    const due = performance.now() + wait;
    const arm = (ms: number) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        const left = due - performance.now();
        if (left > 0) arm(Math.ceil(left));
        else write();
      }, ms);
      this.timers.add(t);
    };
    arm(Math.ceil(wait));
  }

  /** A read's data, or an ACK (00 done / F0 refused); null for an unknown opcode. */
  private execute([p1, p2, p3, p4, op]: number[]): { reply: number[]; done: boolean } | null {
    const s = this.state;
    const ack = (done: boolean) => ({ reply: [done ? OK : REFUSED], done });
    switch (op) {
      case OP.READ_FREQ_MODE: {
        // Keyed in split, the radio shows (and reports) the transmit VFO.
        const v = this.keyed && s.split ? this.otherVfo : this.currentVfo;
        return { reply: [...toBcd(Math.round(v.freq / 10), 4), READ_CODES[v.mode]], done: true };
      }
      case OP.READ_RX: {
        const r = s.rx;
        const b = (r.squelchOpen ? 0 : 0x80) | (r.toneMatched ? 0 : 0x40) | (r.centered ? 0 : 0x20) | (r.sMeter & 0x0f);
        return { reply: [b], done: true };
      }
      case OP.READ_TX:
        // At rest the radio answers FF; keyed, bit 7 is 0 and the rest means something.
        return { reply: [this.keyed ? (s.tx.highSwr ? 0x40 : 0) | (s.split ? 0x20 : 0) | (s.tx.powerMeter & 0x0f) : 0xff], done: true };
      case OP.READ_EEPROM: {
        const addr = (p1 << 8) | p2;
        return { reply: [this.eeprom(addr), this.eeprom(addr + 1)], done: true };
      }
      case OP.PTT_ON:
        if (this.keyed) return ack(false);
        s.catPtt = true;
        return ack(true);
      case OP.PTT_OFF:
        // Releases what CAT keyed; the operator's hand keeps the radio keyed.
        if (!s.catPtt) return ack(false);
        s.catPtt = false;
        return ack(true);
      default:
        break;
    }
    const known = [OP.LOCK_ON, OP.LOCK_OFF, OP.SET_FREQ, OP.SPLIT_ON, OP.SPLIT_OFF, OP.SET_MODE, OP.TONE_MODE, OP.CTCSS_TONE, OP.TOGGLE] as number[];
    if (!known.includes(op)) return null;
    // The radio takes no control while it transmits (Hamlib issue 1052: F0 to 01 on a VOX-keyed FT-857).
    if (this.keyed) return ack(false);
    switch (op) {
      case OP.LOCK_ON:
      case OP.LOCK_OFF: {
        const on = op === OP.LOCK_ON;
        if (s.locked === on) return ack(false);
        s.locked = on;
        return ack(true);
      }
      case OP.SPLIT_ON:
      case OP.SPLIT_OFF: {
        const on = op === OP.SPLIT_ON;
        if (s.split === on) return ack(false);
        s.split = on;
        return ack(true);
      }
      case OP.TOGGLE:
        s.current = s.current === 'A' ? 'B' : 'A';
        return ack(true);
      case OP.SET_FREQ: {
        const tens = fromBcd([p1, p2, p3, p4]);
        const hz = tens === null ? null : tens * 10;
        if (hz === null || !RANGES.some(([lo, hi]) => hz >= lo && hz <= hi)) return ack(false);
        this.currentVfo.freq = hz;
        return ack(true);
      }
      case OP.SET_MODE: {
        const mode = SET_MODES[p1];
        if (mode === undefined) return ack(false);
        this.currentVfo.mode = mode;
        return ack(true);
      }
      case OP.TONE_MODE: {
        const mode = (this.family === '817' ? TONE_MODES_817 : TONE_MODES_857)[p1];
        if (mode === undefined) return ack(false);
        this.currentVfo.toneMode = mode;
        return ack(true);
      }
      case OP.CTCSS_TONE: {
        const tx = fromBcd([p1, p2]);
        const rx = fromBcd([p3, p4]);
        if (tx === null || !CTCSS.has(tx)) return ack(false);
        if (this.family === '857') {
          // The FT-857/897 take P3 P4 as the receive tone and ignore the command without one.
          if (rx === null || !CTCSS.has(rx)) return ack(false);
          this.currentVfo.rxToneHz = rx / 10;
        }
        this.currentVfo.toneHz = tx / 10;
        return ack(true);
      }
    }
    return null;
  }

  /** The EEPROM bytes Hamlib reads; every other address reads 00. */
  private eeprom(addr: number): number {
    const map = EEPROM[this.family];
    if (addr === map.vfo) return this.state.current === 'B' ? 0x01 : 0x00;
    if (addr === map.split) return this.state.split ? 0x80 : 0x00;
    if (addr === map.dig) return (this.state.digMode & 0x07) << 5;
    return 0x00;
  }
}
