// The log's memory: a bounded FIFO, oldest first. It holds exactly what the API can show, so a
// burst past the cap evicts the oldest instead of growing the heap.

export class Ring<T> {
  private buf: T[] = [];
  private start = 0;
  constructor(private cap: number) {}

  get length(): number {
    return this.buf.length;
  }

  /** Past the capacity the oldest is overwritten. */
  push(x: T): void {
    if (this.buf.length < this.cap) this.buf.push(x);
    else {
      this.buf[this.start] = x;
      this.start = (this.start + 1) % this.cap;
    }
  }

  /** i = 0 is the oldest. */
  at(i: number): T {
    return this.buf[(this.start + i) % this.buf.length];
  }

  toArray(): T[] {
    return this.buf.slice(this.start).concat(this.buf.slice(0, this.start));
  }

  /** The newest k, oldest first. */
  newest(k: number): T[] {
    const all = this.toArray();
    return k <= 0 ? [] : all.slice(Math.max(0, all.length - k));
  }

  /** Replaces the content (keeping the newest `cap` of `items`), optionally with a new capacity. */
  reset(items: T[], cap = this.cap): void {
    this.cap = cap;
    this.buf = items.slice(Math.max(0, items.length - cap));
    this.start = 0;
  }
}
