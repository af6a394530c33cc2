// The logbook file: one JSON event a line under DATA_DIR (journal-events.ts), appended with
// O_APPEND whole lines (store/line-appender, the APRS log's appender), replayed at load,
// compacted to one line per QSO through store/atomic-file (temp, fsync, rename) when dead lines
// pile up, bounded to maxRecords (the oldest go at compaction). A kill -9 at any instant leaves
// whole lines plus at most one torn last line, which the load cuts off; a compaction leaves the
// old file or the new one, never half of each.
//
// Every change waits for its line to reach the file (write(), not fsync: a kill -9 cannot lose
// it, a power cut can lose the last second) before memory changes and the caller is answered.
import { closeFile, openFile, readInto, truncateFile } from '../util/fs-calls.js';
import { storageError, writeFileAtomic } from '../store/atomic-file.js';
import { describeIoError } from '../store/io-error.js';
import { LineAppender } from '../store/line-appender.js';
import type { Logger } from '../util/logger.js';
import { OneAtATime } from '../util/queue.js';
import { applyEvent, compactLimit, decodeEvent, dropOldest, encodeEvent, type JournalEvent } from './journal-events.js';
import type { QsoRecord } from './schemas.js';

const READ_CHUNK = 64 * 1024;
/** Lines per write() while rewriting, so a compaction never builds the whole file as one string. */
const REWRITE_CHUNK_LINES = 256;

export interface JournalOptions {
  path: string;
  maxRecords: number;
  log: Logger;
}

export class LogbookJournal {
  /** The QSOs in the order they were logged (oldest first). */
  readonly records = new Map<string, QsoRecord>();
  private readonly file: LineAppender;
  /** Changes and compactions take turns, so the file sees one writer at a time. */
  private readonly turns = new OneAtATime(Number.POSITIVE_INFINITY);
  /** Lines the file holds that a rewrite would drop (malformed, dead, or past the bound). */
  private dirty = false;
  private error: string | null = null;
  /** Bumped by every change of the records (readers cache what they derive from them). */
  version = 0;

  constructor(private readonly o: JournalOptions) {
    this.file = new LineAppender(o.path);
  }

  get lastError(): string | null {
    return this.error;
  }

  get fileLines(): number {
    return this.file.fileLines;
  }

  /** Replays the file (missing: an empty logbook); a torn last line is cut off. */
  async load(): Promise<void> {
    let lines = 0;
    let bad = 0;
    let fd: number;
    try {
      fd = await openFile(this.o.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw storageError(err);
    }
    let cutAt: number | null = null;
    try {
      const buf = Buffer.alloc(READ_CHUNK);
      let carry = Buffer.alloc(0);
      let pos = 0;
      for (;;) {
        const { bytesRead } = await readInto(fd, buf, 0, READ_CHUNK, pos);
        if (bytesRead === 0) break;
        pos += bytesRead;
        const data = carry.length ? Buffer.concat([carry, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
        let start = 0;
        for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
          const line = data.toString('utf8', start, nl);
          start = nl + 1;
          lines++;
          const e = line.trim() === '' ? null : decodeEvent(line);
          if (!e || !applyEvent(this.records, e)) bad++;
        }
        carry = Buffer.from(data.subarray(start)); // a copy: buf is read into again
      }
      if (carry.length) {
        // No '\n' after it: the write a kill interrupted. A whole event in it still counts.
        const e = decodeEvent(carry.toString('utf8'));
        if (e) {
          applyEvent(this.records, e);
          lines++;
        } else cutAt = pos - carry.length;
      }
    } finally {
      await closeFile(fd);
    }
    if (cutAt !== null) {
      await truncateFile(this.o.path, cutAt).catch((err) => this.o.log.warn(`logbook: cannot cut the torn last line of ${this.o.path} (${describeIoError(err)})`));
    }
    this.file.fileLines = lines;
    if (dropOldest(this.records, this.o.maxRecords) > 0 || bad > 0) this.dirty = true;
  }

  /** Writes the event, then applies it to memory; rejects (StorageError for a full disk) with nothing changed. */
  change(e: JournalEvent): Promise<void> {
    return this.turns.run(async () => {
      this.file.queue(encodeEvent(e));
      try {
        while (this.file.waiting) await this.file.writeBatch();
      } catch (err) {
        this.file.trim(0); // not written, not answered as written: never retried behind the caller's back
        await this.file.close();
        this.fail('append', err);
        throw storageError(err);
      }
      this.error = null;
      applyEvent(this.records, e);
      this.version++;
      if (this.records.size > this.o.maxRecords) this.dirty = true;
      if (this.dirty || this.file.fileLines > compactLimit(this.records.size)) await this.compact();
    });
  }

  /** Writes every change still under way. */
  async close(): Promise<void> {
    await this.turns.idle();
    await this.file.close();
  }

  /** One 'qso' line per record kept (the oldest past the bound dropped first), atomically. */
  private async compact(): Promise<void> {
    const kept = new Map(this.records);
    dropOldest(kept, this.o.maxRecords);
    try {
      await this.file.close(); // it would point at the old inode after the rename
      await writeFileAtomic(this.o.path, chunksOf([...kept.values()]));
    } catch (err) {
      // The appended lines are still good; the next change tries again.
      this.fail('compact', err);
      return;
    }
    const dropped = this.records.size - kept.size;
    if (dropped > 0) {
      dropOldest(this.records, this.o.maxRecords);
      this.version++;
    }
    this.file.replaced(kept.size, this.file.appendSeq);
    this.dirty = false;
  }

  private fail(op: string, err: unknown): void {
    const msg = `${op}: ${describeIoError(err)}`;
    if (msg !== this.error) this.o.log.warn(`logbook ${op} to ${this.o.path} failed (${describeIoError(err)})`);
    this.error = msg;
  }
}

async function* chunksOf(records: readonly QsoRecord[]): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < records.length; i += REWRITE_CHUNK_LINES) {
    let chunk = '';
    for (const q of records.slice(i, i + REWRITE_CHUNK_LINES)) chunk += encodeEvent({ t: 'qso', q });
    yield Buffer.from(chunk);
  }
}
