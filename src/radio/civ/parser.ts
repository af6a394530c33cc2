import { CIV, type CivFrame } from './frame.js';

// Byte-stream to frames. Serial reads split frames anywhere, the bus may carry line noise, a
// radio waking up sends a run of FE, and a collision puts FC bytes on the bus.
//
// What is guaranteed: a well-formed frame — FE FE, then 3..maxFrameBytes-3 bytes none of which
// is FE, FD or FC, then FD — is delivered exactly once, at its FD, whatever bytes came before it
// and however the stream is chunked. That holds because its FE FE always takes the parser to
// "preamble seen" from any state (a half frame before it is dropped, extra FE just lengthen the
// preamble). Bytes that merely look like a frame are delivered too: the parser cannot tell
// noise from a frame, the caller filters by address and command.
// Dropped (counted in stats.discardedBytes): bytes outside FE FE...FD, a frame cut short by FE,
// a frame with fewer than 3 body bytes, a frame longer than maxFrameBytes (skipped to its FD).
// An FC anywhere is a jam: the frame in progress is dropped, the FC run (and an FD closing it)
// is skipped, and onJam is called once per run.

const IDLE = 0; // between frames
const PRE1 = 1; // one FE seen
const PRE2 = 2; // FE FE (or a longer FE run) seen
const BODY = 3; // collecting to/from/cmd/data
const SKIP = 4; // overlong: ignoring to the next FD
const JAM = 5; // inside a run of FC

export interface CivParserOptions {
  /** Largest frame accepted, FE FE and FD included (default 1024: a scope waveform frame fits). */
  maxFrameBytes?: number;
  onJam?: () => void;
}

export class CivParser {
  readonly stats = { frames: 0, jams: 0, discardedBytes: 0 };
  private readonly buf: Uint8Array;
  private readonly maxBody: number;
  private readonly onJam: (() => void) | undefined;
  private state = IDLE;
  private len = 0; // body bytes in buf
  private pending = 0; // wire bytes of the frame in progress (dropped if it fails)
  private callbackError: unknown = undefined;

  constructor(
    private readonly onFrame: (f: CivFrame) => void,
    opts: CivParserOptions = {},
  ) {
    const max = opts.maxFrameBytes ?? 1024;
    if (!Number.isInteger(max) || max < 6) throw new RangeError(`CivParser: maxFrameBytes ${max} must be an integer >= 6`);
    this.maxBody = max - 3;
    this.buf = new Uint8Array(this.maxBody);
    this.onJam = opts.onJam;
  }

  /**
   * Feeds bytes. Never throws on any input. If onFrame or onJam throws, the rest of the chunk is
   * still parsed and the first such error is rethrown at the end, so no frame is lost to it.
   */
  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      switch (this.state) {
        case IDLE:
          this.idle(b);
          break;
        case PRE1:
          if (b === CIV.PREAMBLE) {
            this.state = PRE2;
            this.pending++;
          } else {
            this.drop(); // a lone FE
            this.idle(b);
          }
          break;
        case PRE2:
          if (b === CIV.PREAMBLE) this.pending++; // FE FE FE...: still the preamble
          else if (b === CIV.JAM) this.jam();
          else if (b === CIV.EOM) this.drop(1); // FE FE FD: empty
          else {
            this.buf[0] = b;
            this.len = 1;
            this.pending++;
            this.state = BODY;
          }
          break;
        case BODY:
          if (b === CIV.EOM) this.end();
          else if (b === CIV.PREAMBLE) this.restart();
          else if (b === CIV.JAM) this.jam();
          else if (this.len < this.maxBody) {
            this.buf[this.len++] = b;
            this.pending++;
          } else {
            this.pending++;
            this.state = SKIP;
          }
          break;
        case SKIP:
          if (b === CIV.EOM) this.drop(1);
          else if (b === CIV.PREAMBLE) this.restart();
          else if (b === CIV.JAM) this.jam();
          else this.pending++;
          break;
        default: // JAM
          if (b === CIV.PREAMBLE) {
            this.state = PRE1;
            this.pending = 1;
          } else {
            this.stats.discardedBytes++;
            if (b !== CIV.JAM) this.state = IDLE; // FD (or anything else) ends the run
          }
      }
    }
    if (this.callbackError !== undefined) {
      const err = this.callbackError;
      this.callbackError = undefined;
      throw err;
    }
  }

  /** Forgets a frame in progress (e.g. after the port reopened). Stats are kept. */
  reset(): void {
    this.drop();
  }

  private idle(b: number): void {
    if (b === CIV.PREAMBLE) {
      this.state = PRE1;
      this.pending = 1;
    } else if (b === CIV.JAM) this.jam();
    else this.stats.discardedBytes++;
  }

  /** Drops the frame in progress plus `extra` bytes just consumed; back to IDLE. */
  private drop(extra = 0): void {
    this.stats.discardedBytes += this.pending + extra;
    this.pending = 0;
    this.len = 0;
    this.state = IDLE;
  }

  /** An FE inside a frame: the frame was cut short; this FE may start the next one. */
  private restart(): void {
    this.drop();
    this.state = PRE1;
    this.pending = 1;
  }

  private jam(): void {
    this.drop(1);
    this.state = JAM;
    this.stats.jams++;
    if (this.onJam) {
      try {
        this.onJam();
      } catch (err) {
        if (this.callbackError === undefined) this.callbackError = err;
      }
    }
  }

  private end(): void {
    if (this.len < 3) {
      this.drop(1); // no room for to/from/cmd
      return;
    }
    const f: CivFrame = { to: this.buf[0], from: this.buf[1], cmd: this.buf[2], data: this.buf.slice(3, this.len) };
    this.pending = 0;
    this.len = 0;
    this.state = IDLE;
    this.stats.frames++;
    try {
      this.onFrame(f);
    } catch (err) {
      if (this.callbackError === undefined) this.callbackError = err;
    }
  }
}
