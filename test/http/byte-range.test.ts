import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseByteRange } from '../../src/http/byte-range.js';

// The Range header (RFC 9110 §14.1.2) for one file of `size` bytes.

describe('parseByteRange', () => {
  const size = 1000;
  it('one range in its three forms, clamped to the file', () => {
    assert.deepEqual(parseByteRange('bytes=0-99', size), { kind: 'range', start: 0, end: 99 });
    assert.deepEqual(parseByteRange('bytes=900-', size), { kind: 'range', start: 900, end: 999 });
    assert.deepEqual(parseByteRange('bytes=-100', size), { kind: 'range', start: 900, end: 999 });
    assert.deepEqual(parseByteRange('bytes=-5000', size), { kind: 'range', start: 0, end: 999 });
    assert.deepEqual(parseByteRange('bytes=500-5000', size), { kind: 'range', start: 500, end: 999 });
    assert.deepEqual(parseByteRange(' Bytes = 1 - 2 ', size), { kind: 'range', start: 1, end: 2 });
  });
  it('past the end, or an empty file, is unsatisfiable', () => {
    assert.deepEqual(parseByteRange('bytes=1000-', size), { kind: 'unsatisfiable' });
    assert.deepEqual(parseByteRange('bytes=-0', size), { kind: 'unsatisfiable' });
    assert.deepEqual(parseByteRange('bytes=0-', 0), { kind: 'unsatisfiable' });
  });
  it('no header, several ranges, another unit or nonsense: the whole file', () => {
    for (const h of ['', 'bytes=0-1,5-6', 'items=0-1', 'bytes=5-2', 'bytes=-', 'bytes=a-b', 'bytes=0x10-']) assert.deepEqual(parseByteRange(h, size), { kind: 'whole' }, h);
  });
});
