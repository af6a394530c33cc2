import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';

// An antenna rotator and its controller on the far end of a pty (pty-pair.ts), speaking one of
// GS-232A, GS-232B, EasyComm II or SPID Rot2Prog. Written from the manufacturers' manuals and
// Hamlib's backends, sharing no code with src/ (see README.md), so a codec bug in the product
// shows as a failed test. The rotator moves like a real one: each axis slews at its own rate
// toward the last commanded target and stops hard at its mechanical end stops; time comes from
// `now()` (real time by default; a test may hand in a simulated clock and run a pass fast).

export type RotatorSimProtocol = 'gs232a' | 'gs232b' | 'easycomm2' | 'rot2prog';

export interface RotatorSimOptions {
  protocol: RotatorSimProtocol;
  az_rate_deg_s?: number; // 6
  el_rate_deg_s?: number; // 3
  /** Where the mechanical stop is: north gives 0..az_max, south the range centred on north. */
  az_stop?: 'north' | 'south';
  /** 360, or 450 for an overlap rotator. */
  az_span_deg?: number;
  /** 90, or 180 for a flip-capable elevation rotator. */
  el_max_deg?: number;
  /** Rot2Prog pulses per degree (1, 2 or 4). */
  rot2prog_pulses?: number;
  /** Milliseconds; performance.now() when not given. */
  now?: () => number;
  start?: { az_deg: number; el_deg: number };
}

export interface RotatorSimCommand {
  at: number;
  kind: 'goto' | 'stop' | 'query' | 'unknown';
  /** As commanded, in the protocol's own frame (gs232/easycomm 0..450, rot2prog −180..540). */
  az_deg?: number;
  el_deg?: number;
  /** The commanded position was beyond an end stop (the rotator drove to the stop instead). */
  beyond_stop?: boolean;
  raw: string;
}

interface Axis {
  from: number;
  target: number;
  since: number;
  rate: number; // deg/s
  min: number;
  max: number;
}

export class RotatorSim {
  readonly protocol: RotatorSimProtocol;
  readonly commands: RotatorSimCommand[] = [];
  /** Every byte received, in order (a test compares them with what Hamlib sends). */
  readonly received: number[] = [];
  readonly faults = { silent: false, garbled: false };
  readonly stop: 'north' | 'south';
  private readonly now: () => number;
  private readonly az: Axis;
  private readonly el: Axis;
  private readonly pulses: number;
  private port: SerialPort | null = null;
  private watch: NodeJS.Timeout | null = null;
  private line: number[] = [];
  private frame: number[] = [];

  constructor(o: RotatorSimOptions) {
    this.protocol = o.protocol;
    this.now = o.now ?? (() => performance.now());
    this.stop = o.az_stop ?? 'north';
    const span = o.az_span_deg ?? 360;
    const azMin = this.stop === 'north' ? 0 : -180;
    const t = this.now();
    const start = o.start ?? { az_deg: 0, el_deg: 0 };
    this.az = { from: start.az_deg, target: start.az_deg, since: t, rate: o.az_rate_deg_s ?? 6, min: azMin, max: azMin + span };
    this.el = { from: start.el_deg, target: start.el_deg, since: t, rate: o.el_rate_deg_s ?? 3, min: 0, max: o.el_max_deg ?? 90 };
    this.pulses = o.rot2prog_pulses ?? 2;
  }

  /** Where the antenna points now, in the mechanical frame (south stop: −180 … +180/270). */
  position(): { az_deg: number; el_deg: number; moving: boolean } {
    const t = this.now();
    const az = axisAt(this.az, t);
    const el = axisAt(this.el, t);
    return { az_deg: az, el_deg: el, moving: az !== this.az.target || el !== this.el.target };
  }

  get target(): { az_deg: number; el_deg: number } {
    return { az_deg: this.az.target, el_deg: this.el.target };
  }

  get limits(): { az_min: number; az_max: number; el_min: number; el_max: number } {
    return { az_min: this.az.min, az_max: this.az.max, el_min: this.el.min, el_max: this.el.max };
  }

  get isOpen(): boolean {
    return this.port?.isOpen ?? false;
  }

  open(path: string, baudRate = 9600): Promise<void> {
    if (this.port) return Promise.reject(new Error('the simulator is already open'));
    return new Promise((resolve, reject) => {
      const p = new SerialPort({ path, baudRate, autoOpen: false });
      p.open((err) => {
        if (err) return reject(err);
        this.port = p;
        this.line = [];
        this.frame = [];
        p.on('data', (chunk: Buffer) => this.onBytes(chunk));
        p.on('error', () => {});
        p.on('close', () => {
          if (this.port === p) void this.close();
        });
        // As in civ-rig.ts: a pulled pty is not always reported, the path vanishing is.
        this.watch = setInterval(() => {
          if (!existsSync(path)) void this.close();
        }, 50);
        this.watch.unref();
        resolve();
      });
    });
  }

  close(): Promise<void> {
    if (this.watch) clearInterval(this.watch);
    this.watch = null;
    const p = this.port;
    this.port = null;
    if (!p || !p.isOpen) return Promise.resolve();
    return new Promise((resolve) => p.close(() => resolve()));
  }

  // ---- motion ----

  private drive(axis: Axis, commanded: number): boolean {
    const t = this.now();
    axis.from = axisAt(axis, t);
    axis.since = t;
    const beyond = commanded < axis.min || commanded > axis.max;
    axis.target = Math.min(axis.max, Math.max(axis.min, commanded));
    return beyond;
  }

  private halt(axis: Axis): void {
    const t = this.now();
    axis.from = axisAt(axis, t);
    axis.target = axis.from;
    axis.since = t;
  }

  /** A 0..360 (or 0..450) command azimuth to the mechanical frame: south stop wraps below north. */
  private mechanicalAz(commanded: number): number {
    if (this.stop === 'south' && commanded > this.az.max) return commanded - 360;
    return commanded;
  }

  private reportedAz(): number {
    const az = this.position().az_deg;
    return this.stop === 'south' ? (az + 360) % 360 : az;
  }

  private goto(raw: string, az: number | undefined, el: number | undefined, frame: 'compass' | 'mechanical'): void {
    let beyond = false;
    if (az !== undefined) beyond = this.drive(this.az, frame === 'compass' ? this.mechanicalAz(az) : az) || beyond;
    if (el !== undefined) beyond = this.drive(this.el, el) || beyond;
    this.commands.push({ at: this.now(), kind: 'goto', az_deg: az, el_deg: el, beyond_stop: beyond, raw });
  }

  // ---- wire ----

  private send(bytes: number[]): void {
    if (this.faults.silent || !this.port) return;
    const out = this.faults.garbled ? bytes.map((_, i) => (i === bytes.length - 1 && this.protocol !== 'rot2prog' ? 0x0a : 0xaa)) : bytes;
    this.port.write(Buffer.from(out));
  }

  private sendText(text: string): void {
    this.send([...Buffer.from(text, 'latin1')]);
  }

  private onBytes(chunk: Buffer): void {
    for (const b of chunk) {
      this.received.push(b);
      if (this.protocol === 'rot2prog') this.rot2progByte(b);
      else this.textByte(b);
    }
  }

  private textByte(b: number): void {
    // GS-232 ends a command with CR; EasyComm separates commands by space, CR or LF.
    if (b === 0x0d || b === 0x0a) {
      const text = Buffer.from(this.line).toString('latin1');
      this.line = [];
      if (text.trim() === '') return; // Hamlib's GS-232B backend sends a bare CR after W and S
      if (this.protocol === 'easycomm2') this.easycommLine(text);
      else this.gs232Line(text);
      return;
    }
    if (this.line.length < 128) this.line.push(b);
  }

  private gs232Line(text: string): void {
    const cmd = text.trim();
    const w = /^W(\d{3}) (\d{3})$/.exec(cmd);
    if (w) return this.goto(cmd, Number(w[1]), Number(w[2]), 'compass');
    if (cmd === 'S') {
      this.halt(this.az);
      this.halt(this.el);
      this.commands.push({ at: this.now(), kind: 'stop', raw: cmd });
      return;
    }
    if (cmd === 'C2') {
      this.commands.push({ at: this.now(), kind: 'query', raw: cmd });
      const az = pad(Math.round(this.reportedAz()), 3);
      const el = pad(Math.round(this.position().el_deg), 3);
      // GS-232A manual: "+0aaa+0eee"; GS-232B manual: "AZ=aaa  EL=eee".
      this.sendText(this.protocol === 'gs232a' ? `+0${az}+0${el}\r\n` : `AZ=${az}  EL=${el}\r\n`);
      return;
    }
    this.commands.push({ at: this.now(), kind: 'unknown', raw: cmd });
    this.sendText('?>\r\n');
  }

  private easycommLine(text: string): void {
    const answers: string[] = [];
    let az: number | undefined;
    let el: number | undefined;
    for (const word of text.trim().split(/\s+/)) {
      const key = word.slice(0, 2);
      const value = word.slice(2);
      if ((key === 'AZ' || key === 'EL') && value === '') {
        this.commands.push({ at: this.now(), kind: 'query', raw: word });
        const v = key === 'AZ' ? this.reportedAz() : this.position().el_deg;
        answers.push(`${key}${v.toFixed(1)}`);
      } else if ((key === 'AZ' || key === 'EL') && /^\d+(\.\d+)?$/.test(value)) {
        if (key === 'AZ') az = Number(value);
        else el = Number(value);
      } else if (word === 'SA' || word === 'SE') {
        this.halt(word === 'SA' ? this.az : this.el);
        this.commands.push({ at: this.now(), kind: 'stop', raw: word });
      } else {
        this.commands.push({ at: this.now(), kind: 'unknown', raw: word }); // EasyComm ignores what it does not know
      }
    }
    if (az !== undefined || el !== undefined) this.goto(text.trim(), az, el, 'compass');
    if (answers.length) this.sendText(answers.join(' ') + '\n');
  }

  private rot2progByte(b: number): void {
    if (this.frame.length === 0 && b !== 0x57) return;
    this.frame.push(b);
    if (this.frame.length < 13) return;
    const f = this.frame;
    this.frame = [];
    const raw = Buffer.from(f).toString('hex');
    const k = f[12] === 0x20 ? f[11] : -1; // a frame without its end byte is no command

    if (k === 0x1f) {
      this.commands.push({ at: this.now(), kind: 'query', raw });
      return this.rot2progStatus();
    }
    if (k === 0x0f) {
      this.halt(this.az);
      this.halt(this.el);
      this.commands.push({ at: this.now(), kind: 'stop', raw });
      return this.rot2progStatus();
    }
    if (k === 0x2f) {
      // The controller uses its own resolution; PH/PV in the command are ignored (spid.txt).
      const digits = (at: number) => f.slice(at, at + 4).reduce((n, d) => n * 10 + (d - 0x30), 0);
      return this.goto(raw, digits(1) / this.pulses - 360, digits(6) / this.pulses - 360, 'mechanical');
    }
    this.commands.push({ at: this.now(), kind: 'unknown', raw });
  }

  private rot2progStatus(): void {
    const { az_deg, el_deg } = this.position();
    // Reported in whole steps of the controller's resolution, written as tenths of a degree.
    const tenths = (deg: number) => Math.round((Math.round((deg + 360) * this.pulses) / this.pulses) * 10);
    const digits = (v: number) => [Math.floor(v / 1000) % 10, Math.floor(v / 100) % 10, Math.floor(v / 10) % 10, v % 10];
    this.send([0x57, ...digits(tenths(az_deg)), this.pulses, ...digits(tenths(el_deg)), this.pulses, 0x20]);
  }
}

function axisAt(a: Axis, t: number): number {
  const travel = (a.rate * Math.max(0, t - a.since)) / 1000;
  const d = a.target - a.from;
  return Math.abs(d) <= travel ? a.target : a.from + Math.sign(d) * travel;
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');
