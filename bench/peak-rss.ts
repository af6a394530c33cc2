// A bench child's own peak RSS. process.resourceUsage().maxRSS (getrusage ru_maxrss) is kept
// across execve on Linux, so a child forked from a big parent (the bench under tsx, ~100+ MiB)
// reports the parent's RSS at the fork as its own peak. VmHWM in /proc/self/status is the high
// water mark of this process's own address space, which starts afresh at exec.
import { existsSync, readFileSync } from 'node:fs';

const STATUS = '/proc/self/status';

/** Peak resident set of this process since its exec, MiB (maxRSS where there is no /proc). */
export function ownPeakRssMiB(): number {
  if (existsSync(STATUS)) {
    const kib = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(STATUS, 'utf8'))?.[1];
    if (kib) return Number(kib) / 1024;
  }
  return process.resourceUsage().maxRSS / 1024;
}
