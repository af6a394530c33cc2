import { iso, type Clock, type Timer } from '../util/clock.js';
import { CLOSE, LIMITS, eventFrame, type EventFrameWriter, type Topic } from './protocol.js';
import type { TopicData } from './topic-feed.js';

// One socket as the hub sees it: its subscriptions (min_period throttle with a leading edge, seq
// per topic), what waits while it does not read, and the slow-client rules. What waits is bounded
// whatever the client does: a set of topic names (the newest data is read from the topic when the
// client takes more), at most LIMITS.packetQueue packets and LIMITS.replyQueue replies.

/** What a send did: written (or taken by the kernel), buffered in user space, or dropped. */
export type SendOutcome = 'sent' | 'buffered' | 'dropped';

/** The socket, as the HTTP layer adapts it. */
export interface HubSocket {
  /** A text frame: a string, or its UTF-8 bytes (valid only during the call: copied, or sent at once). */
  send(frame: string | Uint8Array): SendOutcome;
  /** Bytes buffered in user space, not yet taken by the kernel. */
  bufferedAmount(): number;
  /** Closes with a close frame (code, reason); the adapter then reports the close to the hub. */
  end(code: number, reason: string): void;
}

export interface Subscription {
  minPeriodMs: number;
  seq: number;
  /** Clock ms of the last event sent; -Infinity before the first. */
  lastSentAt: number;
  /** The topic data version sent last (0: none). */
  sentVersion: number;
  /** Armed while a change waits for the end of min_period (trailing edge). */
  timer: Timer | null;
  /** A delivery is reading the topic's data; a change or a subscribe meanwhile is noted in `again`. */
  delivering: boolean;
  again: 'changed' | 'subscribed' | null;
}

/** Replies (result, pong) held for a client that does not read; one more closes it. */
export const REPLY_QUEUE = 16;

export interface ClientHooks {
  clock: Clock;
  /** The hub's one scratch for state events (see EventFrameWriter). */
  frames: EventFrameWriter;
  /** A state topic is due for this client now (throttle passed, or it can take data again). */
  due(c: HubClient, topic: Topic): void;
  /** The client closed (by us or by the peer): drop its subscriptions. */
  gone(c: HubClient): void;
}

export class HubClient {
  readonly subs = new Map<Topic, Subscription>();
  /** State topics that changed while the client was not reading: each sends its newest data once it reads. */
  private readonly pending = new Set<Topic>();
  private packets: string[] = [];
  private replies: string[] = [];
  /** aprs.packets dropped (oldest first) while not reading: the client sees a gap in seq. */
  packetsDropped = 0;
  private blocked = false;
  private stallTimer: Timer | null = null;
  private overTimer: Timer | null = null;
  closed = false;

  constructor(
    private readonly socket: HubSocket,
    private readonly h: ClientHooks,
  ) {}

  subscribe(topic: Topic, minPeriodMs: number): Subscription {
    const had = this.subs.get(topic);
    if (had) {
      had.minPeriodMs = minPeriodMs;
      return had;
    }
    const sub: Subscription = { minPeriodMs, seq: 0, lastSentAt: -Infinity, sentVersion: 0, timer: null, delivering: false, again: null };
    this.subs.set(topic, sub);
    return sub;
  }

  unsubscribe(topic: Topic): boolean {
    const sub = this.subs.get(topic);
    if (!sub) return false;
    sub.timer?.cancel();
    this.subs.delete(topic);
    this.pending.delete(topic);
    if (topic === 'aprs.packets') this.packets = [];
    return true;
  }

  /** The topic's data changed: at once after a quiet min_period (leading edge), else at its end. */
  changed(topic: Topic): void {
    const sub = this.subs.get(topic);
    if (!sub || sub.timer || this.closed) return;
    // Not reading: the topic waits by name (its newest data goes once the client reads), no timer.
    if (this.isBlocked()) {
      this.pending.add(topic);
      return;
    }
    const wait = sub.lastSentAt + sub.minPeriodMs - this.h.clock.now();
    if (wait <= 0) return this.h.due(this, topic);
    sub.timer = this.h.clock.setTimeout(() => {
      sub.timer = null;
      if (this.subs.get(topic) === sub) this.h.due(this, topic);
    }, wait);
  }

  /** Sends a state topic's data, or holds the topic (not the data) while the client is not reading. */
  sendState(topic: Topic, snap: TopicData): void {
    const sub = this.subs.get(topic);
    if (!sub || this.closed) return;
    if (this.isBlocked()) {
      this.pending.add(topic);
      return;
    }
    this.pending.delete(topic);
    sub.seq++;
    sub.sentVersion = snap.version;
    sub.lastSentAt = this.h.clock.now();
    if (this.write(this.h.frames.write(topic, sub.seq, snap.ts, snap.bytes)) === 'dropped') {
      // Not sent after all: the newest data goes when the client reads again.
      sub.sentVersion = 0;
      this.pending.add(topic);
    }
  }

  /** One item of a stream topic: never coalesced; held (bounded, oldest dropped first) while not reading. */
  sendItem(topic: Topic, json: string): void {
    const sub = this.subs.get(topic);
    if (!sub || this.closed) return;
    const frame = eventFrame(topic, ++sub.seq, iso(this.h.clock.now()), json);
    sub.lastSentAt = this.h.clock.now();
    if (!this.isBlocked() && this.write(frame) !== 'dropped') return;
    this.packets.push(frame);
    if (this.packets.length > LIMITS.packetQueue) {
      this.packets.shift();
      this.packetsDropped++;
    }
  }

  /** A result or pong: in order with what waits; a client that keeps asking without reading is closed. */
  reply(frame: string): void {
    if (this.closed) return;
    if (!this.isBlocked() && this.write(frame) !== 'dropped') return;
    this.replies.push(frame);
    if (this.replies.length > REPLY_QUEUE) this.close(CLOSE.policy, 'not reading its replies');
  }

  /** Sent before anything else (the hello). */
  first(frame: string): void {
    this.write(frame);
  }

  /** The socket took some of its buffer: once it is empty, what waits goes out, oldest kind first. */
  drained(): void {
    if (this.closed) return;
    const buffered = this.socket.bufferedAmount();
    this.watchBuffer(buffered);
    if (buffered > 0) return;
    this.blocked = false;
    this.stallTimer?.cancel();
    this.stallTimer = null;
    this.flush(this.replies, (r) => (this.replies = r));
    this.flush(this.packets, (p) => (this.packets = p));
    for (const topic of [...this.pending]) {
      if (this.isBlocked()) return;
      this.pending.delete(topic);
      this.h.due(this, topic);
    }
  }

  close(code: number, reason: string): void {
    if (this.finish()) this.socket.end(code, reason);
  }

  /** The peer closed (or the connection dropped). */
  lost(): void {
    this.finish();
  }

  /** Stops every timer and forgets what waits; false when already closed. */
  private finish(): boolean {
    if (this.closed) return false;
    this.closed = true;
    this.stallTimer?.cancel();
    this.overTimer?.cancel();
    for (const sub of this.subs.values()) sub.timer?.cancel();
    this.pending.clear();
    this.packets = [];
    this.replies = [];
    this.h.gone(this);
    return true;
  }

  /** For tests and the bench: what waits for this client. */
  stats() {
    return {
      topics: [...this.subs.keys()],
      blocked: this.isBlocked(),
      buffered: this.closed ? 0 : this.socket.bufferedAmount(),
      pendingTopics: [...this.pending],
      packetsQueued: this.packets.length,
      packetsDropped: this.packetsDropped,
      repliesQueued: this.replies.length,
    };
  }

  private flush(queue: string[], keep: (rest: string[]) => void): void {
    let i = 0;
    while (i < queue.length && !this.isBlocked()) {
      if (this.write(queue[i]) === 'dropped') break;
      i++;
    }
    keep(queue.slice(i));
  }

  private isBlocked(): boolean {
    if (!this.blocked && this.socket.bufferedAmount() > 0) this.block();
    return this.blocked;
  }

  private write(frame: string | Uint8Array): SendOutcome {
    const out = this.socket.send(frame);
    const buffered = this.socket.bufferedAmount();
    if (out !== 'sent' || buffered > 0) this.block();
    this.watchBuffer(buffered);
    return out;
  }

  /** The client stopped taking what is sent: closed if it has not taken it all within LIMITS.stalledMs. */
  private block(): void {
    if (this.blocked) return;
    this.blocked = true;
    this.stallTimer = this.h.clock.setTimeout(() => this.close(CLOSE.policy, `not reading: nothing taken for ${LIMITS.stalledMs / 1000} s`), LIMITS.stalledMs);
  }

  /** More than LIMITS.slowBufferBytes buffered for LIMITS.slowBufferMs closes the client. */
  private watchBuffer(buffered: number): void {
    if (buffered <= LIMITS.slowBufferBytes) {
      this.overTimer?.cancel();
      this.overTimer = null;
      return;
    }
    this.overTimer ??= this.h.clock.setTimeout(() => {
      this.overTimer = null;
      if (!this.closed && this.socket.bufferedAmount() > LIMITS.slowBufferBytes) {
        this.close(CLOSE.policy, `not reading: over ${LIMITS.slowBufferBytes / 1024} KiB buffered for ${LIMITS.slowBufferMs / 1000} s`);
      }
    }, LIMITS.slowBufferMs);
  }
}
