import { iso, type Clock } from '../util/clock.js';
import { logger, type Logger } from '../util/logger.js';
import { HubClient, type HubSocket } from './hub-client.js';
import { CLOSE, EventFrameWriter, LIMITS, TOPICS, helloFrame, parseClientFrame, pongFrame, resultFrame, type ClientRequest, type Topic } from './protocol.js';
import { TopicFeed, type StateSource, type StreamSource, type TopicSource } from './topic-feed.js';

// The push hub (issue 35): sockets subscribe to topics; each topic follows its service's own change
// notifications while anyone listens, builds its data once per change and hands the same text to
// every client, each at its own pace (min_period, leading edge, newest wins, slow-client rules in
// hub-client.ts). No I/O here: the HTTP layer adapts a WebSocket to HubSocket and calls open,
// message, drained and closed; the clock (and its timers) is injected, so tests fix "now".

export type { HubSocket, SendOutcome } from './hub-client.js';
export { HubClient } from './hub-client.js';

export interface EventHubOptions {
  clock: Clock;
  /**
   * What each client's pacing runs on (min_period, the slow-client limits); the station's clock
   * by default. Page tests that fix the station's "now" pace on real time, so a change after the
   * first event is not held until someone moves the fixed clock.
   */
  pacing?: Clock;
  /** Says which boot a client is talking to: a new one means everything must be read again. */
  bootId: string;
  sources: Record<Topic, TopicSource>;
  log?: Logger;
  /**
   * Runs fn after the current turn of the event loop (setImmediate): the notifications of one
   * operation coalesce into one build, made once the operation has finished changing its state.
   */
  defer?: (fn: () => void) => void;
}

interface Stream {
  source: StreamSource;
  stop: (() => void) | null;
}

export class EventHub {
  private readonly clients = new Set<HubClient>();
  private readonly feeds = new Map<Topic, TopicFeed>();
  private readonly streams = new Map<Topic, Stream>();
  private readonly subscribers = new Map<Topic, Set<HubClient>>();
  private readonly scheduled = new Set<Topic>();
  private readonly frames = new EventFrameWriter();
  private readonly log: Logger;
  private readonly defer: (fn: () => void) => void;
  private stopped = false;

  constructor(private readonly o: EventHubOptions) {
    this.log = o.log ?? logger('events');
    this.defer = o.defer ?? ((fn) => setImmediate(fn));
    for (const topic of TOPICS) {
      const source = o.sources[topic];
      this.subscribers.set(topic, new Set());
      if (source.kind === 'stream') this.streams.set(topic, { source, stop: null });
      else this.feeds.set(topic, this.feed(topic, source));
    }
  }

  get bootId(): string {
    return this.o.bootId;
  }

  get size(): number {
    return this.clients.size;
  }

  /** A new socket: hello, or closed with 1013 when LIMITS.maxSockets are open. Returns its client, or null. */
  open(socket: HubSocket): HubClient | null {
    if (this.clients.size >= LIMITS.maxSockets || this.stopped) {
      socket.end(CLOSE.tryAgainLater, `at most ${LIMITS.maxSockets} sockets`);
      return null;
    }
    const c = new HubClient(socket, { clock: this.o.pacing ?? this.o.clock, frames: this.frames, due: (cl, t) => void this.deliver(cl, t), gone: (cl) => this.forget(cl) });
    this.clients.add(c);
    c.first(helloFrame(this.o.bootId, iso(this.o.clock.now())));
    return c;
  }

  /** One client frame: `text` null for a binary frame, `bytes` its size. */
  message(c: HubClient, text: string | null, bytes: number): void {
    if (c.closed) return;
    if (bytes > LIMITS.maxFrameBytes) return c.close(CLOSE.tooBig, `frames are at most ${LIMITS.maxFrameBytes} bytes`);
    const req: ClientRequest = text === null ? { kind: 'refused', id: null, code: 'bad_request', message: 'frames are JSON text, not binary' } : parseClientFrame(text);
    switch (req.kind) {
      case 'ping':
        return c.reply(pongFrame(req.id));
      case 'refused':
        return c.reply(resultFrame(req.id, { code: req.code, message: req.message }));
      case 'unsubscribe':
        for (const t of req.topics) if (c.unsubscribe(t)) this.leave(t, c);
        return c.reply(resultFrame(req.id));
      case 'subscribe':
        for (const t of req.topics) {
          c.subscribe(t, req.minPeriodMs);
          this.join(t, c);
        }
        c.reply(resultFrame(req.id));
        // Each state topic's current data right after the result (a stream has none).
        for (const t of req.topics) if (this.feeds.has(t)) void this.deliver(c, t, true);
    }
  }

  drained(c: HubClient): void {
    c.drained();
  }

  /** The socket closed, whoever closed it. */
  closed(c: HubClient): void {
    c.lost();
  }

  /** The station stops: every socket closed with 1001, every topic stops following its service. */
  stop(): void {
    this.stopped = true;
    for (const c of [...this.clients]) c.close(CLOSE.goingAway, 'the station is stopping');
  }

  stats() {
    return { sockets: this.clients.size, clients: [...this.clients].map((c) => c.stats()), watching: TOPICS.filter((t) => this.subscribers.get(t)!.size > 0) };
  }

  private feed(topic: Topic, source: StateSource): TopicFeed {
    return new TopicFeed(source, {
      clock: this.o.clock,
      log: this.log,
      what: `topic ${topic}`,
      changed: () => {
        if (this.scheduled.has(topic)) return;
        this.scheduled.add(topic);
        this.defer(() => {
          this.scheduled.delete(topic);
          for (const c of this.subscribers.get(topic)!) c.changed(topic);
        });
      },
    });
  }

  private join(topic: Topic, c: HubClient): void {
    const subs = this.subscribers.get(topic)!;
    subs.add(c);
    if (subs.size > 1) return;
    this.feeds.get(topic)?.start();
    const stream = this.streams.get(topic);
    if (stream && !stream.stop) {
      stream.stop = stream.source.watch((json) => {
        for (const cl of this.subscribers.get(topic)!) cl.sendItem(topic, json);
      });
    }
  }

  private leave(topic: Topic, c: HubClient): void {
    const subs = this.subscribers.get(topic)!;
    if (!subs.delete(c) || subs.size > 0) return;
    this.feeds.get(topic)?.stop();
    const stream = this.streams.get(topic);
    stream?.stop?.();
    if (stream) stream.stop = null;
  }

  private forget(c: HubClient): void {
    if (!this.clients.delete(c)) return;
    for (const t of c.subs.keys()) this.leave(t, c);
  }

  /**
   * Sends a state topic's newest data to one client (`force`: even the version it has, as after a
   * subscribe). Always through the feed's promise, even when the data is settled: a subscription
   * replaced meanwhile (an unsubscribe and a subscribe in the same breath, as a page does when a
   * part changes its query) then gets only its own first event, not the old one's as well, which
   * a page would take for news.
   */
  private async deliver(c: HubClient, topic: Topic, force = false): Promise<void> {
    const sub = c.subs.get(topic);
    const feed = this.feeds.get(topic);
    if (!sub || !feed || c.closed) return;
    if (sub.delivering) {
      sub.again = force || sub.again === 'subscribed' ? 'subscribed' : 'changed';
      return;
    }
    sub.delivering = true;
    const snap = await feed.current();
    sub.delivering = false;
    if (c.closed || c.subs.get(topic) !== sub) return;
    if (snap && (force || snap.version > sub.sentVersion)) c.sendState(topic, snap);
    const again = sub.again;
    sub.again = null;
    if (again === 'subscribed') void this.deliver(c, topic, true);
    else if (again === 'changed') c.changed(topic);
  }
}
