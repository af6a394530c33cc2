// What the server's entry (src/boot/code-cache-loader.ts, dist/server.cjs) tells the app about the
// V8 code cache it compiled dist/ through. The app (src/main.ts) logs it and decides when the cache
// is written: after boot, once the loop is quiet, and for a lazy area once it has loaded. Absent when
// the server runs from source (tests under tsx): there is nothing of ours to cache then.

export interface CodeCacheFlush {
  /** Scripts whose cache was written. */
  written: number;
  bytes: number;
  /** Why some or all could not be written (an unwritable directory, a full card); null when all were. */
  error: string | null;
}

export interface CodeCacheStatus {
  /** The directory of this build, this Node and this architecture; null when the cache is off. */
  dir: string | null;
  /** Scripts compiled from their cache. */
  fromCache: number;
  /** Scripts compiled from source: no cache yet, or one V8 rejected. */
  compiled: number;
  /** Of `compiled`, those whose cache V8 rejected (another binary, other flags, a damaged file). */
  rejected: number;
  /** Scripts compiled from source whose cache has not been written yet. */
  pending(): number;
  /** Writes the cache of the first `max` pending scripts (all by default; each file atomically); never throws. */
  flush(max?: number): CodeCacheFlush;
  /**
   * One job per script loaded so far: each writes that script's cache anew if this run compiled
   * more of it than its file holds (the functions first run after boot: the requests, a lazy area),
   * so the next start finds them compiled too; never throws.
   */
  grown(): Array<() => CodeCacheFlush>;
  /**
   * One job per chunk of dist/ not loaded so far and with no cache file: each compiles it without
   * running it and writes its cache, so an area's first load ever (the radio enabled for the first
   * time) reads its cache instead of parsing it; never throws.
   */
  ahead(): Array<() => CodeCacheFlush>;
}

export const CODE_CACHE_STATUS = Symbol.for('satstation.code-cache');

/** The entry's status, when the server was started through dist/server.cjs. */
export function codeCacheStatus(): CodeCacheStatus | null {
  return ((globalThis as Record<symbol, unknown>)[CODE_CACHE_STATUS] as CodeCacheStatus | undefined) ?? null;
}
