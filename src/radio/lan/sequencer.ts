// Sequence numbers of one stream, both ways. Pure and bounded: every tracked packet we send is
// kept in a ring (the last 256) so a retransmit request can be answered; every tracked packet
// we receive is checked against a window of recent seqs (duplicates dropped), gaps become a
// capped list of seqs to ask for (each at most 4 times, as wfview does), and packets that
// arrive after a gap are held briefly so they are handed on in order.
//
// Sequence numbers are 16-bit and wrap; every comparison is modulo 2^16.

/** a - b as a signed 16-bit difference: > 0 when a is after b. */
export const seqDiff = (a: number, b: number): number => (((a - b) & 0xffff) << 16) >> 16;
export const seqNext = (a: number): number => (a + 1) & 0xffff;

const isPow2 = (n: number) => n > 0 && (n & (n - 1)) === 0;

interface Slot {
  seq: number;
  len: number;
  buf: Uint8Array;
}

/** The last `capacity` tracked packets we sent, by seq. Slot buffers are reused: no garbage per packet. */
export class TxHistory {
  private readonly slots: Slot[];
  private readonly mask: number;

  constructor(capacity = 256) {
    if (!isPow2(capacity)) throw new RangeError(`TxHistory capacity ${capacity} is not a power of two`);
    this.mask = capacity - 1;
    this.slots = Array.from({ length: capacity }, () => ({ seq: -1, len: 0, buf: new Uint8Array(0) }));
  }

  /** A buffer of exactly len bytes to encode the packet with this seq into; it stays stored. */
  slot(seq: number, len: number): Uint8Array {
    const s = this.slots[seq & this.mask];
    if (s.buf.length < len) s.buf = new Uint8Array(Math.max(len, 64));
    s.seq = seq & 0xffff;
    s.len = len;
    return s.buf.subarray(0, len);
  }

  /** The packet sent with this seq, if it is still kept. */
  get(seq: number): Uint8Array | null {
    const s = this.slots[seq & this.mask];
    return s.seq === (seq & 0xffff) ? s.buf.subarray(0, s.len) : null;
  }

  clear(): void {
    for (const s of this.slots) s.seq = -1;
  }
}

export type RxVerdict = 'new' | 'duplicate';

export interface RxTrackerOptions {
  /** Recent seqs remembered for duplicate detection (a power of two). */
  window?: number;
  /** Gaps tracked at once: more is a broken link, and everything is forgotten (a resync). */
  maxMissing?: number;
  /** Times one missing seq is asked for before it is given up. */
  attempts?: number;
}

/** Received seqs of one stream: duplicates, gaps, and which seqs to ask the sender for again. */
export class RxTracker {
  private readonly seen: Int32Array;
  private readonly mask: number;
  private readonly maxMissing: number;
  private readonly attempts: number;
  private highest = -1;
  /** Missing seq → times asked so far (insertion order = oldest first). */
  private readonly missing = new Map<number, number>();
  readonly stats = { duplicates: 0, gaps: 0, resyncs: 0, given_up: 0, recovered: 0 };

  constructor(o: RxTrackerOptions = {}) {
    const window = o.window ?? 256;
    if (!isPow2(window)) throw new RangeError(`RxTracker window ${window} is not a power of two`);
    this.seen = new Int32Array(window).fill(-1);
    this.mask = window - 1;
    this.maxMissing = o.maxMissing ?? 50;
    this.attempts = o.attempts ?? 4;
  }

  /** Notes one received tracked seq: 'duplicate' means drop it. */
  accept(seq: number): RxVerdict {
    seq &= 0xffff;
    if (this.highest < 0) {
      this.start(seq);
      return 'new';
    }
    const d = seqDiff(seq, this.highest);
    if (d === 0) return this.dup();
    if (d > 0) {
      if (d - 1 > this.maxMissing) {
        this.resync(seq); // a jump no retransmit can fill: start again from here
        return 'new';
      }
      for (let s = seqNext(this.highest); s !== seq; s = seqNext(s)) {
        this.seen[s & this.mask] = -1;
        this.missing.set(s, 0);
        this.stats.gaps++;
      }
      this.highest = seq;
      this.seen[seq & this.mask] = seq;
      if (this.missing.size > this.maxMissing) {
        this.stats.resyncs++;
        this.missing.clear();
      }
      return 'new';
    }
    if (-d > this.mask) {
      this.resync(seq); // older than anything we remember: the sender started again
      return 'new';
    }
    if (this.seen[seq & this.mask] === seq) return this.dup();
    this.seen[seq & this.mask] = seq;
    if (this.missing.delete(seq)) this.stats.recovered++;
    return 'new';
  }

  /** Seqs to ask for now (each call is one more attempt); ones asked for too often are given up. */
  due(): number[] {
    if (this.missing.size === 0) return [];
    const out: number[] = [];
    for (const [seq, n] of this.missing) {
      if (n >= this.attempts) {
        this.missing.delete(seq);
        this.stats.given_up++;
        continue;
      }
      this.missing.set(seq, n + 1);
      out.push(seq);
    }
    return out;
  }

  get missingCount(): number {
    return this.missing.size;
  }

  get highestSeq(): number | null {
    return this.highest < 0 ? null : this.highest;
  }

  reset(): void {
    this.highest = -1;
    this.missing.clear();
    this.seen.fill(-1);
  }

  private start(seq: number): void {
    this.highest = seq;
    this.seen[seq & this.mask] = seq;
  }

  private resync(seq: number): void {
    this.stats.resyncs++;
    this.missing.clear();
    this.seen.fill(-1);
    this.start(seq);
  }

  private dup(): RxVerdict {
    this.stats.duplicates++;
    return 'duplicate';
  }
}

/**
 * Hands items on in seq order: one that arrives after a gap waits (at most `max` items, at most
 * holdMs) for the missing ones, which a retransmit usually brings within 100–200 ms.
 */
export class Reorder<T> {
  private next = -1;
  private readonly held = new Map<number, { item: T; at: number }>();
  readonly stats = { held: 0, skipped: 0, late: 0 };

  constructor(
    private readonly emit: (item: T) => void,
    private readonly max = 64,
  ) {}

  push(seq: number, item: T, now: number): void {
    seq &= 0xffff;
    if (this.next < 0) this.next = seq;
    const d = seqDiff(seq, this.next);
    if (d < 0) {
      // Already released past it (given up on, then it came): too late to be in order.
      if (-d > 4096) this.resync(seq, item);
      else this.stats.late++;
      return;
    }
    if (d === 0) {
      this.next = seqNext(seq);
      this.emit(item);
      this.drain();
      return;
    }
    if (d > 4096) {
      this.resync(seq, item);
      return;
    }
    if (!this.held.has(seq)) {
      this.held.set(seq, { item, at: now });
      this.stats.held++;
    }
    while (this.held.size > this.max) this.skipToOldest();
  }

  /** Releases what has waited holdMs or more (call it on a timer). */
  flush(now: number, holdMs: number): void {
    while (this.held.size > 0) {
      let oldest = Infinity;
      for (const h of this.held.values()) if (h.at < oldest) oldest = h.at;
      if (now - oldest < holdMs) return;
      this.skipToOldest();
    }
  }

  get heldCount(): number {
    return this.held.size;
  }

  reset(): void {
    this.next = -1;
    this.held.clear();
  }

  /** Gives up on the gap before the first held item. */
  private skipToOldest(): void {
    let first = -1;
    let best = Infinity;
    for (const seq of this.held.keys()) {
      const d = seqDiff(seq, this.next);
      if (d < best) {
        best = d;
        first = seq;
      }
    }
    if (first < 0) return;
    this.stats.skipped += best;
    this.next = first;
    this.drain();
  }

  private drain(): void {
    for (let h = this.held.get(this.next); h; h = this.held.get(this.next)) {
      this.held.delete(this.next);
      this.next = seqNext(this.next);
      this.emit(h.item);
    }
  }

  private resync(seq: number, item: T): void {
    // Release what is held, in order, then start again at seq.
    while (this.held.size > 0) this.skipToOldest();
    this.next = seqNext(seq);
    this.emit(item);
  }
}
