// The phase range rates of many passes in one Float64Array (pure). Kept as objects, a pass cost
// ~14 heap objects (its PhaseRates, two arrays, five ISO strings, five boxed numbers): ~800 passes
// of a 48 h horizon were ~11k of the ~147k objects the collector walks on every mark. Here a pass
// is one Map entry and a row of the slab; PhaseRates are made when a pass is asked for.

import { flat } from '../util/flat-string.js';

export class PassRateSlab {
  private readonly rows: Float64Array;
  private readonly slotOf = new Map<string, number>();
  private readonly keyOf: (string | undefined)[];
  private next = 0;

  constructor(
    /** Passes held; the oldest set is dropped first. */
    readonly capacity: number,
    /** Rates per pass. */
    readonly width: number,
  ) {
    this.rows = new Float64Array(capacity * width);
    this.keyOf = new Array(capacity);
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(key: string): boolean {
    return this.slotOf.has(key);
  }

  /** A copy of the pass's rates, null when it was held as having none, undefined when not held. */
  get(key: string): number[] | null | undefined {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return undefined;
    const at = slot * this.width;
    // A row of NaN: the pass was held with no rates (its path gave nothing).
    if (Number.isNaN(this.rows[at])) return null;
    const out: number[] = new Array(this.width);
    for (let k = 0; k < this.width; k++) out[k] = this.rows[at + k];
    return out;
  }

  set(key: string, rates: readonly number[] | null): void {
    let slot = this.slotOf.get(key);
    if (slot === undefined) {
      key = flat(key); // a key made of parts, kept with its row
      slot = this.next;
      this.next = (this.next + 1) % this.capacity;
      const old = this.keyOf[slot];
      if (old !== undefined) this.slotOf.delete(old);
      this.keyOf[slot] = key;
      this.slotOf.set(key, slot);
    }
    const at = slot * this.width;
    for (let k = 0; k < this.width; k++) this.rows[at + k] = rates ? rates[k] : NaN;
  }

  *entries(): Generator<[string, number[] | null]> {
    for (const key of this.slotOf.keys()) yield [key, this.get(key)!];
  }

  clear(): void {
    this.slotOf.clear();
    this.keyOf.fill(undefined);
    this.next = 0;
  }
}
