import { CLOSE, EVENTS_PATH, LIMITS, PROTOCOL_VERSION, TOPICS, type Topic } from '../events/protocol.js';
import { TOPIC_GET } from './event-topics.js';

// The live-events protocol on /docs (issue 35), beside the OpenAPI document: as JSON under
// `x-events` in the document, and as a section of the HTML page. Built from the protocol's own
// constants and the topics' GET routes, so it says what the server does.

const OTHER_DATA: Record<Exclude<Topic, keyof typeof TOPIC_GET>, string> = {
  'aprs.packets': 'one received packet per event, shaped as an item of GET /api/v1/aprs/log (no first event; never coalesced)',
  passes: '{generated_at, count} of the pass table, when a table exists and whenever it is rebuilt',
};

/** What each topic's data is, in the hello's order. */
const TOPIC_DATA = Object.fromEntries(
  TOPICS.map((t) => [t, t in TOPIC_GET ? `the body of GET ${TOPIC_GET[t as keyof typeof TOPIC_GET]}` : OTHER_DATA[t as keyof typeof OTHER_DATA]]),
) as Record<Topic, string>;

export function eventsDoc(): Record<string, unknown> {
  const { min, max, default: dflt } = LIMITS.minPeriodMs;
  return {
    path: EVENTS_PATH,
    summary: 'GET with Upgrade: websocket. JSON text frames. The first server frame is the hello; a new boot_id means the station restarted: read everything again.',
    version: PROTOCOL_VERSION,
    topics: TOPIC_DATA,
    client_frames: [
      { id: 1, type: 'subscribe', topics: ['radio', 'lite'], min_period_ms: dflt },
      { id: 2, type: 'unsubscribe', topics: ['lite'] },
      { id: 3, type: 'ping' },
    ],
    server_frames: [
      { type: 'hello', version: PROTOCOL_VERSION, boot_id: '…', server_time: 'ISO 8601', topics: TOPICS },
      { id: 1, type: 'result', ok: true },
      { id: 1, type: 'result', ok: false, error: { code: 'unknown_topic | bad_request', message: '…' } },
      { id: 3, type: 'pong' },
      { type: 'event', topic: 'radio', seq: 1, ts: 'ISO 8601', data: '…' },
    ],
    rules: [
      `subscribe sends each state topic's current data at once (seq rising per topic, per socket), then one event per change at most every min_period_ms (${min}–${max}, default ${dflt}; outside: bad_request), the newest state winning; a change after a quiet period goes out at once`,
      'live sends one event every second; aprs.packets one per packet; passes its first once a table exists',
      'bad JSON gets a result with id null and code bad_request; the socket stays open',
      'no command travels over the socket: changes are POSTs',
    ],
    gate: 'the Host and Origin rules of a POST: a foreign Origin or a Host the station does not answer to gets 403 and no socket; the operator lock does not gate reading',
    limits: {
      sockets: `${LIMITS.maxSockets}; one more is closed with ${CLOSE.tryAgainLater}`,
      client_frame_bytes: `${LIMITS.maxFrameBytes}; a longer frame closes with ${CLOSE.tooBig}`,
      slow_client: `a client that stops reading keeps only the newest event per topic waiting (at most ${LIMITS.packetQueue} packets); it is closed with ${CLOSE.policy} once more than ${LIMITS.slowBufferBytes / 1024} KiB stayed buffered for ${LIMITS.slowBufferMs / 1000} s, and at the latest ${LIMITS.stalledMs / 1000} s after it stopped reading while events were waiting`,
    },
  };
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The protocol as a section of the /docs page (no <details>: the route filter leaves it alone). */
export function renderEventsDoc(doc: Record<string, unknown>): string {
  const d = doc as ReturnType<typeof eventsDoc> & { topics: Record<string, string>; limits: Record<string, string>; rules: string[] };
  const frames = (list: unknown[]) => `<pre>${esc(list.map((f) => JSON.stringify(f)).join('\n'))}</pre>`;
  const rows = Object.entries(d.topics).map(([t, what]) => `<tr><td><code>${esc(t)}</code></td><td>${esc(what)}</td></tr>`).join('');
  const limits = Object.entries(d.limits).map(([k, v]) => `<li><b>${esc(k.replace(/_/g, ' '))}</b>: ${esc(v)}</li>`).join('');
  return `<div class="events-doc" id="events"><h2>Live events (WebSocket <code>${esc(String(d.path))}</code>)</h2>
<p>${esc(String(d.summary))} The same description is in the OpenAPI document under <code>x-events</code>.</p>
<h4>Topics</h4><table><thead><tr><th>topic</th><th>data</th></tr></thead><tbody>${rows}</tbody></table>
<h4>Client frames</h4>${frames(d.client_frames as unknown[])}<h4>Server frames</h4>${frames(d.server_frames as unknown[])}
<h4>Rules</h4><ul>${d.rules.map((r) => `<li>${esc(r)}</li>`).join('')}</ul>
<h4>Gate</h4><p>${esc(String(d.gate))}</p><h4>Limits</h4><ul>${limits}</ul></div>`;
}
