import { closeSync, constants, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { closeFile, copyFileTo, fsyncFile, makeDir, openFile, renameFile, unlinkFile, writeAll } from '../util/fs-calls.js';
import { basename, dirname, join } from 'node:path';
import { StorageError } from '../util/errors.js';

// Atomic replace: write a temp file in the same directory, fsync it, rename over the target,
// then fsync the directory so the rename itself survives a power cut. A reader (or a process
// killed at any instant) only ever sees the old or the new complete file.
let seq = 0;
/** A fresh temp name beside `path`: `<path>.tmp-<pid>-<n>`, the pattern boot-time cleanup removes. */
export const tempPath = (path: string) => `${path}.tmp-${process.pid}-${++seq}`;

export async function fsyncDir(dir: string): Promise<void> {
  try {
    const fd = await openFile(dir, 'r');
    try {
      await fsyncFile(fd);
    } finally {
      await closeFile(fd);
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  }
}

/**
 * Error codes of a data directory that cannot take a write; the store reports them as StorageError.
 * EEXIST/ENOTDIR: something that is not a directory sits where the data directory should be.
 */
export const STORAGE_ERROR_CODES = new Set(['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT', 'EIO', 'ENOTDIR', 'EEXIST', 'EISDIR', 'EMFILE', 'ENFILE']);

/** A failed write as the API reports it (507): a full or read-only disk is the operator's to fix. */
export function storageError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException)?.code;
  return code && STORAGE_ERROR_CODES.has(code) ? new StorageError(code) : err;
}

/**
 * Fills a fresh temp file beside `path` (`fill` writes it), fsyncs it and renames it over `path`.
 * Any failure removes the temp file, so a full disk leaves the old file and nothing else.
 */
async function replaceVia(path: string, fill: (tmp: string) => Promise<void>): Promise<void> {
  try {
    const dir = dirname(path);
    await makeDir(dir, { recursive: true });
    const tmp = tempPath(path);
    try {
      await fill(tmp);
      await renameFile(tmp, path);
    } catch (err) {
      await unlinkFile(tmp).catch(() => {});
      throw err;
    }
    await fsyncDir(dir);
  } catch (err) {
    throw storageError(err);
  }
}

/**
 * `mode` applies to the new file (the rename replaces the old one's mode too): 0o600 for secrets.
 * `data` may be parts (a large document serialised in slices): written one after another, never
 * joined into one buffer, which would be a multi-MiB copy in one turn of the loop. Parts from an
 * async iterable are made while the file is written: only one part is held at a time (a 16k
 * pass table's ~9 MiB of text never all in memory at once).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array | readonly Uint8Array[] | AsyncIterable<Uint8Array>, mode = 0o644): Promise<void> {
  return replaceVia(path, async (tmp) => {
    const fd = await openFile(tmp, 'w', mode);
    try {
      if (Array.isArray(data)) for (const part of data) await writeAll(fd, part);
      else if (typeof data === 'object' && Symbol.asyncIterator in data) for await (const part of data) await writeAll(fd, part);
      else await writeAll(fd, data as string | Uint8Array);
      await fsyncFile(fd);
    } finally {
      await closeFile(fd);
    }
  });
}

/** A copy of `src` at `dest`, atomically (a large file is copied by the kernel, not read into the heap). */
export function copyFileAtomic(src: string, dest: string): Promise<void> {
  return replaceVia(dest, async (tmp) => {
    await copyFileTo(src, tmp);
    const fd = await openFile(tmp, 'r+');
    try {
      await fsyncFile(fd);
    } finally {
      await closeFile(fd);
    }
  });
}

/** Synchronous twin for the last flush on shutdown. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o644): void {
  try {
    const dir = dirname(path);
    mkdirSync(dir, { recursive: true });
    const tmp = tempPath(path);
    try {
      const fd = openSync(tmp, 'w', mode);
      try {
        const buf = typeof data === 'string' ? Buffer.from(data) : data;
        let off = 0;
        while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        /* never created, or already renamed */
      }
      throw err;
    }
    try {
      const dfd = openSync(dir, 'r');
      try {
        fsyncSync(dfd);
      } finally {
        closeSync(dfd);
      }
    } catch {
      /* see fsyncDir */
    }
  } catch (err) {
    throw storageError(err);
  }
}

const TEMP_NAME = /\.tmp-(\d+)-\d+$/;

/** Remove temp files a killed process left behind in `dir` (only `*.tmp-<pid>-<n>`, never this process's). */
export function removeStaleTempsIn(dir: string, prefix = ''): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    const m = TEMP_NAME.exec(n);
    if (!m || !n.startsWith(prefix) || Number(m[1]) === process.pid) continue;
    try {
      unlinkSync(join(dir, n));
    } catch {
      /* already gone */
    }
  }
}

/** Remove temp files a killed process left behind for this target. */
export function removeStaleTemps(path: string): void {
  removeStaleTempsIn(dirname(path), basename(path) + '.tmp-');
}

export type CappedRead =
  | { kind: 'text'; text: string }
  | { kind: 'missing' }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'not-a-file' }
  | { kind: 'error'; code: string };

/**
 * A state file, read at boot: only a regular file (a FIFO would block the boot, /dev/zero never
 * ends), opened non-blocking, and at most `maxBytes` read whatever its size says (another process
 * may be writing it). A file over the cap is never parsed: JSON.parse of it could exhaust the heap.
 */
export function readTextCapped(path: string, maxBytes: number): CappedRead {
  const r = readBytesCapped(path, maxBytes);
  return r.kind === 'bytes' ? { kind: 'text', text: r.bytes.toString('utf8') } : r;
}

export type CappedBytes = Exclude<CappedRead, { kind: 'text' }> | { kind: 'bytes'; bytes: Buffer };

/** The same read, the bytes as they are (a binary state file). */
export function readBytesCapped(path: string, maxBytes: number): CappedBytes {
  let fd: number;
  try {
    if (!statSync(path).isFile()) return { kind: 'not-a-file' };
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
    return code === 'ENOENT' ? { kind: 'missing' } : { kind: 'error', code };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { kind: 'not-a-file' };
    if (st.size > maxBytes) return { kind: 'too-large', bytes: st.size };
    let buf = Buffer.allocUnsafe(Math.min(maxBytes + 1, Math.max(st.size + 1, 4096)));
    let n = 0;
    for (;;) {
      if (n === buf.length) {
        if (n > maxBytes) return { kind: 'too-large', bytes: n };
        const grown = Buffer.allocUnsafe(Math.min(maxBytes + 1, n * 2)); // it grew while read
        buf.copy(grown, 0, 0, n);
        buf = grown;
      }
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
    }
    if (n > maxBytes) return { kind: 'too-large', bytes: n };
    return { kind: 'bytes', bytes: buf.subarray(0, n) };
  } catch (err) {
    return { kind: 'error', code: (err as NodeJS.ErrnoException).code ?? 'EIO' };
  } finally {
    closeSync(fd);
  }
}

/**
 * Moves a file that cannot be used aside as `NAME.corrupt-<timestamp>` (kept for the operator,
 * never parsed again). Returns the new path, or null when the rename failed.
 */
export function moveAside(path: string, nowMs: number): string | null {
  const aside = `${path}.corrupt-${new Date(nowMs).toISOString().replace(/[:.]/g, '-')}`;
  try {
    renameSync(path, aside);
    return aside;
  } catch {
    return null;
  }
}

