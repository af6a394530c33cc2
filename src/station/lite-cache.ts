import { nodeZlibIfReady } from '../util/lazy-builtins.js';

// In-memory lite snapshot cache (spec part 4 "Lite snapshot rules"). An entry keeps the
// serialized bytes and their gzipped twin wrapped as ready replies (the HTTP layer supplies
// the wrapper), so a hit does no JSON and no compression work. Bounded: at most
// LITE_CACHE_MAX keys, because a client can vary sat_id freely.

export const LITE_CACHE_TTL_MS = 15_000;
export const LITE_CACHE_MAX = 32;

/** Wraps the bytes into what the HTTP layer sends; `hit` says which reply it is. */
export type ReplyWrapper<R> = (body: Buffer, gzip: Buffer | null, hit: boolean) => R;

export interface LiteCacheEntry<R> {
  at_ms: number;
  body: Buffer;
  /** Null when zlib was not read yet (the first snapshot after boot): that entry goes out uncompressed. */
  gzip: Buffer | null;
  /** The reply for a cache hit and for the request that built the entry. */
  hit: R;
  miss: R;
}

export class LiteCache<R> {
  private entries = new Map<string, LiteCacheEntry<R>>();

  constructor(
    private readonly wrap: ReplyWrapper<R>,
    private readonly ttlMs = LITE_CACHE_TTL_MS,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now: number): LiteCacheEntry<R> | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (now - e.at_ms < this.ttlMs && now >= e.at_ms) return e;
    this.entries.delete(key);
    return null;
  }

  /**
   * Serialize once, gzip once, keep both. The fastest gzip level: a miss is paid at request
   * time, and level 6 took ~0.4 ms of the ~1.5 ms a 15 KiB snapshot miss costs here (4 ms at a
   * tenth of a core) to send 3.4 KiB instead of level 1's 3.8 KiB over a LAN.
   */
  put(key: string, now: number, json: string): LiteCacheEntry<R> {
    const body = Buffer.from(json, 'utf8');
    const zlib = nodeZlibIfReady();
    const gzip = zlib && zlib.gzipSync(body, { level: zlib.constants.Z_BEST_SPEED });
    const entry: LiteCacheEntry<R> = { at_ms: now, body, gzip, hit: this.wrap(body, gzip, true), miss: this.wrap(body, gzip, false) };
    if (this.entries.size >= LITE_CACHE_MAX) this.evict(now);
    this.entries.set(key, entry);
    return entry;
  }

  clear(): void {
    this.entries.clear();
  }

  /** Drop expired entries; if none were, the oldest (a Map iterates in insertion order). */
  private evict(now: number): void {
    for (const [k, e] of this.entries) if (now - e.at_ms >= this.ttlMs || now < e.at_ms) this.entries.delete(k);
    if (this.entries.size >= LITE_CACHE_MAX) this.entries.delete(this.entries.keys().next().value!);
  }
}
