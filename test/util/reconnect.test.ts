import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FixedClock } from '../../src/util/clock.js';
import { Reconnect } from '../../src/util/reconnect.js';

const T0 = Date.parse('2025-03-01T12:00:00Z');

/** A link that never comes back: every retry fails and schedules the next; answers the first `count` delays. */
function outage(r: Reconnect, clock: FixedClock, count: number): number[] {
  const delays: number[] = [];
  const retry = () => {
    if (delays.length < count) delays.push(r.schedule(retry)!);
  };
  delays.push(r.schedule(retry)!);
  clock.advance(10 * 60_000);
  return delays;
}

describe('reconnect with backoff on the injected clock', () => {
  it('doubles from base to max, one retry pending at a time, firing on the clock it was given', () => {
    const clock = new FixedClock(T0);
    const r = new Reconnect(clock, { base_ms: 500, max_ms: 4000 });
    let ran = 0;
    assert.equal(r.schedule(() => ran++), 500);
    assert.equal(r.schedule(() => ran++), null, 'a second schedule during one outage adds no timer');
    assert.equal(r.nextAt, T0 + 500);
    clock.advance(499);
    assert.equal(ran, 0);
    clock.advance(1);
    assert.equal(ran, 1);
    assert.equal(r.nextAt, null);
    assert.deepEqual(outage(r, clock, 5), [1000, 2000, 4000, 4000, 4000]);
    assert.equal(clock.pendingTimers, 0);
  });

  it('cancel drops the pending retry; reset and up() start the next outage from base', () => {
    const clock = new FixedClock(T0);
    const r = new Reconnect(clock, { base_ms: 1000, max_ms: 30_000 });
    let ran = 0;
    r.schedule(() => ran++);
    r.cancel();
    assert.equal(r.pending, false);
    clock.advance(60_000);
    assert.equal(ran, 0);
    assert.equal(r.schedule(() => {}), 2000, 'cancel alone keeps counting');
    r.cancel();
    r.up();
    assert.equal(r.schedule(() => {}), 1000, 'without stable_ms, a link that came up starts over');
    r.cancel();
    r.schedule(() => {});
    r.cancel();
    r.reset();
    assert.equal(r.attempts, 0);
    assert.equal(r.schedule(() => {}), 1000);
  });

  it('with stable_ms only a link that stayed up that long starts over; a flapping one keeps backing off', () => {
    const clock = new FixedClock(T0);
    const r = new Reconnect(clock, { base_ms: 1000, max_ms: 60_000, stable_ms: 30_000 });
    const once = () => {
      const ms = r.schedule(() => {})!;
      clock.advance(ms);
      return ms;
    };
    assert.equal(once(), 1000);
    r.up();
    clock.advance(29_999);
    assert.equal(once(), 2000, 'up for less than stable_ms: still backing off');
    r.up();
    clock.advance(30_000);
    assert.equal(once(), 1000, 'up for stable_ms: starts over');
    assert.equal(once(), 2000, 'an up() counts for the outage right after it only');
  });

  it('spreads each delay by up to the given fraction', () => {
    const clock = new FixedClock(T0);
    const r = new Reconnect(clock, { base_ms: 5000, max_ms: 300_000 }, { spread: { fraction: 0.1, random: () => 0.5 } });
    assert.equal(r.schedule(() => {}), 5250);
    assert.equal(r.nextAt, T0 + 5250);
  });
});
