import assert from 'node:assert/strict';
import { test } from 'node:test';
import { flat, ownCopy } from '../../src/util/flat-string.js';

// What V8 does with them (flattening in place, a slice's parent let go) is measured in the bench's
// heap figures; here: the strings themselves are never changed.
test('flat and ownCopy answer the same text: joins, JSON, slices, empty, one character, astral and two-byte text', () => {
  const parts = ['', 'a', '{"x":1}', '𝄞 rx 145.800 MHz — ✓', 'é'.repeat(40)];
  for (const s of parts) {
    assert.equal(flat(s), s);
    assert.equal(ownCopy(s), s);
  }
  const joined = `${parts.join('|')}|${JSON.stringify({ parts, n: 12 })}`;
  assert.equal(flat(joined), joined);
  const file = `head\n${'k'.repeat(30)}\t{"v":"${'𝄞'.repeat(20)}"}\n`;
  const slice = file.slice(5, file.length - 1);
  assert.equal(ownCopy(slice), slice);
  assert.equal(ownCopy(slice.slice(31)), `{"v":"${'𝄞'.repeat(20)}"}`);
});
