import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JsonArrayWriter, jsonArray, jsonWithArray } from '../../src/util/json-bytes.js';

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

describe('JsonArrayWriter', () => {
  it('items added one at a time give the bytes of the whole document, across slice edges', () => {
    const doc = { timestamp: '2026-08-22T12:00:00.000Z', count: 0, note: 'ü €' };
    for (const n of [0, 1, 127, 128, 129, 300]) {
      const items = Array.from({ length: n }, (_, k) => ({ k, name: `sat ${k} ☄`, el_deg: k / 7 }));
      const w = new JsonArrayWriter();
      for (const it of items) w.add(it);
      assert.ok(Buffer.concat(w.finish(JSON.stringify(doc), 'items')).equals(jsonWithArray(doc, 'items', items)), `${n} items`);
    }
    const w = new JsonArrayWriter();
    w.add(1);
    assert.equal(Buffer.concat(w.finish('{}', 'items')).toString(), '{"items":[1]}');
  });
});
