import { outOfRange, type Encoded } from './encoded.js';

// SPID Rot2Prog (and MD-01/MD-02 in Rot2 mode): binary frames.
// Command, 13 bytes:  57 H1 H2 H3 H4 PH V1 V2 V3 V4 PV K 20
//   H1..H4 / V1..V4: PH·(360 + az) and PV·(360 + el) as four ASCII digits ('0'..'9')
//   PH / PV: pulses per degree (1, 2 or 4 on a Rot2Prog; the controller's setting)
//   K: 0F stop, 1F status, 2F set; the other bytes of stop and status are 00.
// Reply to status and stop, 12 bytes:  57 H1 H2 H3 H4 PH V1 V2 V3 V4 PV 20
//   H1..H4 / V1..V4 as byte values 0..9: az = H1·100 + H2·10 + H3 + H4/10 − 360 (el alike)
// A set has no reply on the Rot2Prog (MD-01/02 answer it like a status).
// Bytes follow Hamlib's rotators/spid (spid.c, spid.txt): it learns PH/PV from a status reply
// before the first set, as we do. Hamlib truncates PH·(360 + az) to an integer; we round to the
// nearest step, the same bytes whenever the target is on the controller's grid.

export const FRAME_START = 0x57;
export const FRAME_END = 0x20;
export const COMMAND_BYTES = 13;
export const REPLY_BYTES = 12;
const K_STOP = 0x0f;
const K_STATUS = 0x1f;
const K_SET = 0x2f;

/** What four digits of pulses can carry: Hamlib's caps for the Rot2Prog. */
export const ROT2PROG_AZ = { min: -180, max: 540 };
export const ROT2PROG_EL = { min: -20, max: 210 };

export interface Resolution {
  /** Azimuth pulses per degree. */
  ph: number;
  /** Elevation pulses per degree. */
  pv: number;
}

const VALID_PULSES: ReadonlySet<number> = new Set([1, 2, 4, 10]);

function plain(k: number): Uint8Array {
  const out = new Uint8Array(COMMAND_BYTES);
  out[0] = FRAME_START;
  out[11] = k;
  out[12] = FRAME_END;
  return out;
}

export const encodeStatus = (): Uint8Array => plain(K_STATUS);
export const encodeStop = (): Uint8Array => plain(K_STOP);

function putDigits(out: Uint8Array, at: number, value: number): void {
  for (let i = 3; i >= 0; i--) {
    out[at + i] = 0x30 + (value % 10);
    value = Math.floor(value / 10);
  }
}

export function encodeSet(az_deg: number, el_deg: number, res: Resolution): Encoded {
  const bad = outOfRange('az_deg', az_deg, ROT2PROG_AZ) ?? outOfRange('el_deg', el_deg, ROT2PROG_EL);
  if (bad) return bad;
  if (!VALID_PULSES.has(res.ph) || !VALID_PULSES.has(res.pv)) {
    return { kind: 'unencodable', field: VALID_PULSES.has(res.ph) ? 'el_deg' : 'az_deg', message: `resolution ${res.ph}/${res.pv} pulses per degree is not a Rot2Prog setting` };
  }
  const out = plain(K_SET);
  putDigits(out, 1, Math.round(res.ph * (360 + az_deg)));
  out[5] = res.ph;
  putDigits(out, 6, Math.round(res.pv * (360 + el_deg)));
  out[10] = res.pv;
  return { kind: 'bytes', bytes: out };
}

export interface Rot2ProgStatus {
  az_deg: number;
  el_deg: number;
  resolution: Resolution;
}

/** One 12-byte reply; null when the bytes are not a well-formed reply. */
export function decodeReply(frame: ArrayLike<number>): Rot2ProgStatus | null {
  if (frame.length !== REPLY_BYTES || frame[0] !== FRAME_START || frame[11] !== FRAME_END) return null;
  for (const i of [1, 2, 3, 4, 6, 7, 8, 9]) if (frame[i] > 9) return null;
  if (!VALID_PULSES.has(frame[5]) || !VALID_PULSES.has(frame[10])) return null;
  const value = (at: number) => frame[at] * 100 + frame[at + 1] * 10 + frame[at + 2] + frame[at + 3] / 10 - 360;
  // Tenths by construction: rounding drops the binary fraction noise of /10.
  const tenths = (x: number) => Math.round(x * 10) / 10;
  return { az_deg: tenths(value(1)), el_deg: tenths(value(6)), resolution: { ph: frame[5], pv: frame[10] } };
}

/**
 * Byte stream to replies. Reads split frames anywhere and a wrong baud rate or line noise
 * puts junk on the line: the parser looks for 57 … 20 twelve bytes apart that decode, and
 * otherwise slides on by one byte, counting what it drops (the driver tells "garbled" from
 * "silent" by that count).
 */
export class Rot2ProgParser {
  readonly stats = { replies: 0, discardedBytes: 0 };
  private readonly buf = new Uint8Array(REPLY_BYTES);
  private len = 0;

  constructor(private readonly onReply: (s: Rot2ProgStatus) => void) {}

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (this.len === 0 && b !== FRAME_START) {
        this.stats.discardedBytes++;
        continue;
      }
      this.buf[this.len++] = b;
      if (this.len < REPLY_BYTES) continue;
      const status = decodeReply(this.buf);
      if (status) {
        this.len = 0;
        this.stats.replies++;
        this.onReply(status);
        continue;
      }
      this.resync();
    }
  }

  reset(): void {
    this.stats.discardedBytes += this.len;
    this.len = 0;
  }

  /** Drops the first byte and starts again at the next 57 already held, if any. */
  private resync(): void {
    let from = 1;
    while (from < this.len && this.buf[from] !== FRAME_START) from++;
    this.stats.discardedBytes += from;
    this.buf.copyWithin(0, from, this.len);
    this.len -= from;
  }
}
