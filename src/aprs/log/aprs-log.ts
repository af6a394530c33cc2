import { constants } from 'node:fs';
import { mkdir, open, rename, stat, truncate, unlink, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { fsyncDir, moveAside, removeStaleTemps, STORAGE_ERROR_CODES, tempPath } from '../../store/atomic-file.js';
import type { Clock } from '../../util/clock.js';
import { StorageError, errorMessage } from '../../util/errors.js';
import { logger, type Logger } from '../../util/logger.js';
import { OneAtATime } from '../../util/queue.js';
import { ageBucketCutoff, type AgeBucket } from './age-bucket.js';
import { APRS_LOG_FIELD_MAX, AprsLogEntrySchema, type AprsLogEntry } from './log-entry.js';

// The APRS receive log: one JSON object per line in a single file, newest last. The caller (the
// APRS service) appends only while log_enabled is true; this class does not know the setting.
//
// Crash model (kill -9 or power cut at any instant):
// - appends are whole lines, written with O_APPEND by one writer, one write() call per batch, so a
//   kill loses at most the lines of the write in flight; a torn last line is cut off at the next
//   load and the next append always starts on a fresh line;
// - compaction and prune write a temp file, fsync, rename, fsync the directory: the file is either
//   the old or the new one, never half of each (a stale temp is swept at load);
// - appends are not fsynced (SD-card wear): a power cut can lose the last seconds of the log, the
//   file system's commit interval, but never corrupts what was committed before.

/** Longest line accepted at load: the longest entry, every character escaped, fits with room. */
const MAX_LINE_BYTES = 8192;
/** Lines past maxRecords × this before the file is compacted back to maxRecords. */
const COMPACT_FACTOR = 1.25;
/** Bytes written per append() call at most (a burst after an outage goes out in a few writes). */
const BATCH_BYTES = 64 * 1024;
/** Lines per write() while rewriting, so a compaction never builds the whole file as one string. */
const REWRITE_CHUNK_LINES = 256;
const READ_CHUNK = 64 * 1024;
/** A file bigger than this is read from its tail only: the head would be dropped at compaction anyway. */
const tailBytes = (maxRecords: number) => Math.max(1024 * 1024, compactLimit(maxRecords) * 1024);
const compactLimit = (maxRecords: number) => Math.ceil(maxRecords * COMPACT_FACTOR);

const ID = /^(\d{13})-(\d{4})$/;

export type AprsLogInput = Omit<AprsLogEntry, 'id'>;

export interface AprsLogOptions {
  path: string;
  maxRecords: number;
  clock: Clock;
  log?: Logger;
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

/** Bounded FIFO of entries, oldest first; pushing past the capacity evicts the oldest. */
class Ring<T> {
  private buf: T[] = [];
  private start = 0;
  constructor(private cap: number) {}
  get length(): number {
    return this.buf.length;
  }
  push(x: T): void {
    if (this.buf.length < this.cap) this.buf.push(x);
    else {
      this.buf[this.start] = x;
      this.start = (this.start + 1) % this.cap;
    }
  }
  /** i = 0 is the oldest. */
  at(i: number): T {
    return this.buf[(this.start + i) % this.buf.length];
  }
  toArray(): T[] {
    return this.buf.slice(this.start).concat(this.buf.slice(0, this.start));
  }
  /** The newest k, oldest first. */
  newest(k: number): T[] {
    const all = this.toArray();
    return k <= 0 ? [] : all.slice(Math.max(0, all.length - k));
  }
  reset(items: T[], cap = this.cap): void {
    this.cap = cap;
    this.buf = items.slice(Math.max(0, items.length - cap));
    this.start = 0;
  }
}

interface PendingLine {
  seq: number;
  line: string;
}


const errCode = (err: unknown): string | undefined => (err as NodeJS.ErrnoException)?.code;
const describe = (err: unknown): string => errCode(err) ?? errorMessage(err);

export class AprsLog {
  readonly path: string;
  private maxRecords: number;
  private readonly clock: Clock;
  private readonly log: Logger;
  private ring: Ring<AprsLogEntry>;
  private pending: PendingLine[] = [];
  /** Appends made before load() finished; replayed after it so ids stay monotonic. */
  private early: AprsLogInput[] = [];
  /** The one writer: write turns and prunes, one at a time (unbounded: prunes are rare, turns never pile up). */
  private readonly writer = new OneAtATime(Number.POSITIVE_INFINITY);
  /** A write turn waits in the writer: another is not added. */
  private turnWaiting = false;
  /** Prunes asked for before load() finished; queued once it has. */
  private earlyPrunes: Array<() => Promise<void>> = [];
  private fh: FileHandle | null = null;
  /** The file does not end in '\n' (a torn or unterminated line): the next write starts with one. */
  private needNewline = false;
  private loaded = false;
  private closed = false;
  /** After a failed write, wait for the next append (or flush) before trying again: no busy retry. */
  private blocked = false;
  /** The file holds lines to drop (malformed, or more than the cap): rewrite it at the next turn. */
  private dirty = false;
  private appendSeq = 0;
  private fileLines = 0;
  private malformed = 0;
  private dropped = 0;
  private error: string | null = null;
  private lastMs = -1;
  private lastSeq = -1;

  constructor(o: AprsLogOptions) {
    this.path = o.path;
    this.maxRecords = AprsLog.checkMax(o.maxRecords);
    this.clock = o.clock;
    this.log = o.log ?? logger('aprs:log');
    this.ring = new Ring(this.maxRecords);
  }

  private static checkMax(n: number): number {
    if (!Number.isInteger(n) || n < 1) throw new RangeError(`maxRecords must be a positive integer, got ${n}`);
    return n;
  }

  get size(): number {
    return this.ring.length;
  }

  get lastError(): string | null {
    return this.error;
  }

  get stats(): AprsLogStats {
    return { size: this.ring.length, file_lines: this.fileLines, malformed_at_load: this.malformed, dropped: this.dropped, last_error: this.error };
  }

  /**
   * Reads the file once at boot. Never throws: an unreadable file leaves the log empty (and the
   * error in lastError), a file that is not a regular file is moved aside.
   */
  async load(): Promise<void> {
    if (this.loaded) return;
    removeStaleTemps(this.path);
    try {
      await this.readFile();
    } catch (err) {
      this.error = `load: ${describe(err)}`;
      this.log.warn(`cannot read ${this.path} (${describe(err)}); starting with an empty APRS log`);
    }
    this.loaded = true;
    for (const job of this.earlyPrunes.splice(0)) void this.writer.run(job);
    const early = this.early;
    this.early = [];
    for (const e of early) this.append(e);
    this.schedule(); // a dirty file's rewrite, or a prune asked for before the load
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
      else this.dropped++;
      return null;
    }
    const at = Date.parse(e.received_at);
    const candidate = {
      received_at: Number.isFinite(at) ? new Date(at).toISOString() : String(e.received_at),
      // Clipped rather than refused: a long third-party header should still be logged.
      source: clip(e.source, APRS_LOG_FIELD_MAX.source),
      destination: clip(e.destination, APRS_LOG_FIELD_MAX.destination),
      text: clip(e.text, APRS_LOG_FIELD_MAX.text),
      message: e.message,
    };
    const res = v.safeParse(AprsLogEntrySchema, { ...candidate, id: 'pending' });
    if (!res.success) {
      this.log.warn(`APRS log entry refused: ${res.issues[0]?.message ?? 'invalid'}`);
      return null;
    }
    const entry: AprsLogEntry = Object.freeze({ ...res.output, id: this.nextId() });
    this.ring.push(entry);
    this.pending.push({ seq: ++this.appendSeq, line: JSON.stringify(entry) + '\n' });
    // Bounded while the disk is failing: what the ring no longer holds is not worth keeping.
    if (this.pending.length > this.maxRecords) {
      const over = this.pending.length - this.maxRecords;
      this.pending.splice(0, over);
      this.dropped += over;
    }
    this.blocked = false;
    this.schedule();
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
  prune(bucket: AgeBucket): Promise<{ removed: number; kept: number }> {
    // What the request meant at the moment it was made: cutoff from now, and entries appended
    // after this call (while earlier writes finish) are not the operator's to clear.
    const cutoff = ageBucketCutoff(bucket, this.clock.now());
    const asOf = this.appendSeq;
    return new Promise((resolve, reject) => {
      const job = async () => {
        try {
          const removed = await this.rewrite({ cutoff, asOf });
          this.log.info(`APRS log cleared (${bucket}): ${removed} removed, ${this.ring.length} kept`);
          resolve({ removed, kept: this.ring.length });
        } catch (err) {
          this.fail('prune', err);
          const code = errCode(err);
          reject(code && STORAGE_ERROR_CODES.has(code) ? new StorageError(code) : err);
        }
      };
      if (this.loaded) void this.writer.run(job);
      else this.earlyPrunes.push(job);
    });
  }

  /** Takes effect at once in memory; the file is compacted at the next write turn. */
  setMaxRecords(n: number): void {
    this.maxRecords = AprsLog.checkMax(n);
    this.ring.reset(this.ring.toArray(), this.maxRecords);
    if (this.pending.length > n) {
      this.dropped += this.pending.length - n;
      this.pending.splice(0, this.pending.length - n);
    }
    if (this.fileLines > compactLimit(n)) this.dirty = true;
    if (this.loaded) this.schedule();
  }

  /** Writes what waits (retrying once after a failure) and resolves; never rejects. */
  async flush(): Promise<void> {
    if (!this.loaded) return;
    this.blocked = false;
    if (this.pending.length || this.needsRewrite()) this.schedule();
    await this.writer.idle();
  }

  /** Final flush, then the file handle is closed; later appends are ignored. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.writer.idle();
    await this.closeHandle();
  }

  // ---- ids ----

  /** `<13-digit epoch ms>-<4-digit counter>`: sorts as text, and never goes back, even when the
   * clock does (a Pi without RTC boots at its last saved time): the last id on file is the floor. */
  private nextId(): string {
    let ms = Math.max(0, Math.floor(this.clock.now()), this.lastMs);
    let seq = ms === this.lastMs ? this.lastSeq + 1 : 0;
    if (seq > 9999) {
      ms++;
      seq = 0;
    }
    this.lastMs = ms;
    this.lastSeq = seq;
    return `${String(ms).padStart(13, '0')}-${String(seq).padStart(4, '0')}`;
  }

  private noteId(id: string): void {
    const m = ID.exec(id);
    if (!m) return;
    const ms = Number(m[1]);
    const seq = Number(m[2]);
    if (ms > this.lastMs || (ms === this.lastMs && seq > this.lastSeq)) {
      this.lastMs = ms;
      this.lastSeq = seq;
    }
  }

  // ---- the one writer ----

  /** Queues a write turn unless one already waits; work arriving during a turn gets the next one. */
  private schedule(): void {
    if (this.turnWaiting) return;
    this.turnWaiting = true;
    void this.writer.run(() => {
      this.turnWaiting = false;
      return this.drain();
    });
  }

  private needsRewrite(): boolean {
    return this.dirty || this.fileLines + this.pending.length > compactLimit(this.maxRecords);
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
      if (!this.pending.length) return;
      try {
        await this.appendBatch();
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
    void this.closeHandle(); // reopened (and its tail checked) on the next try
  }

  private ok(): void {
    if (this.error) this.log.info(`APRS log writes to ${this.path} work again`);
    this.error = null;
  }

  private async handle(): Promise<FileHandle> {
    if (this.fh) return this.fh;
    await mkdir(dirname(this.path), { recursive: true });
    // a+ so the last byte can be read: after a torn write the next line must start on its own.
    const fh = await open(this.path, 'a+', 0o644);
    try {
      const { size } = await fh.stat();
      if (size > 0) {
        const b = Buffer.alloc(1);
        await fh.read(b, 0, 1, size - 1);
        this.needNewline = b[0] !== 0x0a;
      } else this.needNewline = false;
    } catch (err) {
      await fh.close().catch(() => {});
      throw err;
    }
    this.fh = fh;
    return fh;
  }

  private async closeHandle(): Promise<void> {
    const fh = this.fh;
    this.fh = null;
    await fh?.close().catch(() => {});
  }

  /** One write() of whole lines; lines a short write did not finish go back to the queue. */
  private async appendBatch(): Promise<void> {
    let bytes = 0;
    let n = 0;
    while (n < this.pending.length && (n === 0 || bytes + this.pending[n].line.length <= BATCH_BYTES)) bytes += this.pending[n++].line.length;
    const batch = this.pending.splice(0, n);
    const fh = await this.handle().catch((err) => {
      this.pending.unshift(...batch);
      throw err;
    });
    const prefix = this.needNewline ? '\n' : '';
    const buf = Buffer.from(prefix + batch.map((p) => p.line).join(''));
    let off = 0;
    try {
      while (off < buf.length) off += (await fh.write(buf, off, buf.length - off)).bytesWritten;
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
    this.ok();
  }

  /**
   * Writes the entries in memory (for a prune: less those older than its cutoff) to a temp
   * file and renames it over the log. Returns how many entries were left out.
   */
  private async rewrite(prune: { cutoff: number; asOf: number } | null): Promise<number> {
    const snapSeq = this.appendSeq;
    const all = this.ring.toArray();
    let kept = all;
    if (prune) {
      const split = Math.max(0, all.length - (snapSeq - prune.asOf)); // [split..] came after the request
      kept = all.slice(0, split).filter((e) => !(Date.parse(e.received_at) < prune.cutoff)).concat(all.slice(split));
    }
    const dir = dirname(this.path);
    await mkdir(dir, { recursive: true });
    const tmp = tempPath(this.path);
    const out = await open(tmp, 'w', 0o644);
    try {
      for (let i = 0; i < kept.length; i += REWRITE_CHUNK_LINES) {
        let chunk = '';
        for (const e of kept.slice(i, i + REWRITE_CHUNK_LINES)) chunk += JSON.stringify(e) + '\n';
        await out.write(chunk);
      }
      await out.sync();
      await out.close();
    } catch (err) {
      await out.close().catch(() => {});
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await this.closeHandle(); // it points at the old inode after the rename
    try {
      await rename(tmp, this.path);
    } catch (err) {
      await unlink(tmp).catch(() => {});
      throw err;
    }
    await fsyncDir(dir);
    // Entries appended while the file was written are newer than the snapshot: keep them queued.
    const fresh = this.ring.newest(this.appendSeq - snapSeq);
    this.ring.reset(kept.concat(fresh));
    this.pending = this.pending.filter((p) => p.seq > snapSeq);
    this.fileLines = kept.length;
    this.needNewline = false;
    this.dirty = false;
    this.ok();
    return all.length - kept.length;
  }

  // ---- load ----

  private async readFile(): Promise<void> {
    let st;
    try {
      st = await stat(this.path);
    } catch (err) {
      if (errCode(err) === 'ENOENT') return;
      throw err;
    }
    if (!st.isFile()) {
      const aside = moveAside(this.path, this.clock.now());
      this.log.warn(`${this.path} is not a regular file; ${aside ? `moved aside to ${aside}` : 'could not move it aside'}`);
      return;
    }
    // Non-blocking: a FIFO swapped in after the stat must not hang the boot.
    const fh = await open(this.path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    let size: number;
    let pos: number;
    let goodEnd: number; // offset just past the last '\n'
    let lines = 0;
    let malformed = 0;
    let carry: Buffer[] = [];
    let carryLen = 0;
    let overlong = false;
    let skipFirst: boolean;
    const take = (line: Buffer) => {
      lines++;
      if (line.length === 0) return; // a '\n' written after a torn line
      const entry = parseLine(line);
      if (!entry) {
        malformed++;
        return;
      }
      this.ring.push(entry);
      this.noteId(entry.id);
    };
    try {
      size = (await fh.stat()).size;
      const cap = tailBytes(this.maxRecords);
      pos = size > cap ? size - cap : 0;
      goodEnd = pos;
      skipFirst = pos > 0; // starts mid-line
      const chunk = Buffer.allocUnsafe(READ_CHUNK);
      for (;;) {
        const { bytesRead } = await fh.read(chunk, 0, READ_CHUNK, pos);
        if (bytesRead === 0) break;
        const view = chunk.subarray(0, bytesRead);
        let i = 0;
        while (i < bytesRead) {
          const nl = view.indexOf(0x0a, i);
          const end = nl === -1 ? bytesRead : nl;
          if (!overlong) {
            if (carryLen + end - i > MAX_LINE_BYTES) {
              overlong = true;
              carry = [];
              carryLen = 0;
            } else if (nl === -1 || carryLen > 0) {
              carry.push(Buffer.from(view.subarray(i, end))); // the chunk buffer is reused
              carryLen += end - i;
            }
          }
          if (nl === -1) break;
          const line = overlong ? null : carryLen > 0 ? Buffer.concat(carry, carryLen) : view.subarray(i, nl);
          if (skipFirst) skipFirst = false;
          else if (line) take(line);
          else {
            lines++;
            malformed++;
          }
          carry = [];
          carryLen = 0;
          overlong = false;
          goodEnd = pos + nl + 1;
          i = nl + 1;
        }
        pos += bytesRead;
      }
    } finally {
      await fh.close();
    }
    let truncated = false;
    if (pos > goodEnd && !skipFirst) {
      // Unterminated last line: a complete record missing only its '\n' is kept (the next write
      // adds the '\n'); anything else is what a kill cut short, and is cut off here.
      const entry = overlong ? null : parseLine(Buffer.concat(carry, carryLen));
      if (entry) {
        lines++;
        this.ring.push(entry);
        this.noteId(entry.id);
      } else {
        malformed++;
        try {
          await truncate(this.path, goodEnd);
          truncated = true;
        } catch (err) {
          this.log.warn(`cannot cut the torn last line of ${this.path} (${describe(err)}); the next write starts a new line`);
        }
      }
    }
    this.fileLines = lines;
    this.malformed = malformed;
    const headSkipped = size > tailBytes(this.maxRecords);
    if (malformed > (truncated ? 1 : 0) || headSkipped || lines > compactLimit(this.maxRecords)) this.dirty = true;
    if (malformed) this.log.warn(`${this.path}: skipped ${malformed} malformed line(s)${truncated ? ', cut a torn last line' : ''}`);
    if (headSkipped) this.log.warn(`${this.path} is ${size} bytes; read its last ${tailBytes(this.maxRecords)} only`);
  }
}

function parseLine(line: Buffer): AprsLogEntry | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line.toString('utf8'));
  } catch {
    return null;
  }
  const res = v.safeParse(AprsLogEntrySchema, raw);
  return res.success ? Object.freeze(res.output) : null;
}

function clip(s: unknown, max: number): string {
  const str = typeof s === 'string' ? s : String(s ?? '');
  return str.length > max ? str.slice(0, max) : str;
}
