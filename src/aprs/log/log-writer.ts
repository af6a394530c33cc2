import { storageError, writeFileAtomic } from '../../store/atomic-file.js';
import type { Logger } from '../../util/logger.js';
import { OneAtATime } from '../../util/queue.js';
import { compactLimit, keptAfterPrune, type PruneRequest } from './compaction.js';
import { describeIoError as describe } from '../../store/io-error.js';
import { LineAppender } from '../../store/line-appender.js';
import type { AprsLogEntry } from './log-entry.js';
import { encodeLine } from './log-line.js';
import type { Ring } from './ring.js';

// The one writer of the log file: appends, compactions and prunes take turns, one at a time, so
// the file only ever sees one of them. Never throws from the append path: a failing disk shows in
// lastError and is retried on the next append (or flush), not in a busy loop.
//
// Compaction and prune write the entries in memory to a temp file, fsync, rename, fsync the
// directory (store/atomic-file): the file is the old or the new one, never half of each. The
// memory (the shared ring) changes only once the new file is in place.

/** Lines per write() while rewriting, so a compaction never builds the whole file as one string. */
const REWRITE_CHUNK_LINES = 256;

export interface LogWriterOptions {
  path: string;
  maxRecords: number;
  /** The log's memory: read for a rewrite, replaced once the rewritten file is in place. */
  ring: Ring<AprsLogEntry>;
  log: Logger;
}

export class LogWriter {
  private readonly path: string;
  private readonly ring: Ring<AprsLogEntry>;
  private readonly log: Logger;
  private readonly file: LineAppender;
  private maxRecords: number;
  /** Write turns and prunes, one at a time (unbounded: prunes are rare, turns never pile up). */
  private readonly turns = new OneAtATime(Number.POSITIVE_INFINITY);
  /** A write turn waits in the queue: another is not added. */
  private turnWaiting = false;
  private started = false;
  /** Prunes asked for before start(); queued once it is called. */
  private heldPrunes: Array<() => Promise<void>> = [];
  /** After a failed write, wait for the next append (or flush) before trying again. */
  private blocked = false;
  /** The file holds lines to drop (malformed, or more than the cap): rewrite it at the next turn. */
  private dirty = false;
  private error: string | null = null;
  /** Lines that left the queue before they reached the disk (a burst past the cap, a long outage). */
  dropped = 0;

  constructor(o: LogWriterOptions) {
    this.path = o.path;
    this.ring = o.ring;
    this.log = o.log;
    this.maxRecords = o.maxRecords;
    this.file = new LineAppender(o.path);
  }

  get lastError(): string | null {
    return this.error;
  }

  get fileLines(): number {
    return this.file.fileLines;
  }

  /** Appends queued so far: a prune keeps what comes after its own count. */
  get appendSeq(): number {
    return this.file.appendSeq;
  }

  /** The file as the load found it; prunes asked for before it are queued now. */
  start(found: { fileLines: number; dirty: boolean; error: string | null }): void {
    this.file.fileLines = found.fileLines;
    this.dirty = found.dirty;
    this.error = found.error;
    this.started = true;
    for (const job of this.heldPrunes.splice(0)) void this.turns.run(job);
  }

  /** Queues an entry's line (bounded while the disk is failing: what the ring no longer holds is not worth keeping). */
  append(e: AprsLogEntry): void {
    this.file.queue(encodeLine(e));
    this.dropped += this.file.trim(this.maxRecords);
    this.blocked = false;
    this.schedule();
  }

  /**
   * Rewrites the file without the entries the prune drops; resolves with how many it removed and
   * kept. A failed rewrite rejects (StorageError for a full or read-only disk) and changes nothing.
   */
  prune(req: PruneRequest): Promise<{ removed: number; kept: number }> {
    return new Promise((resolve, reject) => {
      const job = async () => {
        try {
          const removed = await this.rewrite(req);
          resolve({ removed, kept: this.ring.length });
        } catch (err) {
          this.fail('prune', err);
          reject(storageError(err));
        }
      };
      if (this.started) void this.turns.run(job);
      else this.heldPrunes.push(job);
    });
  }

  /** The ring has been cut to `n` already; the queue follows, the file at the next turn. */
  setMaxRecords(n: number): void {
    this.maxRecords = n;
    this.dropped += this.file.trim(n);
    if (this.file.fileLines > compactLimit(n)) this.dirty = true;
    if (this.started) this.schedule();
  }

  /** Writes what waits (retrying once after a failure) and resolves; never rejects. */
  async flush(): Promise<void> {
    if (!this.started) return;
    this.blocked = false;
    if (this.file.waiting || this.needsRewrite()) this.schedule();
    await this.turns.idle();
  }

  async close(): Promise<void> {
    await this.turns.idle();
    await this.file.close();
  }

  /** Queues a write turn unless one already waits; work arriving during a turn gets the next one. */
  schedule(): void {
    if (this.turnWaiting) return;
    this.turnWaiting = true;
    void this.turns.run(() => {
      this.turnWaiting = false;
      return this.drain();
    });
  }

  private needsRewrite(): boolean {
    return this.dirty || this.file.fileLines + this.file.waiting > compactLimit(this.maxRecords);
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.blocked) return;
      if (this.needsRewrite()) {
        try {
          await this.rewrite(null);
        } catch (err) {
          this.fail('compact', err);
        }
        continue;
      }
      if (!this.file.waiting) return;
      try {
        await this.file.writeBatch();
        this.ok();
      } catch (err) {
        this.fail('append', err);
      }
    }
  }

  private fail(op: string, err: unknown): void {
    const msg = `${op}: ${describe(err)}`;
    if (msg !== this.error) this.log.warn(`APRS log ${op} to ${this.path} failed (${describe(err)}); retrying on the next packet`);
    this.error = msg;
    this.blocked = true;
    void this.file.close(); // reopened (and its tail checked) on the next try
  }

  private ok(): void {
    if (this.error) this.log.info(`APRS log writes to ${this.path} work again`);
    this.error = null;
  }

  /**
   * Writes the entries in memory (for a prune: less those it drops) over the file. Returns how
   * many entries were left out.
   */
  private async rewrite(prune: PruneRequest | null): Promise<number> {
    const snapSeq = this.file.appendSeq;
    const all = this.ring.toArray();
    const kept = prune ? keptAfterPrune(all, prune, snapSeq) : all;
    await this.file.close(); // it would point at the old inode after the rename
    await writeFileAtomic(this.path, chunksOf(kept));
    // Entries appended while the file was written are newer than the snapshot: keep them queued.
    const fresh = this.ring.newest(this.file.appendSeq - snapSeq);
    this.ring.reset(kept.concat(fresh));
    this.file.replaced(kept.length, snapSeq);
    this.dirty = false;
    this.ok();
    return all.length - kept.length;
  }
}

/** The lines of `entries`, REWRITE_CHUNK_LINES to a part, made one part at a time. */
async function* chunksOf(entries: readonly AprsLogEntry[]): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < entries.length; i += REWRITE_CHUNK_LINES) {
    let chunk = '';
    for (const e of entries.slice(i, i + REWRITE_CHUNK_LINES)) chunk += encodeLine(e);
    yield Buffer.from(chunk);
  }
}
