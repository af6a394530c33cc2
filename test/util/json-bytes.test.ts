import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonArrayOfEach, jsonArraySteps, jsonWithArray } from '../../src/util/json-bytes.js';
import { drain } from '../../src/util/loop-slices.js';

// The sliced serialiser must write exactly what JSON.stringify writes, at every slice boundary.
describe('sliced JSON bytes', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => ({ n: i, name: `SAT "é" ${i}`, skip: undefined, at: new Date(i * 1000) }));
  for (const n of [0, 1, 499, 500, 501, 1234]) {
    it(`${n} records: same bytes as JSON.stringify`, () => {
      const list = items(n);
      assert.equal(drain(jsonArraySteps(list)).toString('utf8'), JSON.stringify(list));
      assert.equal(jsonWithArray({ format: 1, sources: ['a'] }, 'elements', list).toString('utf8'), JSON.stringify({ format: 1, sources: ['a'], elements: list }));
      assert.equal(jsonWithArray({}, 'elements', list).toString('utf8'), JSON.stringify({ elements: list }));
    });
  }
});

describe('JSON of items made one at a time', () => {
  const item = (i: number) => (i % 7 === 3 ? null : { n: i, name: `SAT "é" ${'x'.repeat(i % 40)}`, skip: undefined, at: new Date(i * 1000) });
  for (const n of [0, 1, 127, 128, 129, 1000, 5000]) {
    it(`${n} indexes: the bytes JSON.stringify gives the kept items, in one buffer of its own`, () => {
      const kept = Array.from({ length: n }, (_, i) => item(i)).filter((x) => x !== null);
      const { json, count } = jsonArrayOfEach(n, item);
      assert.equal(json.toString('utf8'), JSON.stringify(kept));
      assert.equal(count, kept.length);
      assert.equal(json.byteOffset, 0, 'at the start of its buffer: the buffer can be handed over');
      assert.ok(json.buffer.byteLength < 64 || json.buffer.byteLength <= json.length * 1.25, `buffer ${json.buffer.byteLength} for ${json.length} bytes`);
    });
  }
  it('items longer than the first slice foretold: the buffer grows and the bytes stay right', () => {
    const grow = (i: number) => ({ i, pad: 'y'.repeat(i < 128 ? 1 : 300) });
    const { json } = jsonArrayOfEach(1000, grow);
    assert.equal(json.toString('utf8'), JSON.stringify(Array.from({ length: 1000 }, (_, i) => grow(i))));
  });
});
