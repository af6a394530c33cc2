import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs';
import { Waitress, TimeoutError } from '../../src/util/waitress.js';
import { stallAwareTimeout } from '../../src/util/stall-aware-timeout.js';
import { systemClock, type Clock } from '../../src/util/clock.js';

// A reply timeout must not blame the peer for our own stall: after the event loop was blocked
// past a wait's deadline, the expired timer runs before the I/O that already holds the answer.

/** Blocks the event loop, as a long synchronous job or a collector pause does. */
const blockFor = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end);
};

describe('stall-aware timeouts', () => {
  it('an answer already on its way when the loop stalled past the deadline still wins', async () => {
    const w = new Waitress<string>(systemClock);
    const answer = w.wait((m) => m === 'reply', 60, 'read frequency');
    // The answer comes through the thread pool, as the serial binding's reads do.
    readFile(import.meta.filename, () => w.offer('reply'));
    blockFor(250);
    assert.equal(await answer, 'reply');
  });

  it('a silent peer still times out, on time when the loop is not stalled', async () => {
    const w = new Waitress<string>(systemClock);
    const t0 = Date.now();
    await assert.rejects(w.wait(() => true, 60, 'read frequency'), TimeoutError);
    assert.ok(Date.now() - t0 < 1000);
  });

  it('a late timer waits as long again as it was late (at most the timeout), then expires', () => {
    let now = 0;
    const timers: Array<{ due: number; fn: () => void }> = [];
    const clock: Clock = { now: () => now, setTimeout: (fn, ms) => (timers.push({ due: now + ms, fn }), { cancel() {} }) };
    let expired = false;
    stallAwareTimeout(clock, 100, () => (expired = true));
    now = 400; // the loop stalled 300 ms past the deadline
    timers.shift()!.fn();
    assert.equal(expired, false, 'a late timer is not a verdict');
    assert.equal(timers[0].due, 500, 'grace: as late as it was, capped at the timeout');
    now = 505;
    timers.shift()!.fn();
    assert.equal(expired, true, 'on time now: expired');
  });
});
