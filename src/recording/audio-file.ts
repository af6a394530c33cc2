import { open, type FileHandle } from 'node:fs/promises';
import { describeIoError, errnoOf } from '../store/io-error.js';
import { Latch } from '../util/listeners.js';
import { logger } from '../util/logger.js';

// Driver: one recording's audio file, written from its start to its end. Writes go out one at a
// time in the order they came, the blocks waiting behind a write joined into one writev, so a
// slow SD card sees fewer, larger writes rather than a pile of small ones. A write to a given
// offset (the WAV header's sizes) takes its turn in the same queue, so it never overtakes the
// data it describes. The first failure (a full card, or the encoder feeding it dying: fail())
// ends the writing: every later write is dropped, the failure is told once to onFail and again
// by close(). Nothing here throws.

const log = logger('recording:file');

/** Blocks joined into one writev at most (the kernel takes 1024). */
const MAX_BLOCKS_PER_WRITE = 256;

export type AudioFileOpened = { kind: 'open'; file: AudioFile } | { kind: 'failed'; error: string };
export type AudioFileClosed = { kind: 'done' } | { kind: 'failed'; error: string };

export interface AudioFileOptions {
  /** Creates the file; the default makes a new one (never overwrites a recording), mode 0644. */
  openFile?: (path: string) => Promise<FileHandle>;
}

interface Job {
  /** null: after everything appended so far. */
  at: number | null;
  bytes: Uint8Array;
}

const createNew = (path: string) => open(path, 'wx', 0o644);

/** The operator's words for a failed file operation: a full card says so; anything else by its errno. */
function describeFailure(err: unknown, what: string): string {
  const code = errnoOf(err);
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk is full (${code})`;
  return `cannot ${what} the audio file (${describeIoError(err)})`;
}

export class AudioFile {
  private readonly queue: Job[] = [];
  private writing = false;
  private written = 0;
  private waiting = 0;
  private closing: Promise<AudioFileClosed> | null = null;
  private drained: Array<() => void> = [];
  private readonly failed = new Latch<string>(log, 'audio file failure');

  private constructor(private readonly fh: FileHandle) {}

  static async open(path: string, o: AudioFileOptions = {}): Promise<AudioFileOpened> {
    try {
      return { kind: 'open', file: new AudioFile(await (o.openFile ?? createNew)(path)) };
    } catch (err) {
      return { kind: 'failed', error: describeFailure(err, 'create') };
    }
  }

  /** Bytes appended and on disk so far (a write still in flight not counted). */
  get bytes(): number {
    return this.written;
  }

  /** The first failure, or null while all is well. */
  get failure(): string | null {
    return this.failed.value;
  }

  /**
   * Appends `bytes`. They become the file's: no copy is made, so the caller must not change them
   * afterwards (a buffer it reuses goes in as a copy). Dropped after a failure or close().
   */
  write(bytes: Uint8Array): void {
    this.enqueue({ at: null, bytes });
  }

  /** Writes `bytes` at `offset` after everything written before it (the WAV header's sizes). */
  pwriteAt(offset: number, bytes: Uint8Array): void {
    this.enqueue({ at: offset, bytes });
  }

  /** Tells fn the first failure, once (at once if it already happened); returns the unsubscribe. */
  onFail(fn: (error: string) => void): () => void {
    return this.failed.on(fn);
  }

  /**
   * Ends the writing for a reason from outside (what feeds the file died): as a failure of its
   * own, later writes are dropped and close() reports it, unless the file failed first.
   */
  fail(error: string): void {
    this.failed.fire(error);
  }

  /** Waits for the queue, then closes the file: done, or the first failure. */
  close(): Promise<AudioFileClosed> {
    this.closing ??= (async () => {
      await new Promise<void>((resolve) => (this.writing ? this.drained.push(resolve) : resolve()));
      try {
        await this.fh.close();
      } catch (err) {
        this.fail(describeFailure(err, 'close'));
      }
      return this.failure === null ? { kind: 'done' } : { kind: 'failed', error: this.failure };
    })();
    return this.closing;
  }

  /** Bytes waiting for the disk (a card that stalls makes this grow; the caller bounds it). */
  get queuedBytes(): number {
    return this.waiting;
  }

  private enqueue(job: Job): void {
    if (this.failure !== null || this.closing || job.bytes.byteLength === 0) return;
    this.waiting += job.bytes.byteLength;
    this.queue.push(job);
    if (!this.writing) void this.drain();
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0 && this.failure === null) {
      try {
        if (this.queue[0].at !== null) {
          const job = this.queue.shift()!;
          this.waiting -= job.bytes.byteLength;
          await this.writeFully([job.bytes], job.at!, false);
        } else {
          let n = 1;
          while (n < this.queue.length && n < MAX_BLOCKS_PER_WRITE && this.queue[n].at === null) n++;
          const blocks = this.queue.splice(0, n).map((j) => j.bytes);
          for (const b of blocks) this.waiting -= b.byteLength;
          await this.writeFully(blocks, this.written, true);
        }
      } catch (err) {
        this.fail(describeFailure(err, 'write'));
      }
    }
    this.queue.length = 0;
    this.waiting = 0;
    this.writing = false;
    const drained = this.drained;
    this.drained = [];
    for (const fn of drained) fn();
  }

  /** writev until every byte is out (a short write continues where it stopped). */
  private async writeFully(blocks: Uint8Array[], position: number, append: boolean): Promise<void> {
    let left = blocks.reduce((s, b) => s + b.byteLength, 0);
    while (left > 0) {
      const { bytesWritten } = await this.fh.writev(blocks, position);
      if (bytesWritten === 0) throw new Error('the file took no bytes');
      if (append) this.written += bytesWritten;
      position += bytesWritten;
      left -= bytesWritten;
      if (left > 0) blocks = dropBytes(blocks, bytesWritten);
    }
  }
}

/** `blocks` without their first `n` bytes (views, no copy). */
function dropBytes(blocks: Uint8Array[], n: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (const b of blocks) {
    if (n >= b.byteLength) n -= b.byteLength;
    else {
      out.push(n > 0 ? b.subarray(n) : b);
      n = 0;
    }
  }
  return out;
}
