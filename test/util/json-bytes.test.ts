import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ArrayJson, HEAD_ROOM, jsonArrayOfEach, jsonArraySteps, jsonWithArray } from '../../src/util/json-bytes.js';
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

describe('ArrayJson: a document around an array made elsewhere', () => {
  const items = [{ a: 1, s: 'é "q"' }, { a: 2, s: '' }, null, { a: 3, s: 'x' }];
  const doc = { timestamp: '2026-07-24T12:00:00.000Z', count: 3 };
  const expected = JSON.stringify({ ...doc, items: items.filter((x) => x !== null) });

  it('with room, writes the head and the brace around the array in its own buffer', () => {
    const { json, count } = jsonArrayOfEach(items.length, (i) => items[i], true);
    assert.equal(json.byteOffset, HEAD_ROOM);
    const a = ArrayJson.roomy(json.buffer as ArrayBuffer, json.byteOffset, json.length, count);
    const out = a.document(doc, 'items');
    assert.equal(out.toString(), expected);
    assert.equal(out.buffer, json.buffer, 'no new buffer');
  });

  it('without room, or a head longer than the room, joins into a new buffer', () => {
    const { json, count } = jsonArrayOfEach(items.length, (i) => items[i]);
    assert.equal(json.byteOffset, 0);
    // Room claimed over a buffer that has none before the array: joined, the buffer untouched.
    const before = Buffer.from(json);
    const noRoom = ArrayJson.roomy(json.buffer as ArrayBuffer, 0, json.length, count).document(doc, 'items');
    assert.equal(noRoom.toString(), expected);
    assert.notEqual(noRoom.buffer, json.buffer);
    assert.deepEqual(Buffer.from(json), before);
    assert.equal(ArrayJson.joined(json, count).document(doc, 'items').toString(), expected);
    const roomy = jsonArrayOfEach(items.length, (i) => items[i], true);
    const big = { note: 'x'.repeat(HEAD_ROOM) };
    const a = ArrayJson.roomy(roomy.json.buffer as ArrayBuffer, roomy.json.byteOffset, roomy.json.length, roomy.count);
    assert.equal(a.document(big, 'items').toString(), JSON.stringify({ ...big, items: items.filter((x) => x !== null) }));
  });

  it('with room, grows past its first estimate and keeps the room (a long later item)', () => {
    const n = 1000;
    const grow = (i: number) => ({ i, pad: i > 900 ? 'y'.repeat(500) : '' });
    const { json, count } = jsonArrayOfEach(n, grow, true);
    assert.equal(json.toString(), JSON.stringify(Array.from({ length: n }, (_, i) => grow(i))));
    const out = ArrayJson.roomy(json.buffer as ArrayBuffer, json.byteOffset, json.length, count).document({ count }, 'items');
    assert.equal(out.buffer, json.buffer);
    assert.equal(JSON.parse(out.toString()).items.length, n);
  });
});
