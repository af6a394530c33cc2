// APRS duplicate suppression: the same packet heard again within a window (typically 30 s),
// whichever digipeaters it came through, is a duplicate. Bounded: at most maxEntries keys.

import { formatAddress, type Ax25Frame } from './codec/ax25.js';
import { infoText } from './codec/tnc2.js';

/**
 * source (with SSID) + destination + info; the path and H bits are left out so a packet heard
 * direct and via a digipeater is one packet. Trailing CR/LF/spaces of the info are ignored
 * because some digipeaters and gateways add or strip them.
 */
export function dupeKey(f: Ax25Frame): string {
  let end = f.info.length;
  while (end > 0) {
    const c = f.info[end - 1];
    if (c !== 0x0d && c !== 0x0a && c !== 0x20) break;
    end--;
  }
  return `${formatAddress(f.source)}>${formatAddress(f.destination)}:${infoText(f.info.subarray(0, end))}`;
}

export class DedupeWindow {
  // Map keeps insertion order; a key is re-inserted whenever it is recorded, so the head is
  // always the oldest record and both expiry and eviction work from the head.
  private readonly entries = new Map<string, number>();
  private windowMs: number;
  private readonly maxEntries: number;

  constructor(windowMs: number, maxEntries = 512) {
    this.windowMs = Math.max(0, windowMs);
    this.maxEntries = Math.max(1, Math.floor(maxEntries));
  }

  /**
   * True when the same key was recorded within the window (the record is not refreshed, so a
   * packet repeated forever still gets through once per window); otherwise records it.
   */
  seen(key: string, nowMs: number): boolean {
    this.sweep(nowMs);
    const at = this.entries.get(key);
    if (at !== undefined) {
      const age = nowMs - at;
      if (age >= 0 && age < this.windowMs) return true;
      this.entries.delete(key);
    }
    this.entries.set(key, nowMs);
    if (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    return false;
  }

  /** Drops expired records from the head; stops at the first live one (amortised O(1)). */
  private sweep(nowMs: number): void {
    for (const [key, at] of this.entries) {
      const age = nowMs - at;
      // A negative age means the clock stepped back: forget rather than suppress for that long.
      if (age >= 0 && age < this.windowMs) return;
      this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Takes effect for every record from now on, including those already held. */
  setWindow(ms: number): void {
    this.windowMs = Math.max(0, ms);
  }
}
