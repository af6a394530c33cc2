import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpServer } from '../../src/http/server.js';
import { drainSliced, eventLoopSlicer, noteRequest, noteRequestClosed, noteRequestOpen, openRequests, quietSlicer, runSliced, waitingSlices } from '../../src/util/loop-slices.js';

/** Burns ms of this thread: a step of real CPU work. */
function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

// Many sliced jobs at once (32 clients each asking for /passes) must not starve timers: the Wi-Fi
// transmit audio is paced by one, and CI-V timeouts are timers too.
describe('sliced work takes turns with the event loop', () => {
  it('16 concurrent jobs: a timer waits for at most a slice or two, not one slice per job', async () => {
    const perStep = { ...eventLoopSlicer, sliceMs: 0 }; // every step is a slice of its own
    let slices = 0;
    let done = false;
    const firedAfter: number[] = [];
    const probe = () => {
      firedAfter.push(slices);
      if (!done) setTimeout(probe, 0);
    };
    setTimeout(probe, 0);
    const job = () => {
      let n = 0;
      return runSliced(
        () => {
          busy(2);
          slices++;
          return ++n < 4;
        },
        perStep,
        1,
      );
    };
    await Promise.all(Array.from({ length: 16 }, job));
    done = true;
    assert.equal(slices, 64);
    const steps = firedAfter.slice(1).map((s, i) => s - firedAfter[i]);
    // With one setImmediate per job, all 16 jobs' slices ran between two timer turns.
    assert.ok(Math.max(...steps) <= 3, `slices between timer turns: ${steps.join(',')}`);
    assert.equal(waitingSlices(), 0);
  });

  it('jobs resume in the order they yielded, and a job started while others wait queues behind them', async () => {
    const order: string[] = [];
    const perStep = { ...eventLoopSlicer, sliceMs: 0 };
    const job = (name: string, steps: number) => {
      let n = 0;
      return runSliced(
        () => {
          order.push(`${name}${n}`);
          return ++n < steps;
        },
        perStep,
        1,
      );
    };
    const a = job('a', 3);
    const b = job('b', 2); // a waits for its second step: b queues behind it
    await Promise.all([a, b]);
    assert.deepEqual(order, ['a0', 'a1', 'b0', 'a2', 'b1']);
  });

  it('drainSliced returns the generator result and propagates its error', async () => {
    function* g(n: number) {
      let sum = 0;
      for (let i = 0; i < n; i++) {
        sum += i;
        yield;
      }
      if (n < 0) throw new Error('negative');
      return sum;
    }
    assert.equal(await drainSliced(g(1000)), 499_500);
    await assert.rejects(drainSliced(g(-1)), /negative/);
  });

  it('a job that ends on a long slice lets the loop turn before its caller goes on; a short one does not', async () => {
    // Chained jobs (parse, merge, build, serialise) would otherwise run two slices in one turn.
    const events: string[] = [];
    let probing = true;
    const probe = () => {
      events.push('turn');
      if (probing) setImmediate(probe);
    };
    setImmediate(probe);
    await runSliced(() => {
      events.push('long');
      busy(6);
      return false;
    }, { ...eventLoopSlicer, sliceMs: 8 });
    events.push('after long');
    await new Promise((r) => setImmediate(r));
    const mark = events.length;
    await runSliced(() => {
      events.push('short');
      return false;
    }, { ...eventLoopSlicer, sliceMs: 8 });
    events.push('after short');
    probing = false;
    assert.ok(events.indexOf('turn') < events.indexOf('after long'), events.join(','));
    assert.ok(events.indexOf('turn') > events.indexOf('long'), events.join(','));
    assert.deepEqual(events.slice(mark), ['short', 'after short']);
  });
});

// Background warm-ups (the /passes items after each pass table) stand back while requests come:
// at a tenth of a core a slice can take a whole CFS period's quota from the request behind it.
describe('background slices wait for a quiet spell without requests', () => {
  it('no slice runs while requests keep coming; the work goes on once they stop', async () => {
    const slicer = quietSlicer(100, 5);
    let steps = 0;
    const started = performance.now();
    noteRequest();
    // A request every 10 ms for 150 ms.
    const requests = setInterval(noteRequest, 10);
    setTimeout(() => clearInterval(requests), 150);
    const stepsWhile: number[] = [];
    const watch = setInterval(() => stepsWhile.push(steps), 20);
    await runSliced(
      () => {
        busy(0.5);
        return ++steps < 40;
      },
      { ...slicer, sliceMs: 1 },
      1,
    );
    clearInterval(watch);
    const took = performance.now() - started;
    assert.equal(steps, 40);
    // The job's first slice runs at once; the next only after the requests stopped and 100 ms of quiet.
    assert.ok(stepsWhile.slice(0, 5).every((n) => n <= 2), `steps while requests came: ${stepsWhile.slice(0, 5)}`);
    assert.ok(took >= 150 + 100, `done after ${took.toFixed(0)} ms`);
  });

  it('no slice runs while a request is open, however long ago it began; the work goes on after its answer', async () => {
    const slicer = quietSlicer(50, 5);
    noteRequestOpen();
    let ran = false;
    const work = slicer.yieldTo().then(() => (ran = true));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(ran, false, 'a slow answer is not a quiet spell');
    const closedAt = performance.now();
    noteRequestClosed();
    await work;
    assert.ok(performance.now() - closedAt >= 45, 'quiet is counted from the answer');
    assert.equal(openRequests(), 0);
  });
});

// The boot's first requests (the unit's health check, the kiosk's page) come right after listen: a
// warm-up that started first held /health behind ~50 ms of CPU, half a second at a tenth of a core.
describe('the server listening counts as a request', () => {
  it('background work waits a quiet spell after listen', async () => {
    const slicer = quietSlicer(100, 5);
    // Quiet long enough before, so only the listen can hold the work back.
    await new Promise((r) => setTimeout(r, 110));
    const server = new HttpServer({ routes: [] });
    try {
      // Counted from before the call: the listen notes its request inside it, and under a loaded
      // run the await's continuation came ~12 ms after that, so a clock read after it read short
      // (88 ms). Without the listen counting, the work runs as soon as the listen is done.
      const beforeListen = performance.now();
      await server.listen('127.0.0.1', 0);
      const listenMs = performance.now() - beforeListen;
      await slicer.yieldTo();
      const ranMs = performance.now() - beforeListen;
      assert.ok(ranMs >= 100, `ran ${ranMs.toFixed(0)} ms after the listen began (the listen took ${listenMs.toFixed(0)} ms)`);
    } finally {
      server.close();
    }
  });
});
