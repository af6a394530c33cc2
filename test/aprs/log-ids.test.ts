import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntryIds } from '../../src/aprs/log/entry-ids.js';

// APRS log entry ids, without a file or a clock: they sort as text and never go back.

const T0 = Date.parse('2026-08-22T12:00:00Z');

describe('APRS log entry ids', () => {
  it('are the epoch ms and a counter within the same ms, sorting as text', () => {
    const ids = new EntryIds();
    const got = [ids.next(T0), ids.next(T0), ids.next(T0 + 1), ids.next(T0 + 1.9)];
    assert.deepEqual(got, [`${T0}-0000`, `${T0}-0001`, `${T0 + 1}-0000`, `${T0 + 1}-0001`]);
    assert.deepEqual([...got].sort(), got);
  });

  it('never go back when the clock does', () => {
    const ids = new EntryIds();
    const a = ids.next(T0);
    const b = ids.next(T0 - 3_600_000);
    assert.ok(b > a, `${b} after ${a}`);
    assert.equal(b, `${T0}-0001`);
  });

  it('an id read back from the file is the floor for the next, whatever the clock says', () => {
    const ids = new EntryIds();
    ids.note(`${T0}-0041`);
    ids.note(`${T0 - 5}-0099`); // older: no effect
    ids.note('not-an-id');
    assert.equal(ids.next(T0 - 86_400_000), `${T0}-0042`);
  });

  it('past 9999 in one ms the next ms is borrowed, and the order holds', () => {
    const ids = new EntryIds();
    ids.note(`${T0}-9998`);
    const got = [ids.next(T0), ids.next(T0), ids.next(T0)];
    assert.deepEqual(got, [`${T0}-9999`, `${T0 + 1}-0000`, `${T0 + 1}-0001`]);
  });

  it('a time before 1970 or a fraction still gives a 13-digit id', () => {
    assert.equal(new EntryIds().next(-5), '0000000000000-0000');
    assert.match(new EntryIds().next(T0 + 0.7), /^\d{13}-\d{4}$/);
  });
});
