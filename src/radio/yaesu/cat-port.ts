import type { ByteConnection } from '../../links/byte-connection.js';
import { systemClock, type Clock, type Timer } from '../../util/clock.js';
import { OneAtATime } from '../../util/queue.js';
import { TimeoutError } from '../../util/waitress.js';
import { logger } from '../../util/logger.js';
import { BusClosed } from '../civ-bus.js';
import { ACK, CAT_LEN, OP, answersAck, replyLength } from './commands.js';
import { stallAwareTimeout } from '../../util/stall-aware-timeout.js';

// Yaesu's 5-byte CAT over one byte link (a serial device at 8N2): one command in flight, its
// reply the number of bytes the opcode calls for, a timeout per command, and an urgent lane for
// PTT off that goes ahead of everything waiting. The radio has no framing: it counts bytes in
// fives, so a lost or extra byte shifts every later command, and a shifted frequency write can
// read as any opcode, PTT on (08) among them. After a timeout, a reply that is no ACK, or bytes
// nobody asked for, the next command therefore waits for the line to go quiet and puts the count
// back in step first, with nothing but F7 bytes, so that whatever the radio completes meanwhile
// is a harmless TX-status read (resync()). Replies land in the caller's buffer; the port's own
// buffers are allocated once.

const log = logger('radio:yaesu');

/** Every CAT timing in one place. */
export interface CatTimeouts {
  /** The whole exchange of one command: its 5 bytes out and its reply in. */
  reply_ms: number;
  /** Extra attempts for a read that timed out while the radio still answers (reads change nothing; writes are never retried blind). */
  read_retries: number;
  /** Putting the count back in step: the quiet wait for late bytes, and the wait for an answer to each single byte. */
  resync_ms: number;
}

/**
 * At 9600 baud a command and its longest reply take 11.5 ms on the wire; a USB serial adapter
 * holds a short reply up to 16 ms (FTDI's latency timer) and the radio answers within tens of ms.
 * The reply timeout is the CI-V bus's: a silent radio is rare, a busy Pi Zero is not, and a write
 * that times out is not retried.
 */
export const CAT_TIMEOUTS: CatTimeouts = { reply_ms: 500, read_retries: 1, resync_ms: 100 };


/** What the operator reads in a timeout: the opcode and what it does. */
const OP_NAMES: Readonly<Record<number, string>> = Object.freeze({
  [OP.LOCK_ON]: 'lock on (00)',
  [OP.SET_FREQ]: 'set frequency (01)',
  [OP.SPLIT_ON]: 'split on (02)',
  [OP.READ_FREQ_MODE]: 'read frequency and mode (03)',
  [OP.SET_MODE]: 'set mode (07)',
  [OP.PTT_ON]: 'PTT on (08)',
  [OP.TONE_MODE]: 'set tone mode (0A)',
  [OP.CTCSS_TONE]: 'set CTCSS tone (0B)',
  [OP.LOCK_OFF]: 'lock off (80)',
  [OP.TOGGLE_VFO]: 'toggle VFO (81)',
  [OP.SPLIT_OFF]: 'split off (82)',
  [OP.PTT_OFF]: 'PTT off (88)',
  [OP.READ_EEPROM]: 'read EEPROM (BB)',
  [OP.READ_RX_STATUS]: 'read RX status (E7)',
  [OP.READ_TX_STATUS]: 'read TX status (F7)',
});
export const opName = (op: number): string => OP_NAMES[op] ?? `opcode ${op.toString(16).toUpperCase().padStart(2, '0')}`;

const hex = (b: ArrayLike<number>, n = b.length) => Array.from({ length: n }, (_, i) => b[i].toString(16).toUpperCase().padStart(2, '0')).join(' ');

export interface CatPortOptions {
  /** The radio as messages name it ("FT-817"). */
  name: string;
  /**
   * The clock reply timeouts run on. The radio answers in real time, so the line opener leaves the
   * system clock; a test of the port itself may pass a test clock.
   */
  clock?: Clock;
  timeouts?: CatTimeouts;
}

export class CatPort {
  private readonly queue = new OneAtATime(16);
  private readonly clock: Clock;
  private readonly t: CatTimeouts;
  private readonly name: string;
  /** The reply being collected (the longest is 5 bytes). */
  private readonly inbox = new Uint8Array(8);
  private readonly single = Uint8Array.of(OP.READ_TX_STATUS);
  private readonly four = Uint8Array.of(OP.READ_TX_STATUS, OP.READ_TX_STATUS, OP.READ_TX_STATUS, OP.READ_TX_STATUS);
  private want = 0;
  private got = 0;
  /** Someone waits for bytes; bytes arriving otherwise are dropped. */
  private listening = false;
  private done: ((full: boolean) => void) | null = null;
  private failed: ((err: Error) => void) | null = null;
  private timer: Timer | null = null;
  private outOfStep = false;
  /** Bytes a timed-out reply still owed, and stats.dropped then; -1: out of step for another reason. */
  private owed = -1;
  private droppedAtTimeout = 0;
  private closedWith: Error | null = null;
  /** Time is up (a late timer, our own stall, has already waited again: stall-aware-timeout.ts). */
  private readonly onTimeout = () => this.finish(false);
  /** Commands sent, replies taken, timeouts, bytes dropped, resynchronisations: for status, tests and the bench. */
  readonly stats = { sent: 0, replies: 0, timeouts: 0, dropped: 0, resyncs: 0, bytesOut: 0, bytesIn: 0 };

  constructor(
    private readonly conn: ByteConnection,
    o: CatPortOptions,
  ) {
    this.name = o.name;
    this.clock = o.clock ?? systemClock;
    this.t = o.timeouts ?? CAT_TIMEOUTS;
    conn.onData((chunk) => this.onData(chunk));
  }

  /**
   * Sends the 5 bytes of cmd and copies the reply (replyLength bytes) to reply[0..]. Both buffers
   * are the port's until the promise settles. An ACK other than 00 or F0 rejects (the stream is out
   * of step); F0 itself is an answer for the caller to judge.
   */
  request(cmd: Uint8Array, reply: Uint8Array): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.queue.run(() => this.exchange(cmd, reply));
  }

  /** The same, ahead of every waiting command (PTT off on an emergency stop); the one in flight finishes first. */
  urgent(cmd: Uint8Array, reply: Uint8Array): Promise<void> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    return this.queue.runFirst(() => this.exchange(cmd, reply));
  }

  /** The caller found a reply that makes no sense (a frequency that is not BCD): resynchronise before the next command. */
  lostStep(): void {
    this.outOfStep = true;
    this.owed = -1;
  }

  /** The link went away: fail what waits, refuse what comes. */
  close(why: Error): void {
    if (this.closedWith) return;
    this.closedWith = why instanceof BusClosed ? why : new BusClosed(why.message);
    this.queue.clear(this.closedWith);
    this.finish(false, this.closedWith);
  }

  private async exchange(cmd: Uint8Array, reply: Uint8Array): Promise<void> {
    let retries = answersAck(cmd[CAT_LEN - 1]) ? 0 : this.t.read_retries;
    let timedOut: TimeoutError | null = null;
    let alive = true;
    for (;;) {
      if (this.closedWith) throw this.closedWith;
      if (this.outOfStep) {
        const step = await this.resync();
        if (step === 'lost') throw new Error(`the ${this.name}'s CAT could not be put back in step (its answers come and go): ${opName(cmd[CAT_LEN - 1])} not sent`);
        alive = step === 'in step';
        // A radio that answered none of the single bytes is silent: asking again only waits again.
        if (!alive && timedOut) throw timedOut;
      }
      try {
        return await this.once(cmd, reply);
      } catch (err) {
        if (!(err instanceof TimeoutError) || !alive || retries-- <= 0) throw err;
        timedOut = err;
      }
    }
  }

  private async once(cmd: Uint8Array, reply: Uint8Array): Promise<void> {
    if (this.closedWith) throw this.closedWith;
    const op = cmd[CAT_LEN - 1];
    const n = replyLength(op);
    // The bound covers the write too: a device pulled mid-write may never call back.
    const answered = this.collect(n, this.t.reply_ms);
    this.send(cmd);
    if (!(await answered)) {
      this.stats.timeouts++;
      // A late answer may still come (a slow radio), or the radio lost a byte: resync() tells.
      this.outOfStep = true;
      this.owed = n - this.got;
      this.droppedAtTimeout = this.stats.dropped;
      throw new TimeoutError(`the ${this.name}'s answer to ${opName(op)}`, this.t.reply_ms);
    }
    reply.set(this.inbox.subarray(0, n));
    if (log.enabled('debug')) log.debug(`> ${hex(cmd)} < ${hex(reply, n)}`);
    if (answersAck(op) && reply[0] !== ACK.OK && reply[0] !== ACK.REJECTED) {
      this.lostStep();
      throw new Error(`the ${this.name} answered ${hex(reply, 1)} to ${opName(op)}, which is no ACK: the line is out of step and is resynchronised`);
    }
    this.stats.replies++;
  }

  private send(bytes: Uint8Array): void {
    this.stats.sent++;
    this.stats.bytesOut += bytes.length;
    this.conn.write(bytes).catch((err: Error) => this.finish(false, err));
  }

  /**
   * Puts the radio's count of five back in step, sending nothing but F7 bytes, so that whatever
   * the radio completes is a TX-status read:
   * 1. drop late bytes until the line is quiet; exactly what a timed-out reply still owed means a
   *    slow radio, in step;
   * 2. find: single bytes, one at a time, until the radio answers one (it completed a command);
   * 3. confirm: four bytes must go unanswered and a fifth be answered (a late byte taken for an
   *    answer in 2 shows here), else find again.
   * 'silent' after five unanswered single bytes: they left the radio's count where it was.
   */
  private async resync(): Promise<'in step' | 'silent' | 'lost'> {
    this.stats.resyncs++;
    const owed = this.owed;
    this.owed = -1;
    // A late answer may come up to a reply timeout after the one given up on.
    await this.quiet(owed > 0 ? this.t.reply_ms : this.t.resync_ms);
    if (owed > 0 && this.stats.dropped - this.droppedAtTimeout === owed) return this.inStep('its late answer');
    for (let round = 0; round < 3; round++) {
      let found = false;
      for (let i = 0; i < CAT_LEN && !found; i++) found = await this.answers(this.single);
      if (!found) {
        this.outOfStep = false;
        return 'silent';
      }
      await this.quiet(this.t.resync_ms);
      if (await this.answers(this.four)) continue;
      const dropped = this.stats.dropped;
      if (!(await this.answers(this.single))) continue;
      await this.quiet(this.t.resync_ms);
      if (this.stats.dropped === dropped) return this.inStep(`${round + 1} round${round ? 's' : ''} of single bytes`);
    }
    return 'lost';
  }

  private inStep(how: string): 'in step' {
    this.outOfStep = false;
    log.info(`the ${this.name}'s CAT is back in step (${how})`);
    return 'in step';
  }

  /** Sends bytes and tells whether one came back within resync_ms. */
  private async answers(bytes: Uint8Array): Promise<boolean> {
    if (this.closedWith) throw this.closedWith;
    const answered = this.collect(1, this.t.resync_ms);
    this.send(bytes);
    return answered;
  }

  /** Waits first ms, then until no byte arrived for resync_ms (at most three more waits). */
  private async quiet(first: number): Promise<void> {
    let ms = first;
    for (let i = 0; i < 4; i++) {
      const before = this.stats.dropped;
      await new Promise<void>((resolve) => this.clock.setTimeout(resolve, ms));
      if (this.stats.dropped === before) return;
      ms = this.t.resync_ms;
    }
  }

  /** Listens for n bytes; resolves true when they came, false after ms, rejects when the link fails. */
  private collect(n: number, ms: number): Promise<boolean> {
    this.want = n;
    this.got = 0;
    this.listening = true;
    return new Promise<boolean>((resolve, reject) => {
      this.done = resolve;
      this.failed = reject;
      this.timer = stallAwareTimeout(this.clock, ms, this.onTimeout);
    });
  }

  /** Ends the wait: whether the bytes came, or the error that ended it. */
  private finish(full: boolean, err?: Error): void {
    const done = this.done;
    const failed = this.failed;
    this.listening = false;
    this.done = null;
    this.failed = null;
    this.timer?.cancel();
    this.timer = null;
    if (err) failed?.(err);
    else done?.(full);
  }

  private onData(chunk: Uint8Array): void {
    this.stats.bytesIn += chunk.length;
    for (let i = 0; i < chunk.length; i++) {
      if (this.listening && this.got < this.want) {
        this.inbox[this.got++] = chunk[i];
        if (this.got === this.want) this.finish(true);
        continue;
      }
      // Nobody asked (a late answer), or more than the opcode answers: the radio and we disagree on where commands begin.
      this.stats.dropped++;
      this.outOfStep = true;
    }
  }
}
