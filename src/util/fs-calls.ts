import { close, copyFile, fstat, fsync, mkdir, open, read, readdir, realpath, rename, stat, truncate, unlink, write } from 'node:fs';
import { promisify } from 'node:util';

// node:fs's own calls as promises, for the station's core (state files, the catalogue's sources and
// snapshots). Not node:fs/promises: with it come Node's readline interface, the file watchers and
// the directory reader, ~5 ms of CPU and ~0.9 MiB of a process's RSS measured alone here, for an
// API these few calls do not need. Only the recording area (statfs, its audio files) and a file
// answer's reads (util/lazy-builtins.ts) read node:fs/promises.

export const statOf = promisify(stat);
export const openFile = promisify(open);
export const fstatOf = promisify(fstat);
export const readInto = promisify(read);
export const closeFile = promisify(close);
export const fsyncFile = promisify(fsync);
export const makeDir = promisify(mkdir);
export const renameFile = promisify(rename);
export const unlinkFile = promisify(unlink);
export const copyFileTo = promisify(copyFile);
export const readDir = promisify(readdir);
export const realPath = promisify(realpath);
export const truncateFile = promisify(truncate);
/** One write() at the descriptor's position (null) or at `position`: resolves with bytesWritten. */
export const writeBytes = promisify(write);

/** Writes all of `data` at the descriptor's position (a write may take less than it was given). */
export async function writeAll(fd: number, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  let off = 0;
  while (off < bytes.length) {
    const { bytesWritten } = await writeBytes(fd, bytes, off, bytes.length - off, null);
    off += bytesWritten;
  }
}
