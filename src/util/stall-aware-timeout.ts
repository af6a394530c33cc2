import type { Clock, Timer } from './clock.js';

// A reply timeout that does not blame the other side for our own stall. When the event loop was
// busy (a Pi's garbage collection, a page build, a loaded CI machine), the expired timer runs first
// in the loop's next turn, before the I/O that may already hold the answer: the serial binding
// reads through the thread pool, so the bytes need a turn or two more. A timer that fires that
// late therefore waits as long again as it was late (GRACE_MS at least, the timeout at most), as
// often as the loop stays that late; a timer on time expires at once, so a silent peer is still
// reported after the timeout. On a test's FixedClock every timer fires at its own instant: never late.

/** Later than this, the loop was stalled. */
export const STALL_MS = 25;
const GRACE_MS = 50;

export function stallAwareTimeout(clock: Clock, ms: number, onExpire: () => void): Timer {
  let dueAt = clock.now() + ms;
  let timer: Timer;
  const check = () => {
    const now = clock.now();
    const late = now - dueAt;
    if (late <= STALL_MS) return onExpire();
    const grace = Math.min(ms, Math.max(GRACE_MS, late));
    dueAt = now + grace;
    timer = clock.setTimeout(check, grace);
  };
  timer = clock.setTimeout(check, ms);
  return { cancel: () => timer.cancel() };
}
