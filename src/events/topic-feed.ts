import { iso, type Clock, type Timer } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/logger.js';

// One topic's shared state: it follows its service's own change notifications only while a client
// subscribes, and builds the topic's data (the body of its GET route) at most once per change, the
// text shared by every client. A build that fails keeps the last data; nothing here throws.

/**
 * What a topic's builder gives: its data as JSON text in UTF-8 (the GET route's body as it is, no
 * decode), or none yet (the pass table before its first build).
 */
export type Built = { kind: 'data'; bytes: Uint8Array } | { kind: 'none' } | { kind: 'error'; message: string };

/** A topic whose state is built from its GET route and pushed when it changes. */
export interface StateSource {
  kind: 'state';
  /** Starts following the service's change notifications; returns the stop. */
  watch(changed: () => void): () => void;
  /** The topic's current data. */
  build(): Built | Promise<Built>;
}

/** A topic that is a stream of items (aprs.packets): each one an event, none built on subscribe. */
export interface StreamSource {
  kind: 'stream';
  /** Starts following the stream; `push` gets each item's JSON; returns the stop. */
  watch(push: (json: string) => void): () => void;
}

export type TopicSource = StateSource | StreamSource;

/** The data as last built: `version` rises only when the text changed. */
export interface TopicData {
  version: number;
  /** The data's JSON in UTF-8, kept once per change: what every client's frame copies. */
  bytes: Buffer;
  ts: string;
}

/** Notifications for a topic whose state changes every `ms` on the clock (the live samples). */
export function clockTicks(clock: Clock, ms: number): StateSource['watch'] {
  return (changed) => {
    let timer: Timer | null = null;
    const arm = () => {
      const now = clock.now();
      timer = clock.setTimeout(() => {
        arm();
        changed();
      }, Math.floor(now / ms) * ms + ms - now);
    };
    arm();
    return () => timer?.cancel();
  };
}

export class TopicFeed {
  private snapshot: TopicData | null = null;
  private dirty = true;
  private building: Promise<TopicData | null> | null = null;
  private stopWatching: (() => void) | null = null;
  private version = 0;

  constructor(
    private readonly source: StateSource,
    private readonly o: { clock: Clock; log: Logger; what: string; changed: () => void },
  ) {}

  get watching(): boolean {
    return this.stopWatching !== null;
  }

  /** The first subscriber: follow the service from now on (its state is built when first asked). */
  start(): void {
    if (this.stopWatching) return;
    this.dirty = true;
    this.stopWatching = this.source.watch(() => {
      this.dirty = true;
      this.o.changed();
    });
  }

  /** The last subscriber went: stop following, forget the data. */
  stop(): void {
    this.stopWatching?.();
    this.stopWatching = null;
    this.snapshot = null;
    this.dirty = true;
  }

  /** The current data: built now when it changed since (callers meanwhile share one build). */
  current(): Promise<TopicData | null> {
    if (!this.dirty) return this.building ?? Promise.resolve(this.snapshot);
    // A change during a build under way is built after it (never answered with the older build).
    const p: Promise<TopicData | null> = (this.building ?? Promise.resolve(null)).then(() => (this.dirty ? this.build() : this.snapshot));
    this.building = p;
    void p.then(() => {
      if (this.building === p) this.building = null;
    });
    return p;
  }

  private async build(): Promise<TopicData | null> {
    this.dirty = false;
    const at = this.o.clock.now();
    let out: Built;
    try {
      out = await this.source.build();
    } catch (err) {
      out = { kind: 'error', message: errorMessage(err) };
    }
    if (out.kind === 'error') this.o.log.warn(`${this.o.what}: data not built (${out.message}); the last stays`);
    else if (out.kind === 'data' && this.stopWatching && !(this.snapshot && this.snapshot.bytes.equals(out.bytes))) {
      // A copy: a route's body may be a view of bytes its cache reuses.
      this.snapshot = { version: ++this.version, bytes: Buffer.from(out.bytes), ts: iso(at) };
    }
    return this.snapshot;
  }
}
