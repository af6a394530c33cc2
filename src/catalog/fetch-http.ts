// Driver: one GET of an http(s) source with a timeout, a streaming size cap and HTTP
// conditional-request headers. Redirects are followed; only a final 200 body is ever returned as
// data, so a redirect or error page can never be cached as a catalog. fetch-source.ts runs it on
// the loop for http and on a worker thread for https (fetch-job.ts).
import type { IncomingMessage } from 'node:http';
import { drainSliced, eventLoopSlicer, SliceClock, type LoopSlicer } from '../util/loop-slices.js';
import { retryAfterMs } from '../util/retry-after.js';
import { ByteSink } from './byte-sink.js';

export interface FetchOptions {
  timeoutMs: number;
  maxBytes: number;
  etag?: string | null;
  lastModified?: string | null;
  /** Epoch ms "now" for Retry-After dates (injected clock). */
  nowMs: number;
  /** Aborts the fetch (service stop). */
  signal?: AbortSignal;
}

export type FetchResult =
  | { kind: 'data'; body: Buffer; bytes: number; etag: string | null; lastModified: string | null; maxAgeMs: number | null; finalUrl: string }
  | { kind: 'not-modified'; maxAgeMs: number | null }
  | { kind: 'error'; message: string; status: number | null; retryAfterMs: number | null };

export function parseMaxAge(cacheControl: string | null): number | null {
  if (!cacheControl || /no-store|no-cache/i.test(cacheControl)) return null;
  const m = /max-age=(\d+)/i.exec(cacheControl);
  return m ? Number(m[1]) * 1000 : null;
}

export const kib = (n: number) => `${Math.round(n / 1024)} KiB`;

const MAX_REDIRECTS = 5;

/**
 * Name lookup plus TCP connect, per connection. A refused port fails at once, but a host the
 * station cannot reach (no resolver answer: glibc gives up after 5 s; a dropped SYN) would
 * otherwise hold the refresh for the whole timeout, and an operator is waiting on the route
 * (issue 32). A reachable host connects in well under a second, even over a phone's hotspot.
 */
export const CONNECT_TIMEOUT_MS = 2_000;

/**
 * One GET; resolves with the response (body unread) or rejects. node:http rather than fetch:
 * undici costs ~15 MiB RSS; loaded on first use, since most boots never fetch (offline field use).
 */
async function get(url: string, headers: Record<string, string>, signal: AbortSignal): Promise<IncomingMessage> {
  const mod = url.startsWith('https:') ? await import('node:https') : await import('node:http');
  return new Promise((resolve, reject) => {
    const req = mod.get(url, { headers, signal }, resolve);
    req.on('error', reject);
    req.once('socket', (socket) => {
      if (!socket.connecting) return; // a kept-alive connection
      const host = new URL(url).hostname;
      const timer = setTimeout(() => req.destroy(new Error(`no connection to ${host} within ${CONNECT_TIMEOUT_MS / 1000} s (name lookup and connect)`)), CONNECT_TIMEOUT_MS);
      const done = () => clearTimeout(timer);
      socket.once('connect', done);
      socket.once('close', done);
    });
  });
}

export async function fetchHttp(url: string, o: FetchOptions, slicer: LoopSlicer = eventLoopSlicer): Promise<FetchResult> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), o.timeoutMs);
  const stop = () => ctl.abort();
  o.signal?.addEventListener('abort', stop);
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9, */*;q=0.1', 'user-agent': 'satstation (amateur radio appliance)' };
  if (o.etag) headers['if-none-match'] = o.etag;
  if (o.lastModified) headers['if-modified-since'] = o.lastModified;
  let current = url;
  try {
    let res = await get(current, headers, ctl.signal);
    for (let hops = 0; res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && res.statusCode !== 304; hops++) {
      res.resume(); // a redirect body is never data
      const location = res.headers.location;
      if (!location || hops >= MAX_REDIRECTS) return { kind: 'error', status: res.statusCode, message: location ? `more than ${MAX_REDIRECTS} redirects` : `HTTP ${res.statusCode} without a Location`, retryAfterMs: null };
      current = new URL(location, current).toString();
      res = await get(current, headers, ctl.signal);
    }
    const status = res.statusCode ?? 0;
    const header = (name: string) => {
      const h = res.headers[name];
      return Array.isArray(h) ? h.join(', ') : (h ?? null);
    };
    const maxAgeMs = parseMaxAge(header('cache-control'));
    if (status === 304) {
      res.resume();
      return { kind: 'not-modified', maxAgeMs };
    }
    if (status !== 200) {
      res.resume();
      return { kind: 'error', status, message: `HTTP ${status}${res.statusMessage ? ' ' + res.statusMessage : ''}`, retryAfterMs: retryAfterMs(header('retry-after'), o.nowMs) };
    }
    const declared = Number(header('content-length'));
    if (declared > o.maxBytes) {
      res.destroy();
      return { kind: 'error', status, message: `response too large (${kib(declared)} declared, cap ${kib(o.maxBytes)})`, retryAfterMs: null };
    }
    // With a declared length the body goes straight into one buffer: no second copy at the peak.
    const sink = new ByteSink(o.maxBytes, Number.isFinite(declared) && declared > 0 ? declared : 0);
    // A source on the LAN delivers a whole catalogue in a few turns of the loop, each page of the
    // body written for the first time (the robustness bench's 15 MiB body: 30–48 ms of one turn
    // here). The loop gets a turn once a slice is spent; meanwhile the socket's reads stop at
    // the stream's high-water mark, so the body waits in the kernel, not in our memory.
    const slice = new SliceClock(slicer);
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (!sink.add(chunk)) {
        res.destroy();
        return { kind: 'error', status, message: `response exceeds the size cap of ${kib(o.maxBytes)}`, retryAfterMs: null };
      }
      if (slice.spent) await slice.yieldTurn();
    }
    if (!res.complete) return { kind: 'error', status, message: 'connection closed before the response was complete', retryAfterMs: null };
    const body = await drainSliced(sink.takeSteps(), slicer);
    return { kind: 'data', body, bytes: body.length, etag: header('etag'), lastModified: header('last-modified'), maxAgeMs, finalUrl: current };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message = o.signal?.aborted ? 'stopped' : ctl.signal.aborted ? `timed out after ${o.timeoutMs} ms` : `fetch failed: ${e.code ?? e.message}`;
    return { kind: 'error', status: null, message, retryAfterMs: null };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', stop);
  }
}
