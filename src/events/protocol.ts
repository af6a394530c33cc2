// The live-events protocol (issue 35) as data: its names, its limits, the client frames it reads
// and the server frames it writes. Pure: no socket, no clock; the hub (hub.ts) applies it and the
// HTTP layer (src/http/events-socket.ts) only carries the frames.

/** The socket's path: GET with `Upgrade: websocket`. */
export const EVENTS_PATH = '/api/v1/events';
export const PROTOCOL_VERSION = 1;

/** Every topic, in the order the hello lists them. */
export const TOPICS = ['system', 'lite', 'live', 'radio', 'rotator', 'aprs', 'aprs.packets', 'logbook', 'passes', 'recording'] as const;
export type Topic = (typeof TOPICS)[number];
const TOPIC_SET: ReadonlySet<string> = new Set(TOPICS);
export const isTopic = (t: unknown): t is Topic => typeof t === 'string' && TOPIC_SET.has(t);

export const LIMITS = {
  /** Open sockets; one more is closed with CLOSE.tryAgainLater. */
  maxSockets: 64,
  /** A client frame over this many bytes closes the socket with CLOSE.tooBig. */
  maxFrameBytes: 4096,
  minPeriodMs: { min: 100, max: 60_000, default: 250 },
  /** A client with more than this buffered for slowBufferMs is closed with CLOSE.policy. */
  slowBufferBytes: 256 * 1024,
  slowBufferMs: 10_000,
  /** A client that took nothing for this long while events were waiting is closed with CLOSE.policy. */
  stalledMs: 30_000,
  /** aprs.packets held for a client that is not reading: the oldest go first past this. */
  packetQueue: 64,
} as const;

export const CLOSE = {
  /** Normal closure (the station is stopping). */
  goingAway: 1001,
  /** A client that does not read (slow-client rules). */
  policy: 1008,
  tooBig: 1009,
  tryAgainLater: 1013,
} as const;

export type RequestId = number | string | null;

export type ErrorCode = 'bad_request' | 'unknown_topic';

/** What one client frame asks for; `refused` carries the result error it gets instead. */
export type ClientRequest =
  | { kind: 'subscribe'; id: RequestId; topics: Topic[]; minPeriodMs: number }
  | { kind: 'unsubscribe'; id: RequestId; topics: Topic[] }
  | { kind: 'ping'; id: RequestId }
  | { kind: 'refused'; id: RequestId; code: ErrorCode; message: string };

const refused = (id: RequestId, code: ErrorCode, message: string): ClientRequest => ({ kind: 'refused', id, code, message });

const describe = (x: unknown) => (x === null ? 'null' : Array.isArray(x) ? 'an array' : typeof x);

/** Reads one text frame; never throws (bad JSON and bad shapes are `refused`, bad JSON with id null). */
export function parseClientFrame(text: string): ClientRequest {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return refused(null, 'bad_request', 'not valid JSON');
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return refused(null, 'bad_request', `a frame must be a JSON object, not ${describe(msg)}`);
  const m = msg as Record<string, unknown>;
  const rawId = m.id ?? null;
  if (rawId !== null && typeof rawId !== 'number' && typeof rawId !== 'string') return refused(null, 'bad_request', `id must be a number or a string, not ${describe(rawId)}`);
  const id: RequestId = rawId;
  if (m.type === 'ping') return { kind: 'ping', id };
  if (m.type !== 'subscribe' && m.type !== 'unsubscribe') {
    return refused(id, 'bad_request', `type must be subscribe, unsubscribe or ping${m.type === undefined ? '' : `, not ${JSON.stringify(m.type).slice(0, 40)}`}`);
  }
  const topics = m.topics;
  if (!Array.isArray(topics) || topics.length === 0 || topics.length > TOPICS.length * 2) {
    return refused(id, 'bad_request', `topics must be a non-empty array of topic names (${TOPICS.join(', ')})`);
  }
  const unknown = topics.find((t) => !isTopic(t));
  if (unknown !== undefined) {
    return typeof unknown === 'string'
      ? refused(id, 'unknown_topic', `no topic ${JSON.stringify(unknown.slice(0, 40))}; topics are ${TOPICS.join(', ')}`)
      : refused(id, 'bad_request', `a topic must be a string, not ${describe(unknown)}`);
  }
  const names = [...new Set(topics as Topic[])];
  if (m.type === 'unsubscribe') return { kind: 'unsubscribe', id, topics: names };
  const { min, max, default: dflt } = LIMITS.minPeriodMs;
  const p = m.min_period_ms ?? dflt;
  if (typeof p !== 'number' || !Number.isInteger(p) || p < min || p > max) {
    return refused(id, 'bad_request', `min_period_ms must be an integer from ${min} to ${max} (default ${dflt})`);
  }
  return { kind: 'subscribe', id, topics: names, minPeriodMs: p };
}

export function helloFrame(bootId: string, serverTime: string): string {
  return JSON.stringify({ type: 'hello', version: PROTOCOL_VERSION, boot_id: bootId, server_time: serverTime, topics: TOPICS });
}

export function resultFrame(id: RequestId, error?: { code: ErrorCode; message: string }): string {
  return JSON.stringify(error ? { id, type: 'result', ok: false, error } : { id, type: 'result', ok: true });
}

export const pongFrame = (id: RequestId): string => JSON.stringify({ id, type: 'pong' });

/** An event frame up to its data: eventFrame and EventFrameWriter write the same head. */
const eventHead = (topic: Topic, seq: number, ts: string): string => `{"type":"event","topic":"${topic}","seq":${seq},"ts":"${ts}","data":`;

/**
 * One event: the data's JSON (built once per change, shared by every client) with the per-client
 * head around it; no parse, no re-serialisation.
 */
export const eventFrame = (topic: Topic, seq: number, ts: string, data: string): string => `${eventHead(topic, seq, ts)}${data}}`;

/**
 * eventFrame's bytes, written into one scratch buffer the hub reuses: a state topic's data is
 * encoded once per change (TopicData.bytes) and only copied per client, so 64 clients of the live
 * samples (~19 KB a second each) make no per-client string, flattening or UTF-8 encoding. The view
 * returned is valid until the next call: the socket copies it when it sends (uWS does).
 */
export class EventFrameWriter {
  private buf = Buffer.allocUnsafe(32 * 1024);

  write(topic: Topic, seq: number, ts: string, data: Uint8Array): Uint8Array {
    // The head is ASCII (a topic name, digits, an ISO time): latin1 writes it byte for byte.
    const head = eventHead(topic, seq, ts);
    const size = head.length + data.length + 1;
    if (size > this.buf.length) this.buf = Buffer.allocUnsafe(Math.max(size, this.buf.length * 2));
    let n = this.buf.write(head, 0, 'latin1');
    this.buf.set(data, n);
    n += data.length;
    this.buf[n++] = 0x7d; // }
    return this.buf.subarray(0, n);
  }
}
