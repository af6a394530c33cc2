// KISS framing (K9NG/KA9Q, "The KISS TNC: A simple Host-to-TNC communications protocol"):
// FEND <type> <escaped data> FEND, type = port << 4 | command. Inside a frame FEND is sent as
// FESC TFEND and FESC as FESC TFESC. Pure: no node imports, so the browser or a worker could use it.

export const FEND = 0xc0;
export const FESC = 0xdb;
export const TFEND = 0xdc;
export const TFESC = 0xdd;

/** Command nibble values (the low 4 bits of the type byte). */
export const KISS_CMD = {
  data: 0x00,
  txdelay: 0x01,
  persist: 0x02,
  slottime: 0x03,
  txtail: 0x04,
  fullduplex: 0x05,
  sethardware: 0x06,
} as const;

export type KissParameter = 'txdelay' | 'persist' | 'slottime' | 'txtail' | 'fullduplex';

export interface KissFrame {
  /** The TNC port (high nibble of the type byte), 0..15. */
  port: number;
  /** 0 for a data frame (an AX.25 frame without FCS), else a parameter command. */
  command: number;
  data: Uint8Array;
}

const nibble = (n: number, what: string): number => {
  if (!Number.isInteger(n) || n < 0 || n > 15) throw new RangeError(`KISS ${what} must be 0..15, got ${n}`);
  return n;
};

/** One KISS frame: FEND, type byte, escaped data, FEND. */
export function encodeKiss(data: Uint8Array, port = 0, command = 0): Uint8Array {
  const type = (nibble(port, 'port') << 4) | nibble(command, 'command');
  const out = new Uint8Array(data.length * 2 + 4); // worst case: every byte escaped (and the type byte)
  let n = 0;
  out[n++] = FEND;
  const put = (b: number) => {
    if (b === FEND) {
      out[n++] = FESC;
      out[n++] = TFEND;
    } else if (b === FESC) {
      out[n++] = FESC;
      out[n++] = TFESC;
    } else out[n++] = b;
  };
  put(type); // 0xC0 and 0xDB cannot occur as a type byte with command ≤ 15, but escape anyway
  for (let i = 0; i < data.length; i++) put(data[i]);
  out[n++] = FEND;
  return out.slice(0, n);
}

/** A TNC parameter frame (TXDELAY and SLOTTIME in 10 ms units, PERSIST 0..255, FULLDUPLEX 0/1). */
export function kissCommand(cmd: KissParameter, value: number, port = 0): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 255) throw new RangeError(`KISS ${cmd} value must be 0..255, got ${value}`);
  return encodeKiss(Uint8Array.of(value), port, KISS_CMD[cmd]);
}

export interface KissDecoderStats {
  /** Frames delivered. */
  frames: number;
  /** Bytes thrown away: noise outside frames and the bytes of dropped frames. */
  discardedBytes: number;
  /** Frames dropped for being longer than maxFrameBytes. */
  oversize: number;
  /** Frames dropped for a FESC followed by anything but TFEND/TFESC. */
  badEscapes: number;
}

const enum State {
  /** Before the first FEND: bytes here are noise. */
  Outside,
  InFrame,
  Escape,
}

/**
 * Stream decoder: push() bytes in any split; each complete frame goes to onFrame with a copy of its
 * data. One fixed buffer (maxFrameBytes of data plus the type byte): an oversize frame is counted
 * and skipped to its closing FEND without growing memory. Empty frames (FEND FEND) are ignored.
 */
export class KissDecoder {
  private readonly buf: Uint8Array;
  private len = 0;
  private state = State.Outside;
  /** Bytes seen in the current frame (stored or not), for discardedBytes. */
  private seen = 0;
  private bad: 'none' | 'escape' | 'oversize' = 'none';
  readonly stats: KissDecoderStats = { frames: 0, discardedBytes: 0, oversize: 0, badEscapes: 0 };

  constructor(
    private readonly onFrame: (f: KissFrame) => void,
    readonly maxFrameBytes = 1024,
  ) {
    if (!Number.isInteger(maxFrameBytes) || maxFrameBytes < 1) throw new RangeError('maxFrameBytes must be a positive integer');
    this.buf = new Uint8Array(maxFrameBytes + 1);
  }

  /** Drops a partial frame (the link went away): the next bytes start from scratch. */
  reset(): void {
    if (this.state !== State.Outside) this.stats.discardedBytes += this.seen;
    this.state = State.Outside;
    this.restart();
  }

  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === FEND) {
        if (this.state === State.Escape) this.bad = 'escape'; // FESC FEND: the frame is cut short
        if (this.state !== State.Outside) this.finish();
        this.state = State.InFrame;
        this.restart();
        continue;
      }
      if (this.state === State.Outside) {
        this.stats.discardedBytes++;
        continue;
      }
      this.seen++;
      if (this.state === State.Escape) {
        this.state = State.InFrame;
        if (b === TFEND) this.store(FEND);
        else if (b === TFESC) this.store(FESC);
        else if (this.bad === 'none') this.bad = 'escape';
      } else if (b === FESC) this.state = State.Escape;
      else this.store(b);
    }
  }

  private store(b: number): void {
    if (this.bad !== 'none') return;
    if (this.len >= this.buf.length) {
      this.bad = 'oversize';
      return;
    }
    this.buf[this.len++] = b;
  }

  private restart(): void {
    this.len = 0;
    this.seen = 0;
    this.bad = 'none';
  }

  private finish(): void {
    if (this.seen === 0) return; // FEND FEND: an empty frame (or a second FEND as a separator)
    if (this.bad !== 'none') {
      if (this.bad === 'oversize') this.stats.oversize++;
      else this.stats.badEscapes++;
      this.stats.discardedBytes += this.seen;
      return;
    }
    if (this.len === 0) return; // only a dangling FESC was in it: counted as a bad escape above
    const type = this.buf[0];
    const data = this.buf.slice(1, this.len);
    this.len = 0;
    this.stats.frames++;
    this.onFrame({ port: type >> 4, command: type & 0x0f, data });
  }
}
