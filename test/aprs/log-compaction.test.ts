import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactLimit, keptAfterPrune, tailBytes } from '../../src/aprs/log/compaction.js';

// When the APRS log file is rewritten and what a prune keeps, without a file.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const at = (ms: number) => ({ received_at: new Date(ms).toISOString(), n: ms - T0 });

describe('APRS log compaction', () => {
  it('the file is compacted once it holds a quarter more lines than the cap', () => {
    assert.equal(compactLimit(100), 125);
    assert.equal(compactLimit(10), 13);
    assert.equal(compactLimit(1), 2);
  });

  it('a large file is read from its tail: at least 1 MiB, 1 KiB per line the file may hold', () => {
    assert.equal(tailBytes(10), 1024 * 1024);
    assert.equal(tailBytes(5000), 6250 * 1024);
  });

  it('a prune drops the old entries it was asked about and keeps every newer one', () => {
    const all = [at(T0 - 5000), at(T0 - 1000), at(T0 - 4000), at(T0)];
    const kept = keptAfterPrune(all, { cutoff: T0 - 2000, asOf: 4 }, 4);
    assert.deepEqual(kept.map((e) => e.n), [-1000, 0], 'the received time decides, not the order');
    assert.deepEqual(keptAfterPrune(all, { cutoff: Number.POSITIVE_INFINITY, asOf: 4 }, 4), []);
    assert.deepEqual(keptAfterPrune(all, { cutoff: T0 - 2000, asOf: 4 }, 4), kept);
  });

  it('entries appended after the prune was asked for stay, however old their time', () => {
    const all = [at(T0 - 5000), at(T0 - 4000), at(T0 - 9000), at(T0 - 8000)];
    // Asked at 2 appends; the memory snapshot is at 4: the last two came after the request.
    const kept = keptAfterPrune(all, { cutoff: Number.POSITIVE_INFINITY, asOf: 2 }, 4);
    assert.deepEqual(kept.map((e) => e.n), [-9000, -8000]);
    // More appends since the request than the memory holds: everything is newer, nothing goes.
    assert.deepEqual(keptAfterPrune(all, { cutoff: Number.POSITIVE_INFINITY, asOf: 0 }, 10), all);
  });
});
