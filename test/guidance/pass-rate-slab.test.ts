import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PassRateSlab } from '../../src/guidance/pass-rate-slab.js';

test('pass rate slab: rates and "none" per pass, copies out, the oldest dropped when full', () => {
  const s = new PassRateSlab(3, 5);
  s.set('a', [1, 2, 3, 4, 5]);
  s.set('b', null);
  assert.deepEqual(s.get('a'), [1, 2, 3, 4, 5]);
  assert.equal(s.get('b'), null);
  assert.equal(s.get('c'), undefined);
  const copy = s.get('a')!;
  copy[0] = 99;
  assert.deepEqual(s.get('a'), [1, 2, 3, 4, 5], 'a copy: the slab is not changed through it');
  s.set('a', [-1, -2, -3, -4, -5]);
  assert.equal(s.size, 2, 'set again, not added');
  s.set('c', [0.5, 0.25, 0, -0.25, -0.5]);
  s.set('d', [7, 7, 7, 7, 7]);
  assert.equal(s.size, 3);
  assert.equal(s.has('a'), false, 'the oldest set went first');
  assert.deepEqual([...s.entries()].map(([k]) => k).sort(), ['b', 'c', 'd']);
  assert.deepEqual(s.get('d'), [7, 7, 7, 7, 7]);
  s.clear();
  assert.equal(s.size, 0);
  s.set('e', [1, 1, 1, 1, 1]);
  assert.deepEqual([...s.entries()], [['e', [1, 1, 1, 1, 1]]]);
});
