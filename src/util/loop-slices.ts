// Long CPU work (a catalog parse, a whole-catalog sweep) runs in slices with a turn of the event
// loop between them, so HTTP answers and the rig and TNC drivers never wait more than one slice.
import { monotonicMs } from './monotonic.js';

export interface LoopSlicer {
  /** Longest run between yields, ms of this thread. */
  sliceMs: number;
  /** Gives the event loop a turn. */
  yieldTo: () => Promise<void>;
  /** Monotonic ms (util/monotonic.ts), not the injected wall clock: slices measure CPU time spent. */
  monotonicMs: () => number;
}

/**
 * Wall time, so a slice is 8 ms on a Pi Zero 2 too (it just does less): short next to a CI-V poll
 * interval or a KISS frame. A slice can run over by one step, so steps are kept well under it.
 */
export const SLICE_MS = 4;

/**
 * Sliced jobs take turns: one job resumes per turn of the event loop (the head of a FIFO), so
 * however many run at once (32 clients each asking for /passes), a turn carries at most one slice
 * and timers (the Wi-Fi transmit audio's pacing, CI-V timeouts) and I/O wait at most one slice.
 * A plain setImmediate per job would resume them all in the same check phase, one after another.
 */
const waiting: Array<() => void> = [];
let turnQueued = false;

function releaseOne(): void {
  turnQueued = false;
  const next = waiting.shift();
  // Queued from inside the check phase, the next release runs on the loop's next turn.
  if (waiting.length > 0) queueTurn();
  next?.();
}

function queueTurn(): void {
  if (turnQueued) return;
  turnQueued = true;
  setImmediate(releaseOne);
}

/** Resolves on a later turn of the event loop, after the jobs that yielded before it. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    queueTurn();
  });
}

/**
 * For a loop that awaits I/O rather than running steps (a response body's chunks): `spent` once a
 * slice of this thread's time has passed since the last turn it gave. A fast peer fills a
 * socket's reads back to back (libuv reads up to 32 × 64 KiB a poll, and a stream's consumer
 * runs in the microtasks after each), so without a yield one turn can carry megabytes.
 */
export class SliceClock {
  private since: number;

  constructor(private readonly s: LoopSlicer = eventLoopSlicer) {
    this.since = s.monotonicMs();
  }

  get spent(): boolean {
    return this.s.monotonicMs() - this.since >= this.s.sliceMs;
  }

  /** Gives the loop a turn; the next slice starts when it comes back. */
  async yieldTurn(): Promise<void> {
    await this.s.yieldTo();
    this.since = this.s.monotonicMs();
  }
}

/** Sliced jobs waiting for their turn (tests, diagnostics). */
export const waitingSlices = (): number => waiting.length;

export const eventLoopSlicer: LoopSlicer = {
  sliceMs: SLICE_MS,
  yieldTo: nextTurn,
  monotonicMs,
};

/** When the HTTP layer last began or finished answering a request (util/monotonic.ts ms). */
let lastRequestMs = Number.NEGATIVE_INFINITY;
/** Requests begun and not yet answered (a handler awaiting work). */
let requestsOpen = 0;

/** The HTTP layer calls this for each request: background work stands back while requests come. */
export function noteRequest(): void {
  lastRequestMs = monotonicMs();
}

/**
 * A request whose answer is still to come (the HTTP layer, around a handler): background work
 * also waits while one is open. A slow answer (a cold snapshot at a tenth of a core takes
 * hundreds of ms) is not a quiet moment, though no request began during it.
 */
export function noteRequestOpen(): void {
  requestsOpen++;
  lastRequestMs = monotonicMs();
}

export function noteRequestClosed(): void {
  if (requestsOpen > 0) requestsOpen--;
  lastRequestMs = monotonicMs();
}

/** Requests open now (tests, diagnostics). */
export const openRequests = (): number => requestsOpen;

/** Whether background work may run now: no request open, none begun or answered for `quietMs`. */
const isQuiet = (quietMs: number): boolean => requestsOpen === 0 && monotonicMs() - lastRequestMs >= quietMs;

/**
 * For work nobody waits on (warming a cache): short slices, each after a pause and only once no
 * request has come for `quietMs`. A pause alone was not enough at a tenth of a core: a 2 ms
 * slice can take a whole CFS period's quota, so the requests right after boot (while the /passes
 * items were warmed) waited behind it: the lite snapshot's hits read 30 ms median, 100+ ms p99,
 * where they take 1 ms once the warm-up is over. A request that needs what is not warm yet
 * builds it itself.
 */
export function quietSlicer(quietMs: number, pauseMs = 10): LoopSlicer {
  return { sliceMs: 2, yieldTo: () => new Promise<void>((resolve) => afterQuiet(quietMs, pauseMs, Infinity, resolve)), monotonicMs };
}

/**
 * Resolves at the first quiet moment (no request open, none for `quietMs`), or `maxMs` from now at
 * the latest: for work deferred past the boot that must not wait for ever under a steady load.
 */
export function quietWithin(maxMs: number, quietMs = 100): Promise<void> {
  const deadline = monotonicMs() + maxMs;
  return new Promise<void>((resolve) => (isQuiet(quietMs) ? resolve() : afterQuiet(quietMs, 10, deadline, resolve)));
}

/** Calls `done` after a wait of `pauseMs` at least, once the loop is quiet or at `deadline`. */
function afterQuiet(quietMs: number, pauseMs: number, deadline: number, done: () => void): void {
  const wait = () => Math.max(pauseMs, Math.min(lastRequestMs + quietMs, deadline) - monotonicMs());
  const check = () => (isQuiet(quietMs) || monotonicMs() >= deadline ? done() : setTimeout(check, wait()));
  setTimeout(check, wait());
}

/** Background work on the server: slices only after 100 ms without a request. */
export const backgroundSlicer: LoopSlicer = quietSlicer(100);

/**
 * Runs `step` until it returns false, yielding whenever a slice is used up. The clock is read
 * every `every` steps (a power of two) so cheap steps do not pay for it.
 */
export async function runSliced(step: () => boolean, s: LoopSlicer = eventLoopSlicer, every = 8): Promise<void> {
  const mask = every - 1;
  // Jobs already waiting go first: a request handler starting a job does not run a slice inside
  // an I/O callback that may carry dozens of other requests.
  if (s.yieldTo === nextTurn && waiting.length > 0) await s.yieldTo();
  for (;;) {
    const until = s.monotonicMs() + s.sliceMs;
    for (let n = 0; ; n++) {
      if (!step()) {
        // The caller's next step (often the next sliced job of a chain: parse, merge, build,
        // serialise) runs in this same turn: after a long last slice it starts on a later one,
        // else two slices would run back to back between two timer turns.
        if (s.monotonicMs() >= until - s.sliceMs / 2) await s.yieldTo();
        return;
      }
      if ((n & mask) === mask && s.monotonicMs() >= until) break;
    }
    await s.yieldTo();
  }
}

/**
 * Work written once as a generator that yields at safe points: `drain` runs it to the end at
 * once (boot, tools, tests), `drainSliced` a slice at a time on the running server.
 */
export function drain<T>(g: Generator<unknown, T, undefined>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
  }
}

export async function drainSliced<T>(g: Generator<unknown, T, undefined>, s: LoopSlicer = eventLoopSlicer): Promise<T> {
  let out: { value: T } | null = null;
  await runSliced(
    () => {
      const r = g.next();
      if (r.done) out = { value: r.value };
      return !r.done;
    },
    s,
    1,
  );
  return out!.value;
}
