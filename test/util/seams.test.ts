import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FixedClock } from '../../src/util/clock.js';
import { TimeoutError, Waitress } from '../../src/util/waitress.js';
import { OneAtATime, QueueFullError, backoffMs } from '../../src/util/queue.js';

describe('FixedClock timers', () => {
  it('fire in time order at their own instant, including timers armed by timers', () => {
    const c = new FixedClock(1000);
    const seen: string[] = [];
    c.setTimeout(() => seen.push(`b@${c.now()}`), 200);
    c.setTimeout(() => {
      seen.push(`a@${c.now()}`);
      c.setTimeout(() => seen.push(`a2@${c.now()}`), 50);
    }, 100);
    const x = c.setTimeout(() => seen.push('cancelled'), 120);
    x.cancel();
    c.advance(99);
    assert.deepEqual(seen, []);
    c.advance(500);
    assert.deepEqual(seen, ['a@1100', 'a2@1150', 'b@1200']);
    assert.equal(c.now(), 1599);
    assert.equal(c.pendingTimers, 0);
  });

  it('set() forward fires due timers; backward fires nothing', () => {
    const c = new FixedClock(0);
    let n = 0;
    c.setTimeout(() => n++, 10);
    c.set(-5);
    assert.equal(n, 0);
    c.set(100);
    assert.equal(n, 1);
  });
});

describe('Waitress', () => {
  it('gives a message to the oldest waiter that matches, and times out on the injected clock', async () => {
    const c = new FixedClock(0);
    const w = new Waitress<number>(c);
    const even = w.wait((n) => n % 2 === 0, 100, 'even');
    const any = w.wait(() => true, 100, 'any');
    assert.equal(w.offer(3), true); // only `any` takes an odd one
    assert.equal(await any, 3);
    assert.equal(w.offer(4), true);
    assert.equal(await even, 4);
    assert.equal(w.offer(5), false);
    const late = w.wait(() => true, 100, 'read 0x25');
    c.advance(100);
    await assert.rejects(late, (e: unknown) => e instanceof TimeoutError && /read 0x25: no answer within 100 ms/.test((e as Error).message));
    const gone = w.wait(() => true, 100, 'x');
    w.rejectAll(new Error('unplugged'));
    await assert.rejects(gone, /unplugged/);
    assert.equal(w.size, 0);
  });
});

describe('OneAtATime', () => {
  it('runs one job at a time in order, bounded, and clear() fails what waits', async () => {
    const q = new OneAtATime(2);
    const order: string[] = [];
    let release!: () => void;
    const first = q.run(async () => {
      order.push('1 start');
      await new Promise<void>((r) => (release = r));
      order.push('1 end');
      return 1;
    });
    const second = q.run(async () => {
      order.push('2');
      return 2;
    });
    const third = q.run(async () => 3);
    await assert.rejects(q.run(async () => 4), QueueFullError);
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['1 start']);
    q.clear(new Error('unplugged'));
    release();
    assert.equal(await first, 1);
    await assert.rejects(second, /unplugged/);
    await assert.rejects(third, /unplugged/);
    assert.equal(await q.run(async () => 'after'), 'after');
  });

  it('backoff doubles up to its cap', () => {
    assert.deepEqual([0, 1, 2, 3, 10].map((a) => backoffMs(a, 250, 5000)), [250, 500, 1000, 2000, 5000]);
  });
});
