import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonArray, jsonWithArray } from '../../src/util/json-bytes.js';

// The sliced serialiser must write exactly what JSON.stringify writes, at every slice boundary.
describe('sliced JSON bytes', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i, name: `SAT "é" ${i}`, skip: undefined, at: new Date(i * 1000) }));
  for (const n of [0, 1, 499, 500, 501, 1234]) {
    it(`${n} records: same bytes as JSON.stringify`, () => {
      const list = items(n);
      assert.equal(jsonArray(list).toString('utf8'), JSON.stringify(list));
      assert.equal(jsonWithArray({ format: 1, sources: ['a'] }, 'elements', list).toString('utf8'), JSON.stringify({ format: 1, sources: ['a'], elements: list }));
      assert.equal(jsonWithArray({}, 'elements', list).toString('utf8'), JSON.stringify({ elements: list }));
    });
  }
});
