import { SerialPort } from 'serialport';

// An Icom CI-V rig simulator (IC-705 or IC-9700) on the rig end of a pseudo-terminal. It is an
// independent reading of Icom's CI-V reference, sharing no code with src/radio: strict like the
// radio (a wrongly encoded value gets NG), with state a test can read and set, USB echo, transceive
// broadcasts from a turned knob, and fault switches. See README.md in this folder.

export type RigKind = 'IC-705' | 'IC-9700';

export interface SimVfo {
  freq: number;
  mode: string;
  data: boolean;
  filter: number;
  tone: { repeaterToneHz: number; tsqlHz: number; toneOn: boolean; tsqlOn: boolean };
}

export interface RigSimOptions {
  kind: RigKind;
  address?: number;
  echo?: boolean;
  transceive?: boolean;
}

const MODES: Record<number, string> = { 0x00: 'LSB', 0x01: 'USB', 0x02: 'AM', 0x03: 'CW', 0x04: 'RTTY', 0x05: 'FM', 0x06: 'WFM', 0x07: 'CW-R', 0x08: 'RTTY-R', 0x17: 'DV' };
const MODE_CODE: Record<string, number> = Object.fromEntries(Object.entries(MODES).map(([k, v]) => [v, Number(k)]));
const CTCSS = [67.0, 69.3, 71.9, 74.4, 77.0, 79.7, 82.5, 85.4, 88.5, 91.5, 94.8, 97.4, 100.0, 103.5, 107.2, 110.9, 114.8, 118.8, 123.0, 127.3, 131.8, 136.5, 141.3, 146.2, 151.4, 156.7, 159.8, 162.2, 165.5, 167.9, 171.3, 173.8, 177.3, 179.9, 183.5, 186.2, 189.9, 192.8, 196.6, 199.5, 203.5, 206.5, 210.7, 218.1, 225.7, 229.1, 233.6, 241.8, 250.3, 254.1].map((t) => Math.round(t * 10));
const SCOPE_MODES = ['center', 'fixed', 'scroll-center', 'scroll-fixed'];
/** The IC-705's centre-mode spans as the radio states them: ± this much. */
const HALF_SPANS = [2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000];
const RANGES: Record<RigKind, Array<[number, number]>> = {
  'IC-705': [[30_000, 199_999_999], [400_000_000, 470_000_000]],
  'IC-9700': [[144_000_000, 148_000_000], [430_000_000, 450_000_000], [1_240_000_000, 1_300_000_000]],
};

const vfo = (freq: number, mode = 'FM'): SimVfo => ({ freq, mode, data: false, filter: 1, tone: { repeaterToneHz: 88.5, tsqlHz: 88.5, toneOn: false, tsqlOn: false } });
const hex = (b: ArrayLike<number>) => Array.from(b, (x) => x.toString(16).padStart(2, '0').toUpperCase()).join(' ');

/** 5 bytes, least significant pair of digits first; null when a nibble is not a digit. */
function freqFrom(b: number[]): number | null {
  if (b.length !== 5) return null;
  let hz = 0;
  for (let i = 4; i >= 0; i--) {
    const hi = b[i] >> 4, lo = b[i] & 15;
    if (hi > 9 || lo > 9) return null;
    hz = hz * 100 + hi * 10 + lo;
  }
  return hz;
}
function freqTo(hz: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < 5; i++) {
    const two = Math.floor(hz / 100 ** i) % 100;
    out.push(((Math.floor(two / 10)) << 4) | two % 10);
  }
  return out;
}
/** Big-endian BCD of n digits (2 per byte). */
function bcdFrom(b: number[]): number | null {
  let v = 0;
  for (const x of b) {
    if (x >> 4 > 9 || (x & 15) > 9) return null;
    v = v * 100 + (x >> 4) * 10 + (x & 15);
  }
  return v;
}
function bcdTo(v: number, bytes: number): number[] {
  const out: number[] = [];
  for (let i = bytes - 1; i >= 0; i--) {
    const two = Math.floor(v / 100 ** i) % 100;
    out.push((Math.floor(two / 10) << 4) | two % 10);
  }
  return out;
}

export class CivRigSim {
  readonly kind: RigKind;
  readonly address: number;
  echo: boolean;
  transceive: boolean;
  readonly state = {
    vfoA: vfo(145_000_000),
    vfoB: vfo(435_000_000),
    selected: 'A' as 'A' | 'B',
    split: false,
    squelch: 128,
    scope: { on: false, mode: 'center', spanHalfHz: 25_000 },
    /** IC-9700: satellite mode, and which band 03–06/25/26 act on (MAIN = vfoA, SUB = vfoB). */
    satMode: false,
    band: 'MAIN' as 'MAIN' | 'SUB',
  };
  readonly log: Array<{ at: number; bytes: string; cmd: number; data: number[] }> = [];
  readonly faults = { noReplyTo: new Set<number>(), ngTo: new Set<number>(), noReplyAtAll: false, delayMs: 0, garble: false };
  private port: SerialPort | null = null;
  private buf: number[] = [];

  constructor(o: RigSimOptions) {
    this.kind = o.kind;
    this.address = o.address ?? (o.kind === 'IC-705' ? 0xa4 : 0xa2);
    this.echo = o.echo ?? false;
    this.transceive = o.transceive ?? true;
    if (o.kind === 'IC-9700') {
      this.state.vfoA = vfo(145_900_000, 'LSB');
      this.state.vfoB = vfo(435_800_000, 'USB');
    }
  }

  open(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const p = new SerialPort({ path, baudRate: 115200, autoOpen: false });
      p.open((err) => {
        if (err) return reject(err);
        this.port = p;
        this.buf = [];
        p.on('data', (d: Buffer) => this.onBytes(d));
        p.on('error', () => {});
        p.on('close', () => {
          if (this.port === p) this.port = null;
        });
        resolve();
      });
    });
  }

  close(): Promise<void> {
    const p = this.port;
    this.port = null;
    if (!p || !p.isOpen) return Promise.resolve();
    return new Promise((r) => p.close(() => r()));
  }

  clearLog(): void {
    this.log.length = 0;
  }

  /** The operator turns the dial of a VFO; with transceive on, the selected VFO's change is broadcast. */
  turnKnob(which: 'A' | 'B' | 'MAIN' | 'SUB', hz: number): void {
    const v = which === 'A' || which === 'MAIN' ? this.state.vfoA : this.state.vfoB;
    v.freq = hz;
    const selected = this.kind === 'IC-705' ? (which === 'A' ? 'A' : 'B') === this.state.selected : (which === 'MAIN' || which === 'A' ? 'MAIN' : 'SUB') === this.state.band;
    if (this.transceive && selected) this.send([0xfe, 0xfe, 0x00, this.address, 0x00, ...freqTo(hz), 0xfd]);
  }

  /** A bus collision as the radio signals it. */
  jam(): void {
    this.send([0xfe, 0xfe, 0xfc, 0xfc, 0xfc, 0xfd]);
  }

  private send(bytes: number[]): void {
    if (this.port?.isOpen) this.port.write(Buffer.from(bytes));
  }

  private onBytes(d: Buffer): void {
    for (const b of d) {
      if (b === 0xfe) {
        if (this.buf.length === 2 && this.buf[1] === 0xfe) continue; // a longer preamble
        if (this.buf.length !== 1) this.buf = []; // FE starts a frame, even mid-frame
        this.buf.push(b);
        continue;
      }
      if (this.buf.length < 2) {
        this.buf = []; // garbage before a preamble
        continue;
      }
      this.buf.push(b);
      if (b === 0xfd) {
        const frame = this.buf;
        this.buf = [];
        if (frame.length >= 6 && !frame.includes(0xfc)) this.onFrame(frame);
      } else if (this.buf.length > 64) this.buf = [];
    }
  }

  private onFrame(frame: number[]): void {
    const [, , to, from, cmd, ...rest] = frame;
    if (to !== this.address && to !== 0x00) return;
    const data = rest.slice(0, -1);
    if (this.echo) this.send(frame);
    this.log.push({ at: Date.now(), bytes: hex(frame), cmd, data });
    // The command is carried out first: a reply that never comes does not undo it (spec's 0x25 case).
    const answer = this.faults.ngTo.has(cmd) ? null : this.execute(cmd, data);
    if (this.faults.noReplyAtAll || this.faults.noReplyTo.has(cmd)) return;
    let body = answer ?? [0xfa];
    if (this.faults.garble) body = body.length > 1 ? [body[0], ...body.slice(1).map(() => 0xaa)] : [0xaa, 0xbb];
    const reply = [0xfe, 0xfe, from, this.address, ...body, 0xfd];
    if (this.faults.delayMs > 0) setTimeout(() => this.send(reply), this.faults.delayMs);
    else this.send(reply);
  }

  private okFreq(hz: number | null): hz is number {
    return hz !== null && RANGES[this.kind].some(([lo, hi]) => hz >= lo && hz <= hi);
  }

  /** The VFO 03–06 and slot 00 of 25/26 act on; slot 01 is the other one. */
  private target(slot: 0 | 1): SimVfo {
    if (this.kind === 'IC-9700') {
      const main = this.state.band === 'MAIN';
      return (slot === 0) === main ? this.state.vfoA : this.state.vfoB;
    }
    const a = this.state.selected === 'A';
    return (slot === 0) === a ? this.state.vfoA : this.state.vfoB;
  }

  /** Reply body (cmd + data) for a read, [FB] for a good set, null (NG) for anything wrong. */
  private execute(cmd: number, d: number[]): number[] | null {
    const OK = [0xfb];
    const s = this.state;
    const onOff = (x: number | undefined) => (x === 0 || x === 1 ? x === 1 : null);
    switch (cmd) {
      case 0x03:
        return d.length === 0 ? [0x03, ...freqTo(this.target(0).freq)] : null;
      case 0x04:
        return d.length === 0 ? [0x04, MODE_CODE[this.target(0).mode], this.target(0).filter] : null;
      case 0x05: {
        const hz = freqFrom(d);
        if (!this.okFreq(hz)) return null;
        this.target(0).freq = hz;
        return OK;
      }
      case 0x06: {
        if (d.length < 1 || d.length > 2 || !(d[0] in MODES) || (d.length === 2 && (d[1] < 1 || d[1] > 3))) return null;
        Object.assign(this.target(0), { mode: MODES[d[0]], data: false, filter: d[1] ?? 1 });
        return OK;
      }
      case 0x07: {
        if (d.length !== 1) return null;
        if (this.kind === 'IC-705' && (d[0] === 0x00 || d[0] === 0x01)) s.selected = d[0] === 0 ? 'A' : 'B';
        else if (this.kind === 'IC-9700' && (d[0] === 0xd0 || d[0] === 0xd1)) s.band = d[0] === 0xd0 ? 'MAIN' : 'SUB';
        else if (d[0] === 0xb0) [s.vfoA, s.vfoB] = [s.vfoB, s.vfoA];
        else if (d[0] === 0xa0) Object.assign(this.target(1), structuredClone(this.target(0)));
        else return null;
        return OK;
      }
      case 0x0f: {
        if (d.length === 0) return [0x0f, s.split ? 1 : 0];
        const on = onOff(d[0]);
        if (d.length !== 1 || on === null || (on && s.satMode)) return null;
        s.split = on;
        return OK;
      }
      case 0x14: {
        if (d[0] !== 0x03) return null;
        if (d.length === 1) return [0x14, 0x03, ...bcdTo(s.squelch, 2)];
        const lvl = d.length === 3 ? bcdFrom(d.slice(1)) : null;
        if (lvl === null || lvl > 255) return null;
        s.squelch = lvl;
        return OK;
      }
      case 0x16: {
        const sub = d[0];
        const tone = this.target(0).tone;
        const key = sub === 0x42 ? 'toneOn' : sub === 0x43 ? 'tsqlOn' : sub === 0x5a && this.kind === 'IC-9700' ? 'sat' : null;
        if (!key) return null;
        if (d.length === 1) return [0x16, sub, (key === 'sat' ? s.satMode : tone[key as 'toneOn']) ? 1 : 0];
        const on = onOff(d[1]);
        if (d.length !== 2 || on === null) return null;
        if (key === 'sat') {
          s.satMode = on;
          if (on) s.split = false;
        } else tone[key as 'toneOn'] = on;
        return OK;
      }
      case 0x1b: {
        const sub = d[0];
        if (sub !== 0x00 && sub !== 0x01) return null;
        const tone = this.target(0).tone;
        const key = sub === 0 ? 'repeaterToneHz' : 'tsqlHz';
        if (d.length === 1) return [0x1b, sub, ...bcdTo(Math.round(tone[key] * 10), 3)];
        const tenths = d.length === 4 ? bcdFrom(d.slice(1)) : null;
        if (tenths === null || !CTCSS.includes(tenths)) return null;
        tone[key] = tenths / 10;
        return OK;
      }
      case 0x25:
      case 0x26: {
        if (this.kind === 'IC-9700' && s.satMode) return null; // not in satellite mode
        const slot = d[0];
        if (slot !== 0 && slot !== 1) return null;
        const v = this.target(slot);
        if (cmd === 0x25) {
          if (d.length === 1) return [0x25, slot, ...freqTo(v.freq)];
          const hz = freqFrom(d.slice(1));
          if (!this.okFreq(hz)) return null;
          v.freq = hz;
          return OK;
        }
        if (d.length === 1) return [0x26, slot, MODE_CODE[v.mode], v.data ? 1 : 0, v.filter];
        if (d.length !== 4 || !(d[1] in MODES) || (d[2] !== 0 && d[2] !== 1) || d[3] < 1 || d[3] > 3) return null;
        Object.assign(v, { mode: MODES[d[1]], data: d[2] === 1, filter: d[3] });
        return OK;
      }
      case 0x27: {
        const sub = d[0];
        if (sub === 0x10) {
          if (d.length === 1) return [0x27, 0x10, s.scope.on ? 1 : 0];
          const on = onOff(d[1]);
          if (d.length !== 2 || on === null) return null;
          s.scope.on = on;
          return OK;
        }
        if ((sub === 0x14 || sub === 0x15) && d[1] !== 0x00) return null; // main scope only
        if (sub === 0x14) {
          if (d.length === 2) return [0x27, 0x14, 0x00, SCOPE_MODES.indexOf(s.scope.mode)];
          if (d.length !== 3 || d[2] > 3) return null;
          s.scope.mode = SCOPE_MODES[d[2]];
          return OK;
        }
        if (sub === 0x15) {
          if (d.length === 2) return [0x27, 0x15, 0x00, ...freqTo(s.scope.spanHalfHz)];
          const half = freqFrom(d.slice(2));
          if (half === null || !HALF_SPANS.includes(half)) return null;
          s.scope.spanHalfHz = half;
          return OK;
        }
        return null;
      }
      default:
        return null;
    }
  }
}
