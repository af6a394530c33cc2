import type { ByteConnection } from '../../links/byte-connection.js';
import type { Clock, Timer } from '../../util/clock.js';
import { OneAtATime } from '../../util/queue.js';
import { Listeners } from '../../util/listeners.js';
import { logger } from '../../util/logger.js';
import { RotatorClosed, RotatorGarbled, RotatorSilent } from './rotator-driver.js';

// Request/reply with a rotator controller over one byte link (a serial port, or a TCP socket
// to rotctld): one transaction at a time, replies taken in order from an inbox, each wait
// bounded by the reply timeout on the injected clock. Replies that arrive outside a transaction
// are stale (a late answer to a command that gave up) and dropped, like Hamlib's flush before
// every command. A wait that times out is "garbled" when the parser threw bytes away meanwhile,
// "silent" otherwise, so the operator sees which fault it is.

const log = logger('rotator:link');

/** An incremental parser: bytes in, messages out through the callback it was built with. */
export interface StreamParser {
  push(chunk: Uint8Array): void;
  reset(): void;
  readonly stats: { discardedBytes: number };
}

/** What a transaction can do: write bytes, and take the next reply. */
export interface Io<T> {
  write(bytes: Uint8Array): Promise<void>;
  next(what: string): Promise<T>;
}

interface Waiting<T> {
  resolve: (m: T) => void;
  reject: (e: Error) => void;
  timer: Timer;
}

export class Exchange<T> {
  private readonly parser: StreamParser;
  private readonly queue = new OneAtATime(8);
  private readonly closeFns = new Listeners<Error | null>(log, 'close');
  private inbox: T[] = [];
  private waiting: Waiting<T> | null = null;
  private inTransaction = false;
  private closedWith: Error | null = null;
  /** undefined while open; then what the connection reported (null: we closed it). */
  private closeReason: Error | null | undefined = undefined;

  constructor(
    private readonly conn: ByteConnection,
    makeParser: (emit: (m: T) => void) => StreamParser,
    private readonly clock: Clock,
    private readonly replyMs: number,
  ) {
    this.parser = makeParser((m) => this.receive(m));
    conn.onData((chunk) => this.parser.push(chunk));
    conn.onClose((err) => this.closed(err));
  }

  /** Runs fn alone on the link; a stop passes first = true to go ahead of queued polls. */
  run<R>(fn: (io: Io<T>) => Promise<R>, first = false): Promise<R> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const job = async () => {
      if (this.closedWith) throw this.closedWith;
      this.inTransaction = true;
      this.inbox = [];
      this.parser.reset();
      try {
        return await fn({ write: (b) => this.write(b), next: (what) => this.next(what) });
      } finally {
        this.inTransaction = false;
        this.inbox = [];
      }
    };
    return first ? this.queue.runFirst(job) : this.queue.run(job);
  }

  onClose(fn: (err: Error | null) => void): () => void {
    if (this.closeReason !== undefined) {
      fn(this.closeReason);
      return () => {};
    }
    return this.closeFns.add(fn);
  }

  async close(): Promise<void> {
    await this.conn.close(); // the connection reports close(null), which fails what waits
    this.closed(null);
  }

  /**
   * A few bytes that cannot be written within the reply timeout mean the device is gone: a pty or
   * USB adapter pulled mid-write may leave serialport's write callback never called, so the
   * write is bounded too and its timeout closes the link (every waiter fails, onClose fires).
   */
  private async write(bytes: Uint8Array): Promise<void> {
    if (this.closedWith) throw this.closedWith;
    const written = this.conn.write(bytes);
    // The bound is armed after this turn of the loop, as the reply's is: a test clock stepped past
    // it within the same turn must not count time the write never had.
    await null;
    return new Promise<void>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.closed(new Error(`a write did not complete within ${this.replyMs} ms`));
        void this.conn.close().catch(() => {});
        reject(this.closedWith);
      }, this.replyMs);
      written.then(
        () => {
          timer.cancel();
          resolve();
        },
        (err: Error) => {
          timer.cancel();
          reject(err);
        },
      );
    });
  }

  private next(what: string): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const queued = this.inbox.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    const discardedBefore = this.parser.stats.discardedBytes;
    return new Promise<T>((resolve, reject) => {
      const timer = this.clock.setTimeout(() => {
        this.waiting = null;
        const junk = this.parser.stats.discardedBytes - discardedBefore;
        reject(junk > 0 ? new RotatorGarbled(what, `${junk} bytes that are not a reply`) : new RotatorSilent(what, this.replyMs));
      }, this.replyMs);
      this.waiting = { resolve, reject, timer };
    });
  }

  private receive(m: T): void {
    if (!this.inTransaction) return; // stale: nobody asked
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      w.timer.cancel();
      w.resolve(m);
    } else if (this.inbox.length < 16) {
      this.inbox.push(m);
    }
  }

  private closed(err: Error | null): void {
    if (this.closedWith) return;
    this.closeReason = err;
    this.closedWith = new RotatorClosed(err ? `rotator link lost: ${err.message}` : 'rotator link closed');
    this.queue.clear(this.closedWith);
    const w = this.waiting;
    this.waiting = null;
    if (w) {
      w.timer.cancel();
      w.reject(this.closedWith);
    }
    this.closeFns.emitOnce(err);
  }
}
