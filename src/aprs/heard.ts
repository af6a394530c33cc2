import type { HeardStation, RecentPacket } from './schemas.js';

// The in-memory receive views: the last packets (a ring) and the stations heard (bounded,
// the least recently heard evicted). Both are fixed in size however busy the channel is.

export const RECENT_MAX = 50;
export const HEARD_MAX = 200;

export class RecentPackets {
  private ring: RecentPacket[] = [];
  private next = 0;
  constructor(private readonly max = RECENT_MAX) {}
  add(p: RecentPacket): void {
    if (this.ring.length < this.max) this.ring.push(p);
    else this.ring[this.next] = p;
    this.next = (this.next + 1) % this.max;
  }
  /** Newest first. */
  list(): RecentPacket[] {
    const n = this.ring.length;
    const out = new Array<RecentPacket>(n);
    for (let i = 0; i < n; i++) out[i] = this.ring[(this.next - 1 - i + n * 2) % n];
    return out;
  }
  clear(): void {
    this.ring = [];
    this.next = 0;
  }
}

export interface Heard {
  callsign: string;
  at: string;
  kind: string;
  summary: string;
  lat: number | null;
  lon: number | null;
  direct: boolean;
}

export class HeardStations {
  // A Map keeps insertion order: re-inserting on every hearing keeps the oldest first for eviction.
  private byCall = new Map<string, HeardStation>();
  constructor(private readonly max = HEARD_MAX) {}
  hear(h: Heard): void {
    const prev = this.byCall.get(h.callsign);
    if (prev) this.byCall.delete(h.callsign);
    else if (this.byCall.size >= this.max) this.byCall.delete(this.byCall.keys().next().value!);
    this.byCall.set(h.callsign, {
      callsign: h.callsign,
      last_heard_at: h.at,
      packets: (prev?.packets ?? 0) + 1,
      last_kind: h.kind,
      last_summary: h.summary,
      // A status or message carries no position: the last known one stays.
      lat: h.lat ?? prev?.lat ?? null,
      lon: h.lon ?? prev?.lon ?? null,
      direct: h.direct,
    });
  }
  get size(): number {
    return this.byCall.size;
  }
  /** Most recently heard first. */
  list(): HeardStation[] {
    return [...this.byCall.values()].reverse();
  }
  clear(): void {
    this.byCall.clear();
  }
}
