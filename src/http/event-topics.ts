import type { Services } from '../services.js';
import type { Topic } from '../events/protocol.js';
import { clockTicks, type Built, type StateSource, type TopicSource } from '../events/topic-feed.js';
import { passEdges } from '../station/pass-edges.js';
import { iso } from '../util/clock.js';
import { listenAll, type Subscribe } from '../util/listeners.js';
import { RawReply, StreamReply, jsonText, type RouteDef } from './route.js';
import { parseOr400 } from './validate.js';
import { NO_PARAMS } from './router.js';

// What each topic of the push hub is built from and follows. A state topic's data is its GET
// route's body, made by that route's own handler (same query defaults, same serialisation), so the
// two cannot drift; it is rebuilt only after a change notification of the services behind it.

/** The body a GET route would answer now, made by the route's own handler. */
export function routeBody(routes: readonly RouteDef[], path: string): () => Promise<Built> {
  const route = routes.find((r) => r.method === 'GET' && r.path === path);
  if (!route) throw new Error(`no GET ${path} route to build a topic from`);
  // The query a request without parameters gets (its defaults).
  const query = route.query ? parseOr400(route.query, {}, 'query') : {};
  return async () => {
    const out = await route.handler({ query, body: undefined, accept: 'application/json', acceptEncoding: '', path, params: NO_PARAMS, range: '', credentials: null });
    if (out instanceof StreamReply) return { kind: 'error', message: `GET ${path} streams its answer` };
    const body = out instanceof RawReply ? out.body : jsonText(out);
    return { kind: 'data', bytes: typeof body === 'string' ? Buffer.from(body, 'utf8') : body };
  };
}

/** The GET route whose body each state topic's data is. */
export const TOPIC_GET = {
  system: '/api/v1/system/state',
  lite: '/api/v1/lite/snapshot',
  live: '/api/v1/live',
  radio: '/api/v1/radio/state',
  rotator: '/api/v1/rotator/state',
  aprs: '/api/v1/aprs/state',
  logbook: '/api/v1/logbook',
  recording: '/api/v1/recordings/runtime',
} as const satisfies Partial<Record<Topic, string>>;

/** Each topic's source: its data and the notifications that say it changed. */
export function eventSources(s: Services, routes: readonly RouteDef[]): Record<Topic, TopicSource> {
  const state = (topic: keyof typeof TOPIC_GET, ...news: Subscribe[]): StateSource => ({ kind: 'state', watch: (fn) => listenAll(fn, news), build: routeBody(routes, TOPIC_GET[topic]) });
  const radio: Subscribe = (fn) => s.radio.onUpdate(fn);
  const rotator: Subscribe = (fn) => s.rotator.onUpdate(fn);
  const aprs: Subscribe = (fn) => s.aprs.onChange(fn);
  const table: Subscribe = (fn) => s.orbit.table.onTable(() => fn());
  const store = (name: keyof Services['stores']): Subscribe => (fn) => s.stores[name].onChange(() => fn());
  // The AOS and LOS of the passes the screens show: the focus moves on, a pass leaves the list.
  const edges = passEdges(s.station, s.clock, [table, store('lite'), store('passFilter'), store('developerOverrides')]);
  // System state is the union of its parts: every settings file, the location, the sky, the equipment.
  const stores = (Object.keys(s.stores) as Array<keyof Services['stores']>).map(store);
  const system = [...stores, radio, rotator, aprs, table, edges, (fn: () => void) => s.recording.onChange(fn), (fn: () => void) => s.hamlib.onUpdate(fn), (fn: () => void) => s.location.onChange(() => fn()), (fn: () => void) => s.catalog.onChange(() => fn())];
  return {
    system: state('system', ...system),
    // A pass edge makes the cached snapshot stale: it is cleared (for GETs too), which is the lite's news.
    lite: state('lite', (fn) => s.lite.onInvalidate(fn), (fn) => edges(() => s.lite.invalidate())),
    live: { kind: 'state', watch: clockTicks(s.clock, 1000), build: routeBody(routes, TOPIC_GET.live) },
    radio: state('radio', radio),
    rotator: state('rotator', rotator),
    aprs: state('aprs', aprs),
    'aprs.packets': { kind: 'stream', watch: (push) => s.aprs.onPacket((e) => push(JSON.stringify(e))) },
    logbook: state('logbook', (fn) => s.logbook.onUpdate(fn)),
    // The recorder's runtime: a start or end at once, the level about once a second while recording.
    recording: state('recording', (fn) => s.recording.onUpdate(fn)),
    passes: { kind: 'state', watch: (fn) => listenAll(fn, [table]), build: passTableBuilt(s) },
  };
}

/** `{generated_at, count}` of the current pass table (none before the first): when it became current, and its passes. */
function passTableBuilt(s: Services): () => Built {
  // Always followed (one listener), so the time a table became current is known whenever a client asks.
  let made: { table: unknown; at: number } | null = null;
  s.orbit.table.onTable((table) => (made = { table, at: s.clock.now() }));
  return () => {
    const t = s.orbit.table.current();
    if (!t) return { kind: 'none' };
    if (made?.table !== t) made = { table: t, at: s.clock.now() };
    return { kind: 'data', bytes: Buffer.from(JSON.stringify({ generated_at: iso(made.at), count: t.size }), 'utf8') };
  };
}
