import type { Clock } from '../../util/clock.js';
import { logger, type Logger } from '../../util/logger.js';
import { ageBucketCutoff, type AgeBucket } from './age-bucket.js';
import { EntryIds } from './entry-ids.js';
import { describeIoError as describe } from '../../store/io-error.js';
import type { AprsLogEntry } from './log-entry.js';
import { admitInput, type AprsLogInput } from './log-line.js';
import { readLogFile } from './log-reader.js';
import { LogWriter } from './log-writer.js';
import { Ring } from './ring.js';

// The APRS receive log: one JSON object per line in a single file, newest last. The caller (the
// APRS service) appends only while log_enabled is true; this class does not know the setting.
// It holds the memory (a ring of the newest maxRecords, ids) and composes the file's reader
// (log-reader.ts, once at load) and its one writer (log-writer.ts, appends and rewrites).
//
// Crash model (kill -9 or power cut at any instant):
// - appends are whole lines, written with O_APPEND by one writer, one write() call per batch, so a
//   kill loses at most the lines of the write in flight; a torn last line is cut off at the next
//   load and the next append always starts on a fresh line;
// - compaction and prune write a temp file, fsync, rename, fsync the directory: the file is either
//   the old or the new one, never half of each (a stale temp is swept at load);
// - appends are not fsynced (SD-card wear): a power cut can lose the last seconds of the log, the
//   file system's commit interval, but never corrupts what was committed before.

export type { AprsLogInput } from './log-line.js';

export interface AprsLogOptions {
  path: string;
  maxRecords: number;
  clock: Clock;
  log?: Logger;
  /** Each entry as it is stored (id assigned): the push hub's aprs.packets. */
  onAppend?: (e: AprsLogEntry) => void;
}

export interface AprsLogStats {
  size: number;
  file_lines: number;
  /** Lines skipped at the last load: not JSON, failing the schema, overlong or a torn tail. */
  malformed_at_load: number;
  /** Entries that left the ring before they reached the disk (a burst past maxRecords, or a disk
   * failing that long); compaction would have dropped them anyway. */
  dropped: number;
  last_error: string | null;
}

function checkMax(n: number): number {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`maxRecords must be a positive integer, got ${n}`);
  return n;
}

export class AprsLog {
  readonly path: string;
  private maxRecords: number;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly ring: Ring<AprsLogEntry>;
  private readonly ids = new EntryIds();
  private readonly writer: LogWriter;
  /** Appends made before load() finished; replayed after it so ids stay monotonic. */
  private early: AprsLogInput[] = [];
  /** Early appends past maxRecords, never stored. */
  private droppedEarly = 0;
  private loaded = false;
  private closed = false;
  private malformed = 0;
  private readonly onAppend: ((e: AprsLogEntry) => void) | undefined;

  constructor(o: AprsLogOptions) {
    this.onAppend = o.onAppend;
    this.path = o.path;
    this.maxRecords = checkMax(o.maxRecords);
    this.clock = o.clock;
    this.log = o.log ?? logger('aprs:log');
    this.ring = new Ring(this.maxRecords);
    this.writer = new LogWriter({ path: o.path, maxRecords: this.maxRecords, ring: this.ring, log: this.log });
  }

  get size(): number {
    return this.ring.length;
  }

  get lastError(): string | null {
    return this.writer.lastError;
  }

  get stats(): AprsLogStats {
    return {
      size: this.ring.length,
      file_lines: this.writer.fileLines,
      malformed_at_load: this.malformed,
      dropped: this.droppedEarly + this.writer.dropped,
      last_error: this.writer.lastError,
    };
  }

  /**
   * Reads the file once at boot. Never throws: an unreadable file leaves the log empty (and the
   * error in lastError), a file that is not a regular file is moved aside.
   */
  async load(): Promise<void> {
    if (this.loaded) return;
    let found = { fileLines: 0, dirty: false, error: null as string | null };
    try {
      const read = await readLogFile(this.path, {
        maxRecords: this.maxRecords,
        nowMs: this.clock.now(),
        log: this.log,
        onEntry: (e) => {
          this.ring.push(e);
          this.ids.note(e.id);
        },
      });
      this.malformed = read.malformed;
      found = { ...found, fileLines: read.fileLines, dirty: read.dirty };
    } catch (err) {
      found.error = `load: ${describe(err)}`;
      this.log.warn(`cannot read ${this.path} (${describe(err)}); starting with an empty APRS log`);
    }
    this.loaded = true;
    this.writer.start(found); // prunes asked for before the load go first
    const early = this.early;
    this.early = [];
    for (const e of early) this.append(e);
    this.writer.schedule(); // a dirty file's rewrite, or a prune asked for before the load
  }

  /**
   * Adds a received packet. Returns the stored entry (id assigned), or null when it was not
   * stored now: invalid, log closed, or deferred until load() finishes. Never throws; a failing
   * disk shows in lastError and the write is retried on the next append.
   */
  append(e: AprsLogInput): AprsLogEntry | null {
    if (this.closed) return null;
    if (!this.loaded) {
      if (this.early.length < this.maxRecords) this.early.push(e);
      else this.droppedEarly++;
      return null;
    }
    const admitted = admitInput(e);
    if (!admitted.ok) {
      this.log.warn(`APRS log entry refused: ${admitted.reason}`);
      return null;
    }
    const entry: AprsLogEntry = Object.freeze({ id: this.ids.next(this.clock.now()), ...admitted.entry });
    this.ring.push(entry);
    this.writer.append(entry);
    try {
      this.onAppend?.(entry);
    } catch (err) {
      this.log.warn(`APRS log append listener failed: ${(err as Error).message}`);
    }
    return entry;
  }

  /** Newest first; `since` (ISO 8601) keeps entries received at or after it. */
  entries(o: { limit?: number; since?: string } = {}): AprsLogEntry[] {
    const limit = o.limit === undefined ? Infinity : Math.max(0, Math.floor(o.limit));
    const since = o.since === undefined ? NaN : Date.parse(o.since);
    const out: AprsLogEntry[] = [];
    for (let i = this.ring.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.ring.at(i);
      if (Number.isFinite(since) && Date.parse(e.received_at) < since) continue;
      out.push(e);
    }
    return out;
  }

  /**
   * Removes entries older than the bucket (all of them for `all`) and rewrites the file
   * atomically. Memory changes only once the new file is in place; a failed rewrite rejects
   * (StorageError for a full or read-only disk) and leaves the log as it was.
   */
  async prune(bucket: AgeBucket): Promise<{ removed: number; kept: number }> {
    // What the request meant at the moment it was made: cutoff from now, and entries appended
    // after this call (while earlier writes finish) are not the operator's to clear.
    const done = await this.writer.prune({ cutoff: ageBucketCutoff(bucket, this.clock.now()), asOf: this.writer.appendSeq });
    this.log.info(`APRS log cleared (${bucket}): ${done.removed} removed, ${done.kept} kept`);
    return done;
  }

  /** Takes effect at once in memory; the file is compacted at the next write turn. */
  setMaxRecords(n: number): void {
    this.maxRecords = checkMax(n);
    this.ring.reset(this.ring.toArray(), this.maxRecords);
    this.writer.setMaxRecords(n);
  }

  /** Writes what waits (retrying once after a failure) and resolves; never rejects. */
  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Final flush, then the file handle is closed; later appends are ignored. */
  async close(): Promise<void> {
    await this.writer.flush();
    this.closed = true;
    await this.writer.close();
  }
}
