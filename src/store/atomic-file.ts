import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { open, rename, mkdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

// Atomic replace: write a temp file in the same directory, fsync it, rename over the target,
// then fsync the directory so the rename itself survives a power cut. A reader (or a process
// killed at any instant) only ever sees the old or the new complete file.
let seq = 0;
const tmpName = (path: string) => `${path}.tmp-${process.pid}-${++seq}`;

async function fsyncDir(dir: string): Promise<void> {
  try {
    const fh = await open(dir, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  } catch {
    // Some file systems refuse fsync on directories; the rename is still atomic.
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const tmp = tmpName(path);
  const fh = await open(tmp, 'w', 0o644);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } catch (err) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fh.close();
  try {
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await fsyncDir(dir);
}

/** Synchronous twin for the last flush on shutdown. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const tmp = tmpName(path);
  const fd = openSync(tmp, 'w', 0o644);
  try {
    const buf = typeof data === 'string' ? Buffer.from(data) : data;
    let off = 0;
    while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
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
}

/** Remove temp files a killed process left behind for this target. */
export function removeStaleTemps(path: string): void {
  const dir = dirname(path);
  const prefix = basename(path) + '.tmp-';
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const n of names) {
    if (n.startsWith(prefix)) {
      try {
        unlinkSync(join(dir, n));
      } catch {
        /* already gone */
      }
    }
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

export { rename as renameFile };
