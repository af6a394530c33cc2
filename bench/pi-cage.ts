// A Pi-speed cage for one process: a CPU quota of a tenth of one core and the unit's memory limit,
// so a dev machine runs the server about as fast as a Pi Zero 2 W core (the project's "ten times
// slower" rule, README "Where the Pi's budgets come from"). Tried in order:
//  1. systemd-run --scope (systemd is PID 1; --user when not root, which needs cpu delegation);
//  2. a cgroup v2 directory under /sys/fs/cgroup with cpu.max and memory.max (root);
//  3. cgroup v1 cpu and memory hierarchies (cpu.cfs_quota_us, memory.limit_in_bytes; root);
// otherwise Skip with the reason. On arm the CPU is taken to be the Pi's own: no quota.
//
// The quota is 1 ms per 10 ms period rather than systemd's default 10 ms per 100 ms: the same
// tenth of a core, but a slow CPU is slow evenly, while a 100 ms period runs the process at full
// speed for 10 ms and then freezes it for 90 ms, so a request arriving in the frozen part waits up
// to 90 ms and a latency percentile would measure the throttle instead of the CPU.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Skip } from './harness.js';

export const QUOTA_US = 1_000;
export const PERIOD_US = 10_000;

export interface PiCage {
  /** How the quota is applied, for the notes. */
  how: string;
  /** The command line that runs `cmd args` inside the cage. */
  wrap(cmd: string, args: string[]): { cmd: string; args: string[] };
  /** Throttling of the cage so far (null when it cannot be read): proof that the quota bit. */
  throttled(pid: number): { periods: number; throttled: number } | null;
  /** Removes what the cage created (its processes must have exited). */
  dispose(): void;
}

/** MemoryMax= of the unit ("192M") in bytes. */
export function memoryMaxBytes(unit: string): number {
  const m = /^MemoryMax=(\d+)([KMG]?)\s*$/m.exec(unit);
  if (!m) throw new Error('deploy/satstation.service has no MemoryMax= in K, M or G');
  return Number(m[1]) * 1024 ** ' KMG'.indexOf(m[2] || ' ');
}

const isRoot = () => process.getuid?.() === 0;
const read = (p: string) => readFileSync(p, 'utf8');

/** The process's cgroup path for a v1 controller ("cpu") or the v2 hierarchy (""), from /proc/<pid>/cgroup. */
function cgroupOf(pid: number | 'self', controller: string): string | null {
  for (const line of read(`/proc/${pid}/cgroup`).split('\n')) {
    const [, ctrls, path] = line.split(':');
    if (path === undefined) continue;
    if (controller === '' ? line.startsWith('0::') : ctrls.split(',').includes(controller)) return path;
  }
  return null;
}

function statOf(file: string): { periods: number; throttled: number } | null {
  try {
    const s = read(file);
    const num = (k: string) => Number(new RegExp(`^${k} (\\d+)$`, 'm').exec(s)?.[1] ?? NaN);
    const r = { periods: num('nr_periods'), throttled: num('nr_throttled') };
    return Number.isFinite(r.periods) ? r : null;
  } catch {
    return null;
  }
}

/** Where a cgroup v2 hierarchy with cpu and memory controllers is mounted, or null. */
function v2Root(): string | null {
  for (const root of ['/sys/fs/cgroup', '/sys/fs/cgroup/unified']) {
    const ctrls = existsSync(join(root, 'cgroup.controllers')) ? read(join(root, 'cgroup.controllers')).split(/\s+/) : [];
    if (ctrls.includes('cpu') && ctrls.includes('memory')) return root;
  }
  return null;
}

// The process enters the cgroup before it execs node, so the quota holds from its first instruction.
const enterAndExec = (procsFiles: string[], cmd: string, args: string[]) => ({
  cmd: '/bin/sh',
  args: ['-c', `for f in ${procsFiles.map((f) => `'${f}'`).join(' ')}; do echo $$ > "$f" || exit 97; done; exec "$@"`, 'pi-cage', cmd, ...args],
});

function systemdCage(memBytes: number): PiCage | null {
  if (!existsSync('/run/systemd/system')) return null;
  const props = [`CPUQuota=${(100 * QUOTA_US) / PERIOD_US}%`, `CPUQuotaPeriodSec=${PERIOD_US / 1000}ms`, `MemoryMax=${memBytes}`, 'MemorySwapMax=0'].flatMap((p) => ['-p', p]);
  const base = ['--scope', '--quiet', '--collect', ...(isRoot() ? [] : ['--user']), ...props, '--'];
  if (spawnSync('systemd-run', [...base, 'true'], { stdio: 'ignore' }).status !== 0) return null;
  return {
    how: `systemd-run ${base.slice(0, -1).join(' ')}`,
    wrap: (cmd, args) => ({ cmd: 'systemd-run', args: [...base, cmd, ...args] }),
    throttled: (pid) => {
      const path = cgroupOf(pid, '');
      const root = v2Root() ?? '/sys/fs/cgroup';
      return path === null ? null : statOf(join(root, path, 'cpu.stat'));
    },
    dispose: () => {},
  };
}

function v2Cage(memBytes: number): PiCage | null {
  const root = v2Root();
  if (!root || !isRoot()) return null;
  const dir = join(root, `satstation-pi-speed-${process.pid}`);
  try {
    // Controllers must be enabled for the children of the root (a no-op when they already are).
    writeFileSync(join(root, 'cgroup.subtree_control'), '+cpu +memory');
    mkdirSync(dir);
    writeFileSync(join(dir, 'cpu.max'), `${QUOTA_US} ${PERIOD_US}`);
    writeFileSync(join(dir, 'memory.max'), String(memBytes));
    if (existsSync(join(dir, 'memory.swap.max'))) writeFileSync(join(dir, 'memory.swap.max'), '0');
  } catch {
    removeDir(dir);
    return null;
  }
  return {
    how: `cgroup v2 ${dir}: cpu.max "${QUOTA_US} ${PERIOD_US}", memory.max ${memBytes}`,
    wrap: (cmd, args) => enterAndExec([join(dir, 'cgroup.procs')], cmd, args),
    throttled: () => statOf(join(dir, 'cpu.stat')),
    dispose: () => removeDir(dir),
  };
}

function v1Cage(memBytes: number): PiCage | null {
  if (!isRoot() || !existsSync('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') || !existsSync('/sys/fs/cgroup/memory/memory.limit_in_bytes')) return null;
  // Under this process's own cgroups: a container may allow sub-groups only there.
  const cpuDir = join('/sys/fs/cgroup/cpu', cgroupOf('self', 'cpu') ?? '/', `satstation-pi-speed-${process.pid}`);
  const memDir = join('/sys/fs/cgroup/memory', cgroupOf('self', 'memory') ?? '/', `satstation-pi-speed-${process.pid}`);
  try {
    mkdirSync(cpuDir);
    writeFileSync(join(cpuDir, 'cpu.cfs_period_us'), String(PERIOD_US));
    writeFileSync(join(cpuDir, 'cpu.cfs_quota_us'), String(QUOTA_US));
    mkdirSync(memDir);
    writeFileSync(join(memDir, 'memory.limit_in_bytes'), String(memBytes));
    // No swap either (the limit on memory + swap, when the kernel accounts swap).
    if (existsSync(join(memDir, 'memory.memsw.limit_in_bytes'))) writeFileSync(join(memDir, 'memory.memsw.limit_in_bytes'), String(memBytes));
  } catch {
    removeDir(cpuDir);
    removeDir(memDir);
    return null;
  }
  return {
    how: `cgroup v1 ${cpuDir}: cpu.cfs_quota_us ${QUOTA_US} per cpu.cfs_period_us ${PERIOD_US}, memory.limit_in_bytes ${memBytes}`,
    wrap: (cmd, args) => enterAndExec([join(cpuDir, 'cgroup.procs'), join(memDir, 'cgroup.procs')], cmd, args),
    throttled: () => statOf(join(cpuDir, 'cpu.stat')),
    dispose: () => {
      removeDir(cpuDir);
      removeDir(memDir);
    },
  };
}

/** rmdir of a cgroup: EBUSY for a moment while its last process is being reaped. */
function removeDir(dir: string): void {
  for (let i = 0; i < 50 && existsSync(dir); i++) {
    try {
      rmdirSync(dir);
    } catch {
      spawnSync('sleep', ['0.1']);
    }
  }
}

/** The first cage that works here; Skip with the reasons when none does. */
export function piCage(unit: string): PiCage {
  const mem = memoryMaxBytes(unit);
  if (process.arch === 'arm' || process.arch === 'arm64') {
    return { how: `none: on ${process.arch} the CPU is taken to be the Pi's own`, wrap: (cmd, args) => ({ cmd, args }), throttled: () => null, dispose: () => {} };
  }
  if (process.platform !== 'linux') throw new Skip(`a CPU quota needs Linux cgroups (this is ${process.platform})`);
  const cage = systemdCage(mem) ?? v2Cage(mem) ?? v1Cage(mem);
  if (cage) return cage;
  throw new Skip(
    `no way to cap the CPU here: systemd-run --scope ${existsSync('/run/systemd/system') ? 'refused' : 'unusable (systemd is not PID 1)'}, ` +
      `and cgroup v2/v1 directories need root with the cpu and memory controllers${isRoot() ? ' (none writable)' : ''}`,
  );
}
