import { EVENTS_PATH, type Topic } from '../../src/events/protocol';

// The page's one live-events socket (issue 35): every part of the page that follows a topic shares
// it. It opens when the first part subscribes, says whether it is open (the parts stop polling
// while it is), hands each event to the parts that follow its topic, and after a failure tries
// again with backoff (1 s doubling to 30 s, jittered so a restarted station is not met by every
// screen at once). A hello with another boot id than the last one means the station restarted:
// the parts read everything again. A socket that falls silent (a proxy holding it half-open) is
// closed after SILENT_MS, so the page polls instead of showing frozen data.

export type { Topic };
/**
 * `state`: the event is the first of a fresh subscription (seq 1 of a state topic): the topic's
 * state as the station had it when the subscribe arrived, not news of a change. A page that drops
 * a topic and takes it again (a part changing its query) may also get the old subscription's first
 * event, sent before the station read the unsubscribe: both are state.
 */
export type LiveHandler = (data: unknown, state: boolean) => void;

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;
/** A ping this often: the socket's own proof of life while the station has nothing to say. */
const PING_MS = 15_000;
/** Nothing heard for this long (two pings unanswered and more): the socket is given up. */
const SILENT_MS = 40_000;

/** The hub's default period: a burst of changes costs one event per topic per 250 ms. */
export const MIN_PERIOD_MS = 250;

interface ServerFrame {
  type?: string;
  topic?: Topic;
  seq?: number;
  data?: unknown;
  boot_id?: string;
}

export class LiveSocket {
  private ws: WebSocket | null = null;
  private readonly handlers = new Map<Topic, Set<LiveHandler>>();
  /** The newest data of each state topic followed, for a part that subscribes after its first event. */
  private readonly latest = new Map<Topic, unknown>();
  /** Each followed topic's period: the shortest any part asked for. */
  private readonly periods = new Map<Topic, number>();
  private readonly openFns = new Set<(open: boolean) => void>();
  private readonly bootFns = new Set<() => void>();
  private bootId: string | null = null;
  private retryMs = RETRY_FIRST_MS;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private nextId = 1;
  /** Open: the hello came and the subscriptions went out. */
  isOpen = false;
  /** Epoch ms of the last frame heard: while open, what the page shows is current as of then. */
  heardAt = 0;
  /** Epoch ms the socket last opened (its hello). */
  openedAt = 0;

  constructor(private readonly url: string) {}

  /**
   * Follows a topic, at most one event per `periodMs` (the shortest any part asks for wins); the
   * handler gets its newest data now (if any) and every event. Returns the unsubscribe.
   */
  subscribe(topic: Topic, fn: LiveHandler, periodMs = MIN_PERIOD_MS): () => void {
    let set = this.handlers.get(topic);
    const period = this.periods.get(topic);
    if (!set || period === undefined || periodMs < period) {
      if (!set) this.handlers.set(topic, (set = new Set()));
      this.periods.set(topic, periodMs);
      // A new topic, or a shorter period (the hub sends its current data again).
      if (this.isOpen) this.send({ type: 'subscribe', topics: [topic], min_period_ms: periodMs });
    } else if (this.latest.has(topic)) fn(this.latest.get(topic), true);
    set.add(fn);
    this.ensure();
    return () => {
      set.delete(fn);
      if (set.size > 0 || this.handlers.get(topic) !== set) return;
      this.handlers.delete(topic);
      this.latest.delete(topic);
      this.periods.delete(topic);
      if (this.isOpen) this.send({ type: 'unsubscribe', topics: [topic] });
    };
  }

  /** Told each time the socket opens (true) or fails (false). Returns the unsubscribe. */
  onOpen(fn: (open: boolean) => void): () => void {
    this.openFns.add(fn);
    return () => this.openFns.delete(fn);
  }

  /** Told when the station restarted (a new boot id): read everything again. Returns the unsubscribe. */
  onBoot(fn: () => void): () => void {
    this.bootFns.add(fn);
    return () => this.bootFns.delete(fn);
  }

  private ensure(): void {
    if (!this.ws && this.retryTimer === undefined) this.connect();
  }

  private connect(): void {
    let ws: WebSocket;
    try {
      ws = new WebSocket(this.url);
    } catch {
      return this.retry();
    }
    this.ws = ws;
    ws.onmessage = (m) => this.frame(ws, m.data);
    ws.onclose = () => this.closed(ws);
  }

  private frame(ws: WebSocket, text: unknown): void {
    if (this.ws !== ws || typeof text !== 'string') return;
    this.heardAt = Date.now();
    let f: ServerFrame;
    try {
      f = JSON.parse(text) as ServerFrame;
    } catch {
      return;
    }
    if (f.type === 'event' && f.topic) {
      const stream = f.topic === 'aprs.packets';
      if (!stream) this.latest.set(f.topic, f.data);
      const state = !stream && f.seq === 1;
      for (const fn of this.handlers.get(f.topic) ?? []) fn(f.data, state);
    } else if (f.type === 'hello') this.hello(ws, f.boot_id ?? '');
  }

  private hello(ws: WebSocket, bootId: string): void {
    const restarted = this.bootId !== null && bootId !== this.bootId;
    this.bootId = bootId;
    this.retryMs = RETRY_FIRST_MS;
    this.openedAt = Date.now();
    // One subscribe per period asked for.
    const byPeriod = new Map<number, Topic[]>();
    for (const [topic, p] of this.periods) byPeriod.set(p, [...(byPeriod.get(p) ?? []), topic]);
    for (const [p, topics] of byPeriod) this.send({ type: 'subscribe', topics, min_period_ms: p });
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.heardAt > SILENT_MS) ws.close();
      else this.send({ type: 'ping' });
    }, PING_MS);
    this.setOpen(true);
    if (restarted) for (const fn of this.bootFns) fn();
  }

  private closed(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.ws = null;
    clearInterval(this.pingTimer);
    this.latest.clear();
    if (this.isOpen) this.setOpen(false);
    this.retry();
  }

  private retry(): void {
    clearTimeout(this.retryTimer);
    const wait = this.retryMs * (0.75 + Math.random() * 0.5);
    this.retryMs = Math.min(this.retryMs * 2, RETRY_MAX_MS);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (this.handlers.size > 0) this.connect();
    }, wait);
  }

  private setOpen(open: boolean): void {
    this.isOpen = open;
    document.documentElement.dataset.socket = open ? 'open' : 'polling';
    for (const fn of this.openFns) fn(open);
  }

  private send(frame: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ id: this.nextId++, ...frame }));
  }
}

let page: LiveSocket | null = null;

/** The page's one socket (made on first use, opened by the first subscription). */
export function liveSocket(): LiveSocket {
  page ??= new LiveSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${EVENTS_PATH}`);
  return page;
}
