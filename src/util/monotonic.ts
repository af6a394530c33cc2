/**
 * Milliseconds on the monotonic clock (CLOCK_MONOTONIC, as performance.now() but from another
 * origin): for durations, slices and timeouts, which must not jump when the wall clock is set (GPS
 * or NTP after a field boot). Not performance.now(): the `performance` global loads Node's
 * perf_hooks on first touch, ~3 ms of CPU here (30 ms on a Pi) that the boot paid for one timing.
 */
export function monotonicMs(): number {
  const t = process.hrtime();
  return t[0] * 1e3 + t[1] / 1e6;
}
