import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ring } from '../../src/aprs/log/ring.js';

// The APRS log's memory, without a file: a bounded FIFO that evicts its oldest.

const fill = (cap: number, n: number) => {
  const r = new Ring<number>(cap);
  for (let i = 0; i < n; i++) r.push(i);
  return r;
};

describe('APRS log ring', () => {
  it('below the capacity it keeps everything, oldest first', () => {
    const r = fill(5, 3);
    assert.equal(r.length, 3);
    assert.deepEqual(r.toArray(), [0, 1, 2]);
    assert.deepEqual([0, 1, 2].map((i) => r.at(i)), [0, 1, 2]);
  });

  it('past the capacity the oldest go, and at(0) is always the oldest kept', () => {
    for (const n of [5, 6, 7, 12, 23]) {
      const r = fill(5, n);
      const expected = Array.from({ length: 5 }, (_, i) => n - 5 + i);
      assert.equal(r.length, 5);
      assert.deepEqual(r.toArray(), expected, `after ${n} pushes`);
      assert.deepEqual([0, 1, 2, 3, 4].map((i) => r.at(i)), expected, `after ${n} pushes`);
    }
  });

  it('newest(k) is the last k, oldest first, across the wrap', () => {
    const r = fill(4, 6); // holds 2 3 4 5, stored wrapped
    assert.deepEqual(r.newest(2), [4, 5]);
    assert.deepEqual(r.newest(4), [2, 3, 4, 5]);
    assert.deepEqual(r.newest(10), [2, 3, 4, 5]);
    assert.deepEqual(r.newest(0), []);
    assert.deepEqual(r.newest(-1), []);
  });

  it('reset keeps the newest of the items, and a new capacity holds from then on', () => {
    const r = fill(4, 6);
    r.reset(r.toArray(), 2);
    assert.deepEqual(r.toArray(), [4, 5]);
    r.push(6);
    assert.deepEqual(r.toArray(), [5, 6]);
    r.reset([1, 2, 3], 5);
    r.push(4);
    r.push(5);
    r.push(6);
    assert.deepEqual(r.toArray(), [2, 3, 4, 5, 6]);
  });
});
