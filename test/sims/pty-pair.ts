import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// A pseudo-terminal pair from socat, named by links under /dev/shm (the radio settings accept
// only device paths under /dev/, and /dev/shm is writable without root). unplug() kills socat,
// which closes both ends like a pulled USB cable; replug() brings the same names back.

export interface PtyPair {
  /** The end the rig simulator opens. */
  rigPath: string;
  /** The end the appliance opens (what serial_device names). */
  ctlPath: string;
  unplug(): Promise<void>;
  replug(): Promise<void>;
  close(): Promise<void>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

async function startSocat(rig: string, ctl: string): Promise<ChildProcess> {
  const p = spawn('socat', [`pty,raw,echo=0,link=${rig}`, `pty,raw,echo=0,link=${ctl}`], { stdio: 'ignore' });
  live.add(p);
  p.on('exit', () => live.delete(p));
  const end = Date.now() + 5000;
  while (!(existsSync(rig) && existsSync(ctl))) {
    if (p.exitCode !== null) throw new Error(`socat exited (${p.exitCode}); is socat installed?`);
    if (Date.now() > end) throw new Error('socat did not create the pty links');
    await new Promise((r) => setTimeout(r, 10));
  }
  return p;
}

async function stopSocat(p: ChildProcess | null): Promise<void> {
  if (!p || p.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    p.once('exit', () => resolve());
    p.kill('SIGTERM');
  });
}

export async function openPtyPair(dir = mkdtempSync('/dev/shm/satstation-pty-')): Promise<PtyPair> {
  const rigPath = join(dir, 'rig');
  const ctlPath = join(dir, 'ctl');
  let proc: ChildProcess | null = await startSocat(rigPath, ctlPath);
  return {
    rigPath,
    ctlPath,
    async unplug() {
      await stopSocat(proc);
      proc = null;
    },
    async replug() {
      if (!proc) proc = await startSocat(rigPath, ctlPath);
    },
    async close() {
      await stopSocat(proc);
      proc = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
