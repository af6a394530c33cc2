import { RIG_COMMANDS, type CommandSpec } from '../../ham/hamlib/commands.js';
import type { HamlibErrorCode } from '../../ham/hamlib/errors.js';
import { formatFreqHz, parseFreqHz, parseInteger } from '../../ham/hamlib/values.js';
import { parseMode, parseVfo, vfoMask, type HamlibMode, type HamlibVfo } from '../../ham/hamlib/vocab.js';

// rigctld's line protocol, the client side (what Hamlib's own NET rig backend, netrigctl.c, and
// gpredict send), in the normal response mode: one command per line ended by LF;
//   a set        answers one line, "RPRT 0" or "RPRT -n" (a Hamlib error code);
//   a get        answers its values, one per line (the command table's out labels say how many),
//                or a single "RPRT -n" instead of them;
//   \chk_vfo     answers "1" when the daemon runs with --vfo (every command that takes a VFO then
//                wants one first: "F VFOA 145800000"), else "0"; Hamlib 3 printed "CHKVFO 0";
//   \dump_state  a block read to its end (RigDumpReader).
// Pure: lines in, requests and values out; the client (rigctld-client.ts) owns the socket.

/** How the daemon wants commands that take a VFO: with one first (--vfo, \chk_vfo 1) or without. */
export interface Dialect {
  vfoArg: boolean;
}

/** One reply line fed to a request's reader. */
export type ReplyStep<T> =
  | { kind: 'more' }
  | { kind: 'done'; value: T }
  /** "RPRT -n": Hamlib refused or failed. */
  | { kind: 'error'; code: HamlibErrorCode }
  /** A line no reply of this command can hold: the stream is out of step. */
  | { kind: 'garbled'; detail: string };

export interface ReplyReader<T> {
  feed(line: string): ReplyStep<T>;
}

export interface RigctldRequest<T> {
  /** Hamlib's long name ("set_freq"), for errors. */
  cmd: string;
  /** The line, LF included. */
  line: string;
  /**
   * Requests with the same key are one intent: a newer one replaces a queued one (latest value
   * wins). Sets key on command and VFO, so "F VFOA x" replaces "F VFOA y" and never "F VFOB z".
   */
  key: string;
  reader: () => ReplyReader<T>;
}

const SPECS = new Map(RIG_COMMANDS.map((c) => [c.name, c]));
const spec = (name: string): CommandSpec => SPECS.get(name)!;
const RPRT = /^RPRT (-?\d+)$/;

/** The number of an "RPRT n" line, or null. */
export function rprtCode(line: string): number | null {
  const m = RPRT.exec(line.trim());
  return m ? Number(m[1]) : null;
}

/** A reader for a command that answers `count` value lines, turned into T by `decode` (null: garbled). */
function valuesReader<T>(count: number, decode: (values: string[]) => T | null): () => ReplyReader<T> {
  return () => {
    const values: string[] = [];
    return {
      feed(line) {
        const code = rprtCode(line);
        if (code !== null) {
          if (count === 0 && code === 0) return { kind: 'done', value: decode(values)! };
          if (code < 0 && values.length === 0) return { kind: 'error', code: code as HamlibErrorCode };
          return { kind: 'garbled', detail: `'${line}' where ${count === 0 ? 'RPRT' : 'a value'} was expected` };
        }
        if (count === 0) return { kind: 'garbled', detail: `'${line.slice(0, 40)}' where RPRT was expected` };
        values.push(line.trim());
        if (values.length < count) return { kind: 'more' };
        const value = decode(values);
        return value === null ? { kind: 'garbled', detail: `'${values.join(' ').slice(0, 60)}' is no reply of this command` } : { kind: 'done', value };
      },
    };
  };
}

/** The words of a command as the dialect wants them: its short name, the VFO when it takes one, the arguments. */
function build<T>(name: string, d: Dialect, vfo: HamlibVfo, args: (string | number)[], decode: (values: string[]) => T | null): RigctldRequest<T> {
  const s = spec(name);
  const words = [s.short!, ...(s.vfo && d.vfoArg ? [vfo] : []), ...args.map(String)];
  return { cmd: name, line: `${words.join(' ')}\n`, key: `${name} ${s.vfo ? vfo : ''}`, reader: valuesReader(s.out.length, decode) };
}

const setDone = (): true => true;
const freq = ([v]: string[]) => parseFreqHz(v);
const flag = ([v]: string[]) => {
  const n = parseInteger(v);
  return n === null ? null : n !== 0;
};
const onOff = (on: boolean) => (on ? 1 : 0);

/** A frequency in whole Hz as rigctld reads it (it rounds a double; we never send a fraction). */
function hz(value: number): string {
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${value} is no frequency in Hz`);
  return formatFreqHz(value);
}

/** The functions the rig driver switches (Hamlib's setting names): TONE is the CTCSS encoder, TSQL tone squelch. */
export type HamlibFunc = 'TONE' | 'TSQL';

function knownMode(mode: HamlibMode): HamlibMode {
  if (parseMode(mode) === null) throw new RangeError(`${JSON.stringify(mode)} is no Hamlib mode`);
  return mode;
}

function modeReply([mode, pb]: string[]): ModeReply | null {
  const passband = parseInteger(pb);
  return mode === '' || passband === null ? null : { mode: parseMode(mode) ?? mode, passband_hz: passband };
}

export interface ModeReply {
  /** Hamlib's name of the mode, as the daemon printed it ("USB", "PKTUSB"). */
  mode: HamlibMode;
  passband_hz: number;
}

export interface SplitReply {
  on: boolean;
  tx_vfo: HamlibVfo;
}

/** The VFO the commands address when the caller names none (Hamlib's RIG_VFO_CURR). */
export const CURRENT: HamlibVfo = 'currVFO';

export const encode = {
  setFreq: (d: Dialect, hzValue: number, vfo = CURRENT) => build('set_freq', d, vfo, [hz(hzValue)], setDone),
  getFreq: (d: Dialect, vfo = CURRENT) => build('get_freq', d, vfo, [], freq),
  /** I: the transmit frequency of split (applied to the split's TX VFO once "S 1 <tx>" was sent). */
  setSplitFreq: (d: Dialect, hzValue: number, vfo = CURRENT) => build('set_split_freq', d, vfo, [hz(hzValue)], setDone),
  getSplitFreq: (d: Dialect, vfo = CURRENT) => build('get_split_freq', d, vfo, [], freq),
  /** M: passband 0 is the rig's normal width for the mode, -1 leaves it as it is. */
  setMode: (d: Dialect, mode: HamlibMode, passbandHz = 0, vfo = CURRENT) => build('set_mode', d, vfo, [knownMode(mode), Math.round(passbandHz)], setDone),
  getMode: (d: Dialect, vfo = CURRENT) => build('get_mode', d, vfo, [], modeReply),
  /** X: the mode of split's transmit VFO (Hamlib applies it to the TX VFO "S 1 <tx>" named). */
  setSplitMode: (d: Dialect, mode: HamlibMode, passbandHz = 0, vfo = CURRENT) => build('set_split_mode', d, vfo, [knownMode(mode), Math.round(passbandHz)], setDone),
  getSplitMode: (d: Dialect, vfo = CURRENT) => build('get_split_mode', d, vfo, [], modeReply),
  /** S: split with the TX VFO by its name, never a bare number (Hamlib 4 reads "1" as no VFO). */
  setSplit: (d: Dialect, on: boolean, txVfo: HamlibVfo, vfo = CURRENT) => build('set_split_vfo', d, vfo, [onOff(on), txVfo], setDone),
  getSplit: (d: Dialect, vfo = CURRENT) =>
    build('get_split_vfo', d, vfo, [], ([on, tx]): SplitReply | null => {
      const split = flag([on]);
      const txVfo = parseVfo(tx);
      return split === null || txVfo === null ? null : { on: split, tx_vfo: txVfo };
    }),
  setVfo: (d: Dialect, vfo: HamlibVfo) => build('set_vfo', d, vfo, [vfo], setDone),
  /** C: the CTCSS tone in tenths of Hz (88.5 Hz is 885), as Hamlib's tone_t counts it. */
  setCtcssTone: (d: Dialect, tenths: number, vfo = CURRENT) => {
    if (!Number.isInteger(tenths) || tenths < 0) throw new RangeError(`${tenths} is no CTCSS tone in tenths of Hz`);
    return build('set_ctcss_tone', d, vfo, [tenths], setDone);
  },
  /** U: a function on or off ("U TONE 1": the CTCSS encoder); each function is its own intent in the queue. */
  setFunc: (d: Dialect, func: HamlibFunc, on: boolean, vfo = CURRENT) => {
    const req = build('set_func', d, vfo, [func, onOff(on)], setDone);
    return { ...req, key: `${req.key} ${func}` };
  },
  setPtt: (d: Dialect, on: boolean, vfo = CURRENT) => build('set_ptt', d, vfo, [onOff(on)], setDone),
  getPtt: (d: Dialect, vfo = CURRENT) => build('get_ptt', d, vfo, [], flag),
  /** \chk_vfo, before the dialect is known (it takes no VFO). */
  chkVfo: (): RigctldRequest<boolean> => ({
    cmd: 'chk_vfo',
    line: '\\chk_vfo\n',
    key: 'chk_vfo',
    reader: valuesReader(1, ([v]) => flag([v.replace(/^CHKVFO\s+/, '')])),
  }),
  dumpState: (): RigctldRequest<RigDump> => ({ cmd: 'dump_state', line: '\\dump_state\n', key: 'dump_state', reader: () => new RigDumpReader() }),
};

/** q: the daemon answers RPRT 0 and closes; a client leaving does not wait for either. */
export const QUIT_LINE = 'q\n';

export interface RigDump {
  /** 0 (Hamlib 3: the fixed part only) or 1 (Hamlib 4: "key=value" lines up to "done"). */
  protocol: number;
  model: number;
  /** The VFOs the rig's frequency ranges name (vfo_t bits, OR-ed). */
  vfo_mask: number;
  /** Protocol 1's "key=value" lines. */
  keys: ReadonlyMap<string, string>;
}

const RANGE_END = '0 0 0 0 0 0 0';
const PAIR_END = '0 0';
const HEX = /^0x[0-9a-f]+$/i;

/**
 * \dump_state line by line (rigctld's dump_state, Hamlib 4.5; netrigctl_open reads it the same
 * way): version, model, ITU region; receive and transmit ranges, each ended by seven zeros;
 * tuning steps and filters, each ended by "0 0"; RIT, XIT, IF shift, announces; the preamp and
 * attenuator lists (possibly empty lines, which the line reader drops); six hex masks. Protocol 1
 * goes on with "key=value" lines up to "done". Counting the six masks rather than lines is what
 * survives the dropped empty lines.
 */
export class RigDumpReader implements ReplyReader<RigDump> {
  private stage: 'version' | 'model' | 'region' | 'rx' | 'tx' | 'steps' | 'filters' | 'tail' | 'keys' = 'version';
  private protocol = 0;
  private model = 0;
  private vfos = 0;
  private masks = 0;
  private readonly keys = new Map<string, string>();

  feed(raw: string): ReplyStep<RigDump> {
    const line = raw.trim();
    const code = rprtCode(line);
    if (code !== null) {
      if (this.stage === 'version' && code < 0) return { kind: 'error', code: code as HamlibErrorCode };
      // A dump may end with RPRT 0 from daemons that acknowledge it; the dump is then complete.
      if (code === 0 && this.stage === 'keys') return this.done();
      return { kind: 'garbled', detail: `'${line}' inside \\dump_state` };
    }
    switch (this.stage) {
      case 'version':
      case 'model': {
        const n = parseInteger(line);
        if (n === null) return { kind: 'garbled', detail: `'${line.slice(0, 40)}' is no rigctld dump` };
        if (this.stage === 'version') this.protocol = n;
        else this.model = n;
        this.stage = this.stage === 'version' ? 'model' : 'region';
        return { kind: 'more' };
      }
      case 'region':
        this.stage = 'rx';
        return { kind: 'more' };
      case 'rx':
      case 'tx':
        if (line === RANGE_END) this.stage = this.stage === 'rx' ? 'tx' : 'steps';
        else if (!this.range(line)) return { kind: 'garbled', detail: `'${line.slice(0, 60)}' is no frequency range` };
        return { kind: 'more' };
      case 'steps':
      case 'filters':
        if (line === PAIR_END) this.stage = this.stage === 'steps' ? 'filters' : 'tail';
        return { kind: 'more' };
      case 'tail':
        if (HEX.test(line) && ++this.masks === 6) {
          if (this.protocol < 1) return this.done();
          this.stage = 'keys';
        }
        return { kind: 'more' };
      case 'keys': {
        if (line === 'done') return this.done();
        const eq = line.indexOf('=');
        if (eq <= 0) return { kind: 'garbled', detail: `'${line.slice(0, 40)}' is no key=value line` };
        this.keys.set(line.slice(0, eq), line.slice(eq + 1));
        return { kind: 'more' };
      }
    }
  }

  private range(line: string): boolean {
    const f = line.split(/\s+/);
    if (f.length !== 7) return false;
    const mask = Number(f[5]);
    if (!Number.isFinite(mask)) return false;
    this.vfos = (this.vfos | mask) >>> 0;
    return true;
  }

  private done(): ReplyStep<RigDump> {
    return { kind: 'done', value: { protocol: this.protocol, model: this.model, vfo_mask: this.vfos, keys: this.keys } };
  }
}

/**
 * The VFO split transmits on: VFOB where the rig has one, Sub on a Main/Sub rig without VFOB
 * (Hamlib spells the IC-9700's and the TS-2000's second receiver so), VFOB when the dump names
 * neither (Hamlib 3 daemons print no VFOs).
 */
export function subVfo(dump: RigDump): HamlibVfo {
  const has = (v: HamlibVfo) => (dump.vfo_mask & vfoMask([v])) !== 0;
  if (has('VFOB')) return 'VFOB';
  return has('Sub') ? 'Sub' : 'VFOB';
}
