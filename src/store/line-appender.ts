import { closeFile, fstatOf, makeDir, openFile, readInto, writeBytes } from '../util/fs-calls.js';
import { dirname } from 'node:path';

// The append side of the log file: lines waiting for the disk, and the O_APPEND handle they go
// out through, a batch per write() call. Whole lines only: a kill loses at most the lines of the
// write in flight, and after a torn write the next line always starts on a fresh line.

/** Bytes written per batch at most (a burst after an outage goes out in a few writes). */
const BATCH_BYTES = 64 * 1024;

interface PendingLine {
  /** The append counter's value for this line: a rewrite keeps the lines newer than its snapshot. */
  seq: number;
  line: string;
}

export class LineAppender {
  private pending: PendingLine[] = [];
  private seq = 0;
  /** The O_APPEND descriptor, or null before the first write and after a close. */
  private fd: number | null = null;
  /** The batch being written: a close waits for it (a raw descriptor closed under a write could be reused by another file's open). */
  private inFlight: Promise<unknown> = Promise.resolve();
  /** The file does not end in '\n' (a torn or unterminated line): the next write starts with one. */
  private needNewline = false;
  /** Lines the file holds (as far as this process knows: set at load, counted on). */
  fileLines = 0;

  constructor(readonly path: string) {}

  /** Appends made so far (the counter of the last queued line). */
  get appendSeq(): number {
    return this.seq;
  }

  get waiting(): number {
    return this.pending.length;
  }

  queue(line: string): void {
    this.pending.push({ seq: ++this.seq, line });
  }

  /** Drops the oldest waiting lines past `max`; returns how many were dropped. */
  trim(max: number): number {
    const over = this.pending.length - max;
    if (over <= 0) return 0;
    this.pending.splice(0, over);
    return over;
  }

  /** One write() of whole lines; lines a short or failed write did not finish go back to the queue. */
  writeBatch(): Promise<void> {
    const p = this.writeOne();
    this.inFlight = p.catch(() => {});
    return p;
  }

  private async writeOne(): Promise<void> {
    let bytes = 0;
    let n = 0;
    while (n < this.pending.length && (n === 0 || bytes + this.pending[n].line.length <= BATCH_BYTES)) bytes += this.pending[n++].line.length;
    const batch = this.pending.splice(0, n);
    const fd = await this.handle().catch((err) => {
      this.pending.unshift(...batch);
      throw err;
    });
    const prefix = this.needNewline ? '\n' : '';
    const buf = Buffer.from(prefix + batch.map((p) => p.line).join(''));
    let off = 0;
    try {
      while (off < buf.length) off += (await writeBytes(fd, buf, off, buf.length - off, null)).bytesWritten;
    } catch (err) {
      // Whole lines that made it stay written; the rest is retried after a fresh '\n'.
      const done = prefix.length > 0 && off > 0 ? 1 : 0;
      let end = prefix.length;
      let k = 0;
      while (k < batch.length && end + Buffer.byteLength(batch[k].line) <= off) end += Buffer.byteLength(batch[k++].line);
      this.fileLines += done + k;
      if (off > 0) this.needNewline = true;
      this.pending.unshift(...batch.slice(k));
      throw err;
    }
    if (prefix) this.fileLines++; // the torn fragment is a line of its own now
    this.needNewline = false;
    this.fileLines += batch.length;
  }

  /**
   * The file was replaced by one of `lines` whole lines holding every entry up to append
   * `snapSeq`: only the newer lines still wait. The handle must have been closed before.
   */
  replaced(lines: number, snapSeq: number): void {
    this.pending = this.pending.filter((p) => p.seq > snapSeq);
    this.fileLines = lines;
    this.needNewline = false;
  }

  /** Closed after a failure (reopened, its tail checked, on the next write) and before a rename. */
  async close(): Promise<void> {
    await this.inFlight;
    const fd = this.fd;
    this.fd = null;
    if (fd !== null) await closeFile(fd).catch(() => {});
  }

  private async handle(): Promise<number> {
    if (this.fd !== null) return this.fd;
    await makeDir(dirname(this.path), { recursive: true });
    // a+ so the last byte can be read: after a torn write the next line must start on its own.
    const fd = await openFile(this.path, 'a+', 0o644);
    try {
      const { size } = await fstatOf(fd);
      if (size > 0) {
        const b = Buffer.alloc(1);
        await readInto(fd, b, 0, 1, size - 1);
        this.needNewline = b[0] !== 0x0a;
      } else this.needNewline = false;
    } catch (err) {
      await closeFile(fd).catch(() => {});
      throw err;
    }
    this.fd = fd;
    return fd;
  }
}
