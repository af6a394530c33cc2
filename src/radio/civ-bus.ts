import { CIV, formatFrame, writeFrame, type CivFrame } from './civ/frame.js';
import { CivParser } from './civ/parser.js';
import { isTransceive, matchReply, type CivRequest } from './civ/commands.js';
import type { SerialConnection } from '../links/serial-driver.js';
import { TimeoutError, Waitress } from '../util/waitress.js';
import { systemClock, type Clock } from '../util/clock.js';
import { OneAtATime } from '../util/queue.js';
import { logger } from '../util/logger.js';
import { Listeners } from '../util/listeners.js';

// CI-V request/reply over one serial connection: one command in flight, its reply matched by
// command and sub-command (our own echo and the rig's transceive broadcasts are not replies),
// a timeout per command, a bounded retry for reads and after a bus collision.

const log = logger('radio:civ');

/** Every CI-V timing in one place. */
export interface CivTimeouts {
  /** Wait for a reply (or OK/NG) to one command. */
  reply_ms: number;
  /** Extra attempts for a read that timed out (reads are idempotent; writes are not retried blind). */
  read_retries: number;
  /** Extra attempts for any command whose frame a bus collision (FC) destroyed. */
  jam_retries: number;
}

export const CIV_TIMEOUTS: CivTimeouts = { reply_ms: 500, read_retries: 1, jam_retries: 2 };

export class RigRejected extends Error {
  constructor(readonly what: string) {
    super(`rig answered NG to ${what}`);
    this.name = 'RigRejected';
  }
}

export class BusClosed extends Error {
  constructor(why: string) {
    super(why);
    this.name = 'BusClosed';
  }
}

class Jammed extends Error {}

type Incoming = { frame: CivFrame } | { jam: true };

export interface CivBusOptions {
  rigAddr: number;
  ctlAddr?: number;
  timeouts?: CivTimeouts;
  /**
   * The clock reply timeouts run on (a test clock runs a silent rig's timeouts out in no real
   * time). A rig answers in real time, so its owners pass a real-time clock (the LAN hub's); the
   * system clock where none is given.
   */
  clock?: Clock;
}

export class CivBus {
  private readonly parser: CivParser;
  private readonly waitress: Waitress<Incoming>;
  private readonly queue = new OneAtATime(16);
  private readonly out = new Uint8Array(64); // one frame at a time, reused
  private readonly broadcastFns = new Listeners<CivFrame>(log, 'broadcast');
  private closedWith: Error | null = null;
  readonly rigAddr: number;
  readonly ctlAddr: number;
  readonly timeouts: CivTimeouts;
  /** Commands sent, replies matched, timeouts, NGs: for status and tests. */
  readonly stats = { sent: 0, replies: 0, timeouts: 0, ng: 0, jams: 0 };

  constructor(
    private readonly conn: SerialConnection,
    o: CivBusOptions,
  ) {
    this.rigAddr = o.rigAddr;
    this.ctlAddr = o.ctlAddr ?? CIV.CONTROLLER;
    this.timeouts = o.timeouts ?? CIV_TIMEOUTS;
    this.waitress = new Waitress<Incoming>(o.clock ?? systemClock);
    this.parser = new CivParser((f) => this.onFrame(f), {
      onJam: () => {
        this.stats.jams++;
        this.waitress.offer({ jam: true });
      },
    });
    conn.onData((chunk) => this.parser.push(chunk));
  }

  /** Transceive broadcasts (the operator turned a knob); a listener that throws is logged. */
  onBroadcast(fn: (f: CivFrame) => void): () => void {
    // A LAN session's bus outlives one owner's connection: each owner takes its listener away.
    return this.broadcastFns.add(fn);
  }

  /** Sends one command and resolves with its reply (a read) or the OK frame (a set). */
  request(req: CivRequest): Promise<CivFrame> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.queue.run(() => this.exchange(req));
  }

  /** Sends req ahead of every queued command (PTT off on an emergency stop). */
  urgent(req: CivRequest): Promise<CivFrame> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.queue.runFirst(() => this.exchange(req));
  }

  /** The link went away: fail what waits, refuse what comes. */
  close(why: Error): void {
    if (this.closedWith) return;
    this.closedWith = why instanceof BusClosed ? why : new BusClosed(why.message);
    this.queue.clear(this.closedWith);
    this.waitress.rejectAll(this.closedWith);
  }

  private async exchange(req: CivRequest): Promise<CivFrame> {
    let timeouts = req.kind === 'read' ? this.timeouts.read_retries : 0;
    let jams = this.timeouts.jam_retries;
    for (;;) {
      if (this.closedWith) throw this.closedWith;
      try {
        return await this.once(req);
      } catch (err) {
        if (err instanceof Jammed && jams-- > 0) continue;
        if (err instanceof TimeoutError && timeouts-- > 0) continue;
        if (err instanceof Jammed) throw new Error(`${req.name}: CI-V bus collision, gave up`);
        throw err;
      }
    }
  }

  private async once(req: CivRequest): Promise<CivFrame> {
    const end = writeFrame(this.out, 0, this.rigAddr, this.ctlAddr, req.cmd, req.data);
    const bytes = this.out.slice(0, end);
    const answer = this.waitress.wait(
      (m) => 'jam' in m || matchReply(req, m.frame, this.rigAddr, this.ctlAddr) !== null,
      this.timeouts.reply_ms,
      req.name,
    );
    // Handled at once: the bus may close (rejecting this) while the write is still pending.
    answer.catch(() => {});
    this.stats.sent++;
    if (log.enabled('debug')) log.debug(`> ${req.name} ${formatFrame(bytes)}`);
    await this.conn.write(bytes); // a failed write is the error we report
    let m: Incoming;
    try {
      m = await answer;
    } catch (err) {
      if (err instanceof TimeoutError) this.stats.timeouts++;
      throw err;
    }
    if ('jam' in m) throw new Jammed();
    const kind = matchReply(req, m.frame, this.rigAddr, this.ctlAddr);
    if (kind === 'ng') {
      this.stats.ng++;
      throw new RigRejected(req.name);
    }
    this.stats.replies++;
    return m.frame;
  }

  private onFrame(f: CivFrame): void {
    if (log.enabled('debug')) log.debug(`< ${formatFrame(f)}`);
    if (f.from === this.ctlAddr) return; // our own frame read back (USB echo on)
    if (isTransceive(f) && f.from === this.rigAddr) {
      this.broadcastFns.emit(f);
      return;
    }
    this.waitress.offer({ frame: f });
  }
}
