import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

// A pseudo-terminal pair from socat, named by links under /dev/shm (the radio settings accept
// only device paths under /dev/, and /dev/shm is writable without root). unplug() kills socat,
// which closes both ends like a pulled USB cable and removes the links; replug() brings the
// same names back (new /dev/pts numbers behind them).
//
// socat runs under a small sh watchdog that holds a pipe from this process: when the pipe
// closes (stop() or this process dying in any way, even SIGKILL) the watchdog kills socat, so
// no socat is ever left behind.

export interface PtyPair {
  /** The end the rig simulator opens. */
  rigPath: string;
  /** The end the appliance opens (what serial_device names), a path under /dev/shm. */
  ctlPath: string;
  /** Kills socat: both ends close and the links vanish. */
  unplug(): Promise<void>;
  /** Starts socat again behind the same link names. No-op when already plugged. */
  replug(): Promise<void>;
  /** Kills socat and removes the folder. */
  close(): Promise<void>;
}

// fd 3 is this process's pipe; the background reader gets EOF when it closes and kills socat.
// (An asynchronous list's stdin is /dev/null in a non-interactive sh, hence the dup to fd 3.)
const WATCHDOG = 'exec 3<&0; socat "$@" </dev/null & p=$!; (read _ <&3; kill $p 2>/dev/null) & w=$!; wait $p; s=$?; kill $w 2>/dev/null; exit $s';

interface Socat {
  proc: ChildProcess;
  exited: Promise<void>;
}

const live = new Set<ChildProcess>();
const folders = new Set<string>();
process.once('exit', () => {
  for (const p of live) p.stdin?.destroy(); // EOF for the watchdog, which kills socat
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

async function startSocat(rig: string, ctl: string): Promise<Socat> {
  const args = ['-d', '-d', `pty,raw,echo=0,link=${rig}`, `pty,raw,echo=0,link=${ctl}`];
  const proc = spawn('sh', ['-c', WATCHDOG, 'sh', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
  live.add(proc);
  let log = '';
  let ready = false;
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (s: string) => {
    if (log.length < 8192) log += s;
    if (log.includes('starting data transfer loop')) ready = true;
  });
  proc.stdin!.on('error', () => {});
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', () => {
      live.delete(proc);
      resolve();
    });
  });
  const end = Date.now() + 5000;
  while (!(ready && existsSync(rig) && existsSync(ctl))) {
    if (proc.exitCode !== null || proc.signalCode !== null) throw new Error(`socat exited (${proc.exitCode ?? proc.signalCode}): ${log.trim() || 'is socat installed?'}`);
    if (Date.now() > end) {
      await stopSocat({ proc, exited });
      throw new Error(`socat did not create the pty links: ${log.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  // A pair left open must not keep the test process alive: its exit closes the pipe instead.
  proc.unref();
  (proc.stdin as unknown as { unref?: () => void }).unref?.();
  (proc.stderr as unknown as { unref?: () => void }).unref?.();
  return { proc, exited };
}

async function stopSocat(s: Socat | null): Promise<void> {
  if (!s) return;
  if (s.proc.exitCode === null && s.proc.signalCode === null) {
    s.proc.ref(); // wait for it, even when nothing else keeps the event loop alive
    s.proc.stdin?.end(); // the watchdog kills socat (SIGTERM: socat removes its links) and exits
    const timer = setTimeout(() => s.proc.kill('SIGKILL'), 2000);
    await s.exited;
    clearTimeout(timer);
  }
}

export async function openPtyPair(dir?: string): Promise<PtyPair> {
  const folder = dir ?? mkdtempSync('/dev/shm/satstation-pty-');
  if (dir) mkdirSync(dir, { recursive: true });
  folders.add(folder);
  const rigPath = join(folder, 'rig');
  const ctlPath = join(folder, 'ctl');
  const unlinkLeftovers = () => {
    // socat removes its links on SIGTERM; after a SIGKILL it cannot, so do it here.
    rmSync(rigPath, { force: true });
    rmSync(ctlPath, { force: true });
  };
  unlinkLeftovers();
  let current: Socat | null = await startSocat(rigPath, ctlPath);
  return {
    rigPath,
    ctlPath,
    async unplug() {
      await stopSocat(current);
      current = null;
      unlinkLeftovers();
    },
    async replug() {
      if (current) return;
      unlinkLeftovers();
      current = await startSocat(rigPath, ctlPath);
    },
    async close() {
      await stopSocat(current);
      current = null;
      rmSync(folder, { recursive: true, force: true });
      folders.delete(folder);
    },
  };
}
