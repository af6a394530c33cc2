// Byte stream to text lines, for the ASCII protocols on a byte link (GS-232, EasyComm, rotctld, rigctld).
// Serial and TCP reads split a reply anywhere, so bytes are held until a terminator. CR, LF and
// CR LF all end a line (GS-232A answers with CR LF or LF, GS-232B with CR LF, EasyComm with LF,
// rotctld with LF); empty lines are not delivered. A line longer than maxLineBytes is dropped
// whole (a controller streaming garbage cannot grow memory) and counted in stats.

export interface LineReaderStats {
  lines: number;
  /** Bytes thrown away: overlong lines, and partial lines dropped by reset(). */
  discardedBytes: number;
}

const CR = 0x0d;
const LF = 0x0a;

export class LineReader {
  readonly stats: LineReaderStats = { lines: 0, discardedBytes: 0 };
  private buf: number[] = [];
  private overlong = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineBytes = 256,
  ) {}

  /** Feeds bytes; never throws on any input (a throwing onLine is the caller's own error). */
  push(chunk: Uint8Array): void {
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (b === CR || b === LF) {
        this.endLine();
        continue;
      }
      if (this.overlong) {
        this.stats.discardedBytes++;
        continue;
      }
      if (this.buf.length >= this.maxLineBytes) {
        this.stats.discardedBytes += this.buf.length + 1;
        this.buf = [];
        this.overlong = true;
        continue;
      }
      this.buf.push(b);
    }
  }

  /** Drops a partial line (the link was reopened, or a command gave up waiting). */
  reset(): void {
    this.stats.discardedBytes += this.buf.length;
    this.buf = [];
    this.overlong = false;
  }

  private endLine(): void {
    const wasOverlong = this.overlong;
    this.overlong = false;
    if (wasOverlong || this.buf.length === 0) {
      this.buf = [];
      return;
    }
    // Garbage bytes (line noise, a wrong baud rate) are not text: the line is still delivered
    // with them replaced, so the driver can report "garbled" at once instead of timing out.
    let text = '';
    for (const b of this.buf) text += b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : '\uFFFD';
    this.buf = [];
    this.stats.lines++;
    this.onLine(text);
  }
}

/** ASCII bytes of a command string (every command we send is plain ASCII). */
export function asciiBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i) & 0x7f;
  return out;
}
