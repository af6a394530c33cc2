import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Reorder, RxTracker, TxHistory, seqDiff } from '../../../src/radio/lan/sequencer.js';

// Sequence bookkeeping of one stream: what we keep to answer retransmit requests, which seqs we
// ask for, duplicates, the 16-bit wrap, and in-order hand-over, all bounded.

describe('seqDiff', () => {
  it('is signed and wraps at 2^16', () => {
    assert.equal(seqDiff(5, 3), 2);
    assert.equal(seqDiff(3, 5), -2);
    assert.equal(seqDiff(1, 0xffff), 2);
    assert.equal(seqDiff(0xffff, 1), -2);
  });
});

describe('TxHistory', () => {
  it('keeps the last 256 packets by seq, reusing slot buffers', () => {
    const h = new TxHistory(256);
    for (let s = 0; s < 1000; s++) h.slot(s, 20).fill(s & 0xff);
    assert.equal(h.get(999)?.[0], 999 & 0xff);
    assert.equal(h.get(744)?.[0], 744 & 0xff);
    assert.equal(h.get(743), null, 'older than 256 packets: gone');
    const b1 = h.slot(1000, 30);
    const b2 = h.slot(1256, 10);
    assert.equal(b1.buffer, b2.buffer, 'the slot buffer is reused');
    assert.equal(h.get(1000), null);
    assert.equal(h.get(1256)?.length, 10);
  });
  it('handles the wrap from 0xffff to 0', () => {
    const h = new TxHistory(256);
    h.slot(0xffff, 4).fill(1);
    h.slot(0, 4).fill(2);
    assert.equal(h.get(0xffff)?.[0], 1);
    assert.equal(h.get(0)?.[0], 2);
    assert.deepEqual(h.get(0x10000), h.get(0));
  });
  it('refuses a capacity that is not a power of two', () => {
    assert.throws(() => new TxHistory(100), RangeError);
  });
});

describe('RxTracker', () => {
  it('in order: all new, nothing missing', () => {
    const r = new RxTracker();
    for (let s = 10; s < 20; s++) assert.equal(r.accept(s), 'new');
    assert.deepEqual(r.due(), []);
  });

  it('drops duplicates, recent and repeated', () => {
    const r = new RxTracker();
    for (const s of [1, 2, 3]) r.accept(s);
    assert.equal(r.accept(3), 'duplicate');
    assert.equal(r.accept(1), 'duplicate');
    assert.equal(r.stats.duplicates, 2);
  });

  it('a gap is asked for, at most 4 times, and forgotten once it arrives', () => {
    const r = new RxTracker({ attempts: 4 });
    r.accept(1);
    r.accept(4); // 2 and 3 missing
    assert.deepEqual(r.due(), [2, 3]);
    assert.equal(r.accept(2), 'new', 'a retransmitted packet is new');
    assert.equal(r.accept(2), 'duplicate', 'and only once');
    assert.deepEqual(r.due(), [3]);
    assert.deepEqual(r.due(), [3]);
    assert.deepEqual(r.due(), [3]); // 4th attempt
    assert.deepEqual(r.due(), [], 'given up');
    assert.equal(r.stats.given_up, 1);
    assert.equal(r.stats.recovered, 1);
  });

  it('across the 16-bit wrap', () => {
    const r = new RxTracker();
    r.accept(0xfffe);
    r.accept(1); // 0xffff and 0 missing
    assert.deepEqual(r.due(), [0xffff, 0]);
    assert.equal(r.accept(0), 'new');
    assert.deepEqual(r.due(), [0xffff]);
  });

  it('a jump larger than the gap cap is a resync, not 1000 requests', () => {
    const r = new RxTracker({ maxMissing: 50 });
    r.accept(1);
    r.accept(1001);
    assert.deepEqual(r.due(), []);
    assert.equal(r.stats.resyncs, 1);
    assert.equal(r.accept(1002), 'new');
  });

  it('the missing list stays capped: too many gaps are flushed', () => {
    const r = new RxTracker({ maxMissing: 10 });
    let s = 0;
    r.accept(s);
    for (let i = 0; i < 8; i++) {
      s += 3; // two missing each time
      r.accept(s);
    }
    assert.ok(r.missingCount <= 10);
    assert.ok(r.stats.resyncs >= 1);
  });

  it('a seq far behind the window starts again (the sender restarted)', () => {
    const r = new RxTracker({ window: 256 });
    for (let s = 1000; s < 1010; s++) r.accept(s);
    assert.equal(r.accept(5), 'new');
    assert.equal(r.highestSeq, 5);
  });
});

describe('Reorder', () => {
  const collect = () => {
    const out: number[] = [];
    const ro = new Reorder<number>((x) => out.push(x), 8);
    return { out, ro };
  };

  it('passes in-order items straight through', () => {
    const { out, ro } = collect();
    for (let s = 5; s < 10; s++) ro.push(s, s, 0);
    assert.deepEqual(out, [5, 6, 7, 8, 9]);
  });

  it('holds what follows a gap until the gap is filled', () => {
    const { out, ro } = collect();
    ro.push(1, 1, 0);
    ro.push(3, 3, 0);
    ro.push(4, 4, 0);
    assert.deepEqual(out, [1]);
    ro.push(2, 2, 10);
    assert.deepEqual(out, [1, 2, 3, 4]);
  });

  it('gives up on a gap after holdMs and releases in order', () => {
    const { out, ro } = collect();
    ro.push(1, 1, 0);
    ro.push(3, 3, 100);
    ro.push(5, 5, 150);
    ro.flush(350, 300);
    assert.deepEqual(out, [1]);
    ro.flush(400, 300);
    assert.deepEqual(out, [1, 3]);
    ro.flush(450, 300);
    assert.deepEqual(out, [1, 3, 5]);
    ro.push(2, 2, 460);
    assert.deepEqual(out, [1, 3, 5], 'too late now');
    assert.equal(ro.stats.late, 1);
  });

  it('is bounded: holding more than max skips the gap', () => {
    const { out, ro } = collect();
    ro.push(0, 0, 0);
    for (let s = 2; s <= 10; s++) ro.push(s, s, 0); // 9 held > max 8
    assert.deepEqual(out, [0, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    assert.equal(ro.heldCount, 0);
  });

  it('wraps at 2^16', () => {
    const { out, ro } = collect();
    ro.push(0xfffe, 1, 0);
    ro.push(0, 3, 0);
    ro.push(0xffff, 2, 0);
    assert.deepEqual(out, [1, 2, 3]);
  });
});
