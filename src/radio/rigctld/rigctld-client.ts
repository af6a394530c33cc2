import type { ByteConnection } from '../../links/byte-connection.js';
import { LineReader, asciiBytes } from '../../links/line-reader.js';
import { openTcpConnection, type TcpConnect } from '../../links/tcp-driver.js';
import type { HamlibMode, HamlibVfo } from '../../ham/hamlib/vocab.js';
import type { Clock, Timer } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { Listeners } from '../../util/listeners.js';
import { logger } from '../../util/logger.js';
import { QueueFullError } from '../../util/queue.js';
import { RigctldClosed, RigctldGarbled, RigctldRejected, RigctldTimeout } from './rigctld-errors.js';
import { CURRENT, QUIT_LINE, encode, subVfo, type Dialect, type HamlibFunc, type ModeReply, type ReplyReader, type RigDump, type RigctldRequest, type SplitReply } from './rigctld-line.js';

// A client of Hamlib's rigctld, as gpredict and Hamlib's own NET rig backend are: the station
// speaks rigctld's line protocol over one TCP connection and Hamlib drives the radio.
//
// One request in flight at a time, and a queue behind it where the latest value wins: a request
// whose key (command and VFO) matches one still waiting replaces that one in its place, and both
// callers settle with the reply to the line actually sent. Behind a slow CAT link (~300 ms a
// command on an FT-847) a Doppler tick's F then never piles up behind older F's: what reaches the
// radio is the newest frequency, once. PTT off goes ahead of everything waiting.
//
// A reply that does not come within the reply timeout, or a line that fits no reply, means the
// stream is out of step (a late reply would answer the next command), so the connection is closed
// with that error; reconnecting is the caller's (util/reconnect.ts), and every connection starts
// with hello(): \chk_vfo, \dump_state, then "S 1 <sub VFO>" before anything else touches the rig,
// because a fresh rigctld applies I to VFO A until split was set in that session.

const log = logger('radio:rigctld');

export interface RigctldOptions {
  clock: Clock;
  /** Wait for one whole reply (rigctld answers RPRT -5 itself after the rig's timeout and retries: keep this above it). */
  replyMs: number;
  /** Requests waiting behind the one in flight; coalescing keeps a tracking loop far below it. */
  maxWaiting?: number;
  /** The VFO split transmits on, when the caller knows better than the dump (subVfo). */
  txVfo?: HamlibVfo;
}

export interface RigctldInfo {
  /** \chk_vfo: the daemon runs with --vfo and every command that takes a VFO sends one. */
  vfoArg: boolean;
  dump: RigDump;
  /** The VFO "S 1 <vfo>" named on open. */
  txVfo: HamlibVfo;
  /** Hamlib's refusal of that S (a rig without split), or null when split is on. */
  splitRefused: RigctldRejected | null;
}

/** A catch that turns Hamlib's refusal into a value and passes every other error on. */
function refusedAs<T>(value: T | ((e: RigctldRejected) => T)): (err: unknown) => T {
  return (err) => {
    if (!(err instanceof RigctldRejected)) throw err;
    return typeof value === 'function' ? (value as (e: RigctldRejected) => T)(err) : value;
  };
}

export interface RigctldStats {
  /** Lines written to the daemon. */
  sent: number;
  /** Requests that replaced a waiting one of the same key instead of queueing (latest value wins). */
  replaced: number;
}

interface Waiter<T> {
  resolve: (v: T) => void;
  reject: (e: Error) => void;
}

interface Queued<T> {
  req: RigctldRequest<T>;
  waiters: Waiter<T>[];
}

interface InFlight<T> extends Queued<T> {
  reader: ReplyReader<T>;
  timer: Timer;
}

export class RigctldClient {
  readonly stats: RigctldStats = { sent: 0, replaced: 0 };
  private readonly reader = new LineReader((line) => this.onLine(line), 8192);
  private readonly closeFns = new Listeners<Error | null>(log, 'rigctld close');
  private queue: Queued<unknown>[] = [];
  private inFlight: InFlight<unknown> | null = null;
  private closedWith: RigctldClosed | null = null;
  /** undefined while open; then what ended it (null: our close()). */
  private closeReason: Error | null | undefined = undefined;
  private dialect: Dialect = { vfoArg: false };
  private info_: RigctldInfo | null = null;

  constructor(
    private readonly conn: ByteConnection,
    private readonly o: RigctldOptions,
  ) {
    conn.onData((chunk) => this.reader.push(chunk));
    conn.onClose((err) => this.closed(err));
  }

  /** What hello() learned; null before it finished. */
  get info(): RigctldInfo | null {
    return this.info_;
  }

  /** The opening conversation: the VFO dialect, the rig's dump, then split on with the sub VFO. */
  async hello(): Promise<RigctldInfo> {
    // A daemon that refuses \chk_vfo (SDRangel's emulation answered RPRT -4) has no --vfo mode.
    const vfoArg = await this.send(encode.chkVfo()).catch(refusedAs(false));
    this.dialect = { vfoArg };
    const dump = await this.send(encode.dumpState());
    const txVfo = this.o.txVfo ?? subVfo(dump);
    // A rig without split refuses S: the connection still serves receive, and the driver reads why.
    const splitRefused = await this.send(encode.setSplit(this.dialect, true, txVfo)).then(() => null, refusedAs<RigctldRejected>((e) => e));
    this.info_ = { vfoArg, dump, txVfo, splitRefused };
    return this.info_;
  }

  setFreq(hz: number, vfo: HamlibVfo = CURRENT): Promise<void> {
    return this.set(() => encode.setFreq(this.dialect, hz, vfo));
  }
  freq(vfo: HamlibVfo = CURRENT): Promise<number> {
    return this.request(() => encode.getFreq(this.dialect, vfo));
  }
  setSplitFreq(hz: number): Promise<void> {
    return this.set(() => encode.setSplitFreq(this.dialect, hz));
  }
  splitFreq(): Promise<number> {
    return this.request(() => encode.getSplitFreq(this.dialect));
  }
  setMode(mode: HamlibMode, passbandHz = 0, vfo: HamlibVfo = CURRENT): Promise<void> {
    return this.set(() => encode.setMode(this.dialect, mode, passbandHz, vfo));
  }
  mode(vfo: HamlibVfo = CURRENT): Promise<ModeReply> {
    return this.request(() => encode.getMode(this.dialect, vfo));
  }
  /** X: the transmit VFO's mode (passband 0: the rig's normal width for it). */
  setSplitMode(mode: HamlibMode, passbandHz = 0): Promise<void> {
    return this.set(() => encode.setSplitMode(this.dialect, mode, passbandHz));
  }
  splitMode(): Promise<ModeReply> {
    return this.request(() => encode.getSplitMode(this.dialect));
  }
  /** C: the CTCSS tone, tenths of Hz. */
  setCtcssTone(tenths: number, vfo: HamlibVfo = CURRENT): Promise<void> {
    return this.set(() => encode.setCtcssTone(this.dialect, tenths, vfo));
  }
  /** U: a function (TONE, TSQL) on or off. */
  setFunc(func: HamlibFunc, on: boolean, vfo: HamlibVfo = CURRENT): Promise<void> {
    return this.set(() => encode.setFunc(this.dialect, func, on, vfo));
  }
  /** Split on or off; on transmits on txVfo, by default the one hello() chose. */
  setSplit(on: boolean, txVfo?: HamlibVfo): Promise<void> {
    return this.set(() => encode.setSplit(this.dialect, on, txVfo ?? this.info_?.txVfo ?? 'VFOB'));
  }
  split(): Promise<SplitReply> {
    return this.request(() => encode.getSplit(this.dialect));
  }
  setVfo(vfo: HamlibVfo): Promise<void> {
    return this.set(() => encode.setVfo(this.dialect, vfo));
  }
  /** PTT; off goes ahead of every waiting request (an unkey never waits behind Doppler). */
  setPtt(on: boolean): Promise<void> {
    return this.set(() => encode.setPtt(this.dialect, on), !on);
  }
  ptt(): Promise<boolean> {
    return this.request(() => encode.getPtt(this.dialect));
  }

  /** Says q when it can, then closes; what waits fails with RigctldClosed. */
  async close(): Promise<void> {
    if (this.closedWith === null && this.inFlight === null) await this.conn.write(asciiBytes(QUIT_LINE)).catch(() => {});
    await this.conn.close().catch(() => {});
    this.closed(null);
  }

  /** Once, when the connection ends: err set when it went away by itself or fell out of step, null on close(). */
  onClose(fn: (err: Error | null) => void): () => void {
    if (this.closeReason !== undefined) {
      fn(this.closeReason);
      return () => {};
    }
    return this.closeFns.add(fn);
  }

  private async set(make: () => RigctldRequest<true>, first = false): Promise<void> {
    await this.request(make, first);
  }

  // async: an argument no line can carry (NaN Hz, an unknown mode) is a rejection, never a throw.
  private async request<T>(make: () => RigctldRequest<T>, first = false): Promise<T> {
    return this.send(make(), first);
  }

  private send<T>(req: RigctldRequest<T>, first = false): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return new Promise<T>((resolve, reject) => {
      const waiter = { resolve, reject } as Waiter<unknown>;
      const i = this.queue.findIndex((q) => q.req.key === req.key);
      if (i >= 0) {
        const same = this.queue[i];
        same.req = req as RigctldRequest<unknown>;
        same.waiters.push(waiter);
        this.stats.replaced++;
        if (first && i > 0) this.queue.unshift(...this.queue.splice(i, 1));
      } else {
        if (this.queue.length >= (this.o.maxWaiting ?? 16) && !first) return reject(new QueueFullError(this.o.maxWaiting ?? 16));
        const item: Queued<unknown> = { req: req as RigctldRequest<unknown>, waiters: [waiter] };
        if (first) this.queue.unshift(item);
        else this.queue.push(item);
      }
      this.pump();
    });
  }

  private pump(): void {
    if (this.inFlight || this.closedWith || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    const timer = this.o.clock.setTimeout(() => this.outOfStep(new RigctldTimeout(next.req.cmd, this.o.replyMs)), this.o.replyMs);
    this.inFlight = { ...next, reader: next.req.reader(), timer };
    this.reader.reset(); // a partial line left by an earlier reply answers nothing
    this.stats.sent++;
    // A write that fails means the connection is going: its close event settles everything.
    this.conn.write(asciiBytes(next.req.line)).catch((err: Error) => this.outOfStep(err));
  }

  private onLine(line: string): void {
    const f = this.inFlight;
    if (!f) return; // nobody asked: a late line; the next request's reset drops the rest
    let step;
    try {
      step = f.reader.feed(line);
    } catch (err) {
      step = { kind: 'garbled' as const, detail: errorMessage(err) };
    }
    switch (step.kind) {
      case 'more':
        return;
      case 'done':
        this.settle(f, (w) => w.resolve(step.value));
        return;
      case 'error':
        this.settle(f, (w) => w.reject(new RigctldRejected(f.req.cmd, step.code)));
        return;
      case 'garbled':
        this.outOfStep(new RigctldGarbled(f.req.cmd, step.detail));
        return;
    }
  }

  private settle(f: InFlight<unknown>, how: (w: Waiter<unknown>) => void): void {
    f.timer.cancel();
    this.inFlight = null;
    for (const w of f.waiters) how(w);
    this.pump();
  }

  /** The stream can no longer be trusted: the request in flight fails with why, the connection closes with it. */
  private outOfStep(err: Error): void {
    const f = this.inFlight;
    this.inFlight = null;
    f?.timer.cancel();
    for (const w of f?.waiters ?? []) w.reject(err);
    this.closed(err);
    void this.conn.close().catch(() => {});
  }

  private closed(err: Error | null): void {
    if (this.closeReason !== undefined) return;
    this.closeReason = err;
    this.closedWith = new RigctldClosed(err ? `rigctld connection lost: ${err.message}` : 'rigctld connection closed');
    const waiting = [...(this.inFlight ? [this.inFlight] : []), ...this.queue];
    this.inFlight?.timer.cancel();
    this.inFlight = null;
    this.queue = [];
    for (const q of waiting) for (const w of q.waiters) w.reject(this.closedWith);
    this.closeFns.emitOnce(err);
  }
}

/** Connects to rigctld and runs hello(); a connection whose hello fails is closed again. */
export async function connectRigctld(o: RigctldOptions & { host: string; port: number; connectMs: number; connect?: TcpConnect }): Promise<RigctldClient> {
  const conn = await openTcpConnection({ host: o.host, port: o.port, timeoutMs: o.connectMs, clock: o.clock, connect: o.connect });
  const client = new RigctldClient(conn, o);
  try {
    await client.hello();
    return client;
  } catch (err) {
    await client.close();
    throw err;
  }
}
