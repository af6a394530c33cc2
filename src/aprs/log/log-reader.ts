import { constants } from 'node:fs';
import { closeFile, fstatOf, openFile, readInto, statOf, truncateFile } from '../../util/fs-calls.js';
import { moveAside, removeStaleTemps } from '../../store/atomic-file.js';
import type { Logger } from '../../util/logger.js';
import { compactLimit, tailBytes } from './compaction.js';
import { describeIoError, errnoOf } from '../../store/io-error.js';
import type { AprsLogEntry } from './log-entry.js';
import { MAX_LINE_BYTES, parseLine } from './log-line.js';

// Reads the log file once at boot, from its tail when it is large, line by line in fixed chunks
// (the file is never held whole). What a kill or a power cut can leave is handled here: a torn
// last line is cut off, a stale temp of a rewrite swept, a non-file moved aside.

const READ_CHUNK = 64 * 1024;

export interface LogReadOptions {
  maxRecords: number;
  /** Now, for naming a non-file moved aside. */
  nowMs: number;
  log: Logger;
  /** Each valid entry, oldest first (the caller's ring keeps only the newest). */
  onEntry: (e: AprsLogEntry) => void;
}

export interface LogRead {
  /** Lines in the file now (after a torn tail is cut). */
  fileLines: number;
  /** Lines skipped: not JSON, failing the schema, overlong or a torn tail. */
  malformed: number;
  /** The file holds lines to drop (malformed ones, an unread head, past the cap): rewrite it. */
  dirty: boolean;
}

/** Throws on an unreadable file (the caller starts empty); a missing file reads as empty. */
export async function readLogFile(path: string, o: LogReadOptions): Promise<LogRead> {
  const none: LogRead = { fileLines: 0, malformed: 0, dirty: false };
  removeStaleTemps(path);
  let st;
  try {
    st = await statOf(path);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return none;
    throw err;
  }
  if (!st.isFile()) {
    const aside = moveAside(path, o.nowMs);
    o.log.warn(`${path} is not a regular file; ${aside ? `moved aside to ${aside}` : 'could not move it aside'}`);
    return none;
  }
  // Non-blocking: a FIFO swapped in after the stat must not hang the boot.
  const fd = await openFile(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
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
    o.onEntry(entry);
  };
  try {
    size = (await fstatOf(fd)).size;
    const cap = tailBytes(o.maxRecords);
    pos = size > cap ? size - cap : 0;
    goodEnd = pos;
    skipFirst = pos > 0; // starts mid-line
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    for (;;) {
      const { bytesRead } = await readInto(fd, chunk, 0, READ_CHUNK, pos);
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
    await closeFile(fd);
  }
  let truncated = false;
  if (pos > goodEnd && !skipFirst) {
    // Unterminated last line: a complete record missing only its '\n' is kept (the next write
    // adds the '\n'); anything else is what a kill cut short, and is cut off here.
    const entry = overlong ? null : parseLine(Buffer.concat(carry, carryLen));
    if (entry) {
      lines++;
      o.onEntry(entry);
    } else {
      malformed++;
      try {
        await truncateFile(path, goodEnd);
        truncated = true;
      } catch (err) {
        o.log.warn(`cannot cut the torn last line of ${path} (${describeIoError(err)}); the next write starts a new line`);
      }
    }
  }
  const headSkipped = size > tailBytes(o.maxRecords);
  if (malformed) o.log.warn(`${path}: skipped ${malformed} malformed line(s)${truncated ? ', cut a torn last line' : ''}`);
  if (headSkipped) o.log.warn(`${path} is ${size} bytes; read its last ${tailBytes(o.maxRecords)} only`);
  return {
    fileLines: lines,
    malformed,
    dirty: malformed > (truncated ? 1 : 0) || headSkipped || lines > compactLimit(o.maxRecords),
  };
}
