// Service worker: the app shell (pages and their hashed assets) and the last answer of every
// API GET a page used, so a page keeps showing the last data, with its age, when the appliance
// cannot be reached. API answers always go to the network first; only a failure is served
// from the cache, marked with x-satstation-cached-at (when it was stored) so the page knows.

declare const __SW_VERSION__: string;
declare const __SW_ASSETS__: string[];

interface FetchEventLike {
  request: Request;
  respondWith(r: Promise<Response>): void;
}
interface ExtendableEventLike {
  waitUntil(p: Promise<unknown>): void;
}
const sw = self as unknown as {
  addEventListener(type: 'install' | 'activate', fn: (e: ExtendableEventLike) => void): void;
  addEventListener(type: 'fetch', fn: (e: FetchEventLike) => void): void;
  skipWaiting(): Promise<void>;
  clients: { claim(): Promise<void>; matchAll(o: { type: 'window'; includeUncontrolled: boolean }): Promise<Array<{ url: string }>> };
  location: Location;
};

const SHELL = 'satstation-shell-' + __SW_VERSION__;
/** API answers outlive a new build: the last data is still the last data. */
const DATA = 'satstation-data';
const CACHED_AT = 'x-satstation-cached-at';
const API_TIMEOUT_MS = 10_000;

/**
 * The pages open while the worker installs: the page that registered it was fetched before any
 * worker existed, so without this its HTML is in no cache and the first reload while the
 * appliance is down shows the browser's error page instead of the last data.
 */
async function cacheOpenPages(cache: Cache): Promise<void> {
  const open = await sw.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const paths = new Set(open.map((c) => new URL(c.url)).filter((u) => u.origin === sw.location.origin).map((u) => u.pathname));
  await Promise.all(
    [...paths].map((path) =>
      fetch(path, { credentials: 'same-origin' })
        .then((res) => (res.ok ? cache.put(path, res) : undefined))
        .catch(() => undefined), // a page that cannot be fetched now is cached on its next visit
    ),
  );
}

sw.addEventListener('install', (e) => {
  e.waitUntil(
    caches
      .open(SHELL)
      .then((c) => Promise.all([c.addAll(__SW_ASSETS__), cacheOpenPages(c)]))
      .then(() => sw.skipWaiting()),
  );
});

sw.addEventListener('activate', (e) => {
  e.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('satstation-shell-') && k !== SHELL).map((k) => caches.delete(k))))
      .then(() => sw.clients.claim()),
  );
});

/** One cache entry per API path: the last answer, whatever its query (bounded by the routes). */
const dataKey = (url: URL) => url.origin + url.pathname;

async function fromNetworkOrData(req: Request, url: URL): Promise<Response> {
  const ctl = new AbortController();
  const t = setTimeout(() => ctl.abort(), API_TIMEOUT_MS);
  try {
    const res = await fetch(req, { signal: ctl.signal });
    if (res.ok) {
      const headers = new Headers(res.headers);
      headers.set(CACHED_AT, String(Date.now()));
      const copy = new Response(await res.clone().arrayBuffer(), { status: res.status, headers });
      caches.open(DATA).then((c) => c.put(dataKey(url), copy));
    }
    return res;
  } catch (err) {
    const hit = await caches.open(DATA).then((c) => c.match(dataKey(url)));
    if (hit) return hit;
    throw err;
  } finally {
    clearTimeout(t);
  }
}

async function page(req: Request, url: URL): Promise<Response> {
  const cache = await caches.open(SHELL);
  try {
    const res = await fetch(req);
    if (res.ok) cache.put(url.pathname, res.clone());
    return res;
  } catch (err) {
    const hit = await cache.match(url.pathname);
    if (hit) return hit;
    throw err;
  }
}

async function asset(req: Request): Promise<Response> {
  const hit = await caches.match(req);
  if (hit) return hit;
  const res = await fetch(req);
  if (res.ok) caches.open(SHELL).then((c) => c.put(req, res.clone()));
  return res;
}

sw.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== sw.location.origin) return;
  if (url.pathname.startsWith('/assets/')) e.respondWith(asset(req));
  // A recording's audio goes straight to the network: megabytes read in ranges by the player,
  // not an answer to keep (a copy would buffer the whole file, and a 206 cannot be cached).
  else if (url.pathname.startsWith('/api/v1/recordings/') && url.pathname.endsWith('/audio')) return;
  else if (url.pathname.startsWith('/api/v1/')) e.respondWith(fromNetworkOrData(req, url));
  else if (req.mode === 'navigate') e.respondWith(page(req, url));
});
