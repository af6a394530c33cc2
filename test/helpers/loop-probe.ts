// How long the event loop runs without a turn, measured as the loop thread's own CPU time (Linux
// schedstat): wall time would also count the time a loaded machine keeps the process off the CPU,
// and process CPU counts the GC and I/O helper threads running beside the loop.
import { existsSync, readFileSync } from 'node:fs';

const SCHEDSTAT = `/proc/${process.pid}/task/${process.pid}/schedstat`;

/** False where there is no schedstat (not Linux): tests using the probe skip. */
export const loopProbeAvailable = existsSync(SCHEDSTAT);

/** On-CPU time of this process's main thread (the event loop), ns. */
const loopThreadCpuNs = () => Number(readFileSync(SCHEDSTAT, 'utf8').split(' ')[0]);

/** Turns of a timer and the most loop-thread CPU (ms) spent between two of them, until stop(). */
export function loopProbe(intervalMs: number) {
  let turns = 0;
  let maxCpuMs = 0;
  let last = loopThreadCpuNs();
  const timer = setInterval(() => {
    const now = loopThreadCpuNs();
    maxCpuMs = Math.max(maxCpuMs, (now - last) / 1e6);
    last = now;
    turns++;
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { turns, maxCpuMs };
    },
  };
}
