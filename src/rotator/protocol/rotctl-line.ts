import { hamlibErrorText } from '../../ham/hamlib/errors.js';
import { asciiBytes } from '../../links/line-reader.js';
import { outOfRange, type Encoded } from './encoded.js';

// Hamlib rotctld's TCP protocol, the client side (what Hamlib's own NET rotctl backend,
// rigs/dummy/netrotctl.c, sends). One command per line ended by LF, default (not extended)
// response mode:
//   P az el       set position ("%f %f")    → "RPRT 0" (or "RPRT -n": a Hamlib error code)
//   p             get position              → two lines "az" and "el", or "RPRT -n"
//   S / K         stop / park               → "RPRT n"
//   \dump_state   protocol version, model, then (protocol 1) "key=value" lines up to "done"
// The daemon checks P against the limits of the rotator behind it and answers RPRT -1.

/** What rotctld accepts at all (the daemon checks its own rotator's tighter limits). */
const ROTCTLD_AZ = { min: -360, max: 720 };
const ROTCTLD_EL = { min: -90, max: 210 };

export function encodeSetPosition(az_deg: number, el_deg: number): Encoded {
  const bad = outOfRange('az_deg', az_deg, ROTCTLD_AZ) ?? outOfRange('el_deg', el_deg, ROTCTLD_EL);
  if (bad) return bad;
  return { kind: 'bytes', bytes: asciiBytes(`P ${az_deg.toFixed(6)} ${el_deg.toFixed(6)}\n`) };
}

export const encodeGetPosition = (): Uint8Array => asciiBytes('p\n');
export const encodeStop = (): Uint8Array => asciiBytes('S\n');
export const encodePark = (): Uint8Array => asciiBytes('K\n');
export const encodeDumpState = (): Uint8Array => asciiBytes('\\dump_state\n');
/** Hamlib's client says this before it closes; rotctld then ends the connection itself. */
export const encodeQuit = (): Uint8Array => asciiBytes('q\n');

export type RotctlLine =
  /** "RPRT n": 0 is success, a negative n is a Hamlib error (−1 invalid parameter …). */
  | { kind: 'rprt'; code: number }
  | { kind: 'number'; value: number }
  | { kind: 'text'; text: string };

const RPRT = /^RPRT (-?\d+)$/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

export function classifyLine(line: string): RotctlLine {
  const text = line.trim();
  const r = RPRT.exec(text);
  if (r) return { kind: 'rprt', code: Number(r[1]) };
  if (NUMBER.test(text)) return { kind: 'number', value: Number(text) };
  return { kind: 'text', text };
}

export function rprtMessage(code: number): string {
  return `rotctld answered RPRT ${code} (${hamlibErrorText(code)})`;
}

export interface RotctldLimits {
  min_az_deg: number;
  max_az_deg: number;
  min_el_deg: number;
  max_el_deg: number;
  south_zero: boolean;
}

/**
 * Reads \dump_state line by line. feed() answers 'more' until the dump is over, then 'done';
 * 'garbled' when a line cannot belong to a dump. Protocol 0 daemons send no limits.
 */
export class DumpStateReader {
  private seen = 0;
  private protocol = -1;
  private readonly values = new Map<string, string>();

  feed(line: string): 'more' | 'done' | 'garbled' {
    const text = line.trim();
    this.seen++;
    if (this.seen === 1) {
      if (RPRT.test(text) || !/^\d+$/.test(text)) return 'garbled';
      this.protocol = Number(text);
      return 'more';
    }
    if (this.seen === 2) return this.protocol === 0 ? 'done' : 'more'; // the rotator model
    if (text === 'done') return 'done';
    const eq = text.indexOf('=');
    if (eq <= 0) return 'garbled';
    this.values.set(text.slice(0, eq), text.slice(eq + 1));
    return 'more';
  }

  get protocolVersion(): number {
    return this.protocol;
  }

  /** The limits the daemon reported, or null when it reported none (protocol 0, or a part missing). */
  limits(): RotctldLimits | null {
    const num = (k: string) => {
      const v = this.values.get(k);
      return v === undefined || !Number.isFinite(Number(v)) ? null : Number(v);
    };
    const [minAz, maxAz, minEl, maxEl] = [num('min_az'), num('max_az'), num('min_el'), num('max_el')];
    if (minAz === null || maxAz === null || minEl === null || maxEl === null) return null;
    return { min_az_deg: minAz, max_az_deg: maxAz, min_el_deg: minEl, max_el_deg: maxEl, south_zero: num('south_zero') === 1 };
  }
}
