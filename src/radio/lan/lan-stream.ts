// Driver: one UDP socket to one of the radio's ports = one stream of the Icom network protocol
// (control 50001, CI-V 50002, audio 50003 by default). It does what every stream does alike: the
// are-you-there / I-am-here / are-you-ready / I-am-ready handshake that learns the radio's id,
// pings both ways, tracked idle packets, sequence numbers, a history of what we sent to answer
// retransmit requests, retransmit requests for the gaps we see, duplicates dropped, in-order
// hand-over, and the watchdog that declares the radio gone. What the packets mean is the
// session's business (lan-session.ts).
//
// Never throws: results are unions, socket errors are counted and logged; timers run on the
// injected clock.
import dgram from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Clock, Timer } from '../../util/clock.js';
import { logger } from '../../util/logger.js';
import {
  PT,
  SIZE,
  encodeControl,
  encodePing,
  encodeRetransmitRequest,
  makeId,
  setSeq,
  writeHeader,
  type Ids,
  type LanPacket,
} from './packets.js';
import { Reorder, RxTracker, TxHistory, seqDiff, seqNext } from './sequencer.js';
import { LAN_LIMITS, type LanTimings } from './timings.js';

const log = logger('radio:lan');

export type StreamName = 'control' | 'civ' | 'audio';

/** Counters shared by a session's streams (its stats()). */
export interface LanCounters {
  rx_packets: number;
  tx_packets: number;
  retransmits_requested: number;
  retransmits_answered: number;
  duplicates: number;
}

export const newCounters = (): LanCounters => ({ rx_packets: 0, tx_packets: 0, retransmits_requested: 0, retransmits_answered: 0, duplicates: 0 });

export type HandshakeResult = { kind: 'ready' } | { kind: 'timeout' } | { kind: 'refused'; code: string } | { kind: 'closed' } | { kind: 'error'; message: string };

export type BindResult = { ok: true; port: number } | { ok: false; message: string };

export interface LanStreamOptions {
  name: StreamName;
  clock: Clock;
  timings: LanTimings;
  /** Send a tracked idle packet when nothing else went out for idle_ms (control and CI-V, as wfview). */
  sendIdle: boolean;
  decode: (b: Uint8Array) => LanPacket | null;
  counters: LanCounters;
  /** The session's shared timer (one of its own when absent). */
  heartbeat?: Heartbeat;
}

/** The radio's address: an IP literal as is, a name through DNS (IPv4 first). */
export async function resolveHost(host: string): Promise<{ ok: true; ip: string; family: 4 | 6 } | { ok: false; message: string }> {
  const fam = isIP(host);
  if (fam) return { ok: true, ip: host, family: fam as 4 | 6 };
  try {
    const a = await lookup(host, { family: 4 }).catch(() => lookup(host));
    return { ok: true, ip: a.address, family: a.family === 6 ? 6 : 4 };
  } catch (err) {
    return { ok: false, message: `cannot resolve the name: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
  }
}

/** What an ICMP error on a connected UDP socket means, in words. */
export function socketErrorText(code: string | undefined, fallback: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'port unreachable';
    case 'EHOSTUNREACH':
    case 'EHOSTDOWN':
      return 'host unreachable';
    case 'ENETUNREACH':
      return 'no route to that network';
    default:
      return code ?? fallback;
  }
}

/** ICMP errors that mean nobody is there (before the radio ever answered). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'EHOSTDOWN', 'ENETUNREACH']);

/** Runs fn every ms on the clock until cancelled. */
export function every(clock: Clock, ms: number, fn: () => void): Timer {
  let live = true;
  let t: Timer;
  const run = () => {
    if (!live) return;
    fn();
    if (live) t = clock.setTimeout(run, ms);
  };
  t = clock.setTimeout(run, Math.max(1, ms));
  return {
    cancel: () => {
      live = false;
      t.cancel();
    },
  };
}

/** The heartbeat's period: the shortest of the periodic jobs'. */
export const heartbeatMs = (t: LanTimings): number => Math.max(1, Math.min(...[t.ping_ms, t.retransmit_ms, t.idle_ms].filter((ms) => ms > 0)));

/**
 * One timer for all of a session's streams. An idle session is all keep-alives, and on small
 * boards (and VMs) a timer wake-up costs more than the datagrams it sends, so the streams'
 * periodic jobs share one wake-up. It runs only while a stream is running.
 */
export class Heartbeat {
  private readonly members = new Set<{ beat(now: number): void }>();
  private timer: Timer | null = null;

  constructor(
    private readonly clock: Clock,
    readonly periodMs: number,
  ) {}

  add(m: { beat(now: number): void }): void {
    this.members.add(m);
    this.timer ??= every(this.clock, this.periodMs, () => {
      const now = this.clock.now();
      for (const x of this.members) x.beat(now);
    });
  }

  remove(m: { beat(now: number): void }): void {
    this.members.delete(m);
    if (this.members.size > 0) return;
    this.timer?.cancel();
    this.timer = null;
  }
}

export class LanStream {
  /** Tracked packets from the radio, in seq order, duplicates and idles removed. */
  onPacket: (p: LanPacket) => void = () => {};
  /** Once: the radio stopped answering on this stream, or closed it. */
  onLost: (reason: string) => void = () => {};

  readonly name: StreamName;
  private readonly clock: Clock;
  private readonly t: LanTimings;
  private socket: dgram.Socket | null = null;
  private readonly ids: Ids = { sentid: 0, rcvdid: 0 };
  private readonly history = new TxHistory(LAN_LIMITS.tx_history);
  private readonly rx = new RxTracker({ window: LAN_LIMITS.rx_window, maxMissing: LAN_LIMITS.max_missing, attempts: LAN_LIMITS.retransmit_attempts });
  private readonly reorder: Reorder<LanPacket>;
  private txSeq = 1; // wfview starts its tracked seq at 1
  private pingSeq = 0;
  private pingSentAt = 0;
  private readonly pingBufs = [new Uint8Array(SIZE.PING), new Uint8Array(SIZE.PING)];
  private pingFlip = 0;
  private lastTrackedAt = 0;
  private readonly heartbeat: Heartbeat;
  private hs: { resolve: (r: HandshakeResult) => void; timers: Timer[] } | null = null;
  private gotHere = false;
  private running = false;
  private ended = false;
  private closing = false;
  private refusals = 0;
  lastRxAt: number | null = null;
  rttMs: number | null = null;
  localPort = 0;
  remotePort = 0;
  localAddress = '';

  constructor(private readonly o: LanStreamOptions) {
    this.name = o.name;
    this.clock = o.clock;
    this.t = o.timings;
    this.reorder = new Reorder<LanPacket>((p) => this.deliver(p), LAN_LIMITS.reorder_max);
    this.heartbeat = o.heartbeat ?? new Heartbeat(o.clock, heartbeatMs(o.timings));
  }

  get remoteId(): number {
    return this.ids.rcvdid;
  }
  get myId(): number {
    return this.ids.sentid;
  }
  get isRunning(): boolean {
    return this.running && !this.ended;
  }
  get stats() {
    return { ...this.rx.stats, held: this.reorder.heldCount, refusals: this.refusals };
  }

  /** Opens the socket on an ephemeral local port (we tell the radio this port before it is connected). */
  bind(family: 4 | 6 = 4): Promise<BindResult> {
    return new Promise((resolve) => {
      let s: dgram.Socket;
      try {
        s = dgram.createSocket({ type: family === 6 ? 'udp6' : 'udp4' });
      } catch (err) {
        resolve({ ok: false, message: `cannot open a UDP socket: ${(err as Error).message}` });
        return;
      }
      const onBindError = (err: Error) => {
        resolve({ ok: false, message: `cannot bind a UDP socket: ${(err as NodeJS.ErrnoException).code ?? err.message}` });
        try {
          s.close();
        } catch {
          /* already closed */
        }
      };
      s.once('error', onBindError);
      s.bind(0, () => {
        s.off('error', onBindError);
        s.on('error', (err) => this.onSocketError(err));
        s.on('message', (msg: Buffer) => this.onMessage(msg));
        this.socket = s;
        this.localPort = s.address().port;
        resolve({ ok: true, port: this.localPort });
      });
    });
  }

  /** Connects the socket to the radio's port (ICMP errors then reach us) and makes our id. */
  connect(ip: string, port: number): Promise<{ ok: true } | { ok: false; message: string }> {
    return new Promise((resolve) => {
      const s = this.socket;
      if (!s || this.ended) return resolve({ ok: false, message: 'socket closed' });
      try {
        s.connect(port, ip, () => {
          try {
            const a = s.address();
            this.localAddress = a.address;
            this.localPort = a.port;
          } catch {
            /* closed meanwhile */
          }
          this.remotePort = port;
          this.ids.sentid = makeId(this.localAddress, this.localPort);
          resolve({ ok: true });
        });
      } catch (err) {
        resolve({ ok: false, message: `cannot connect to ${ip}:${port}: ${(err as Error).message}` });
      }
    });
  }

  /**
   * Are you there (every are_you_there_ms) → I am here (learns the radio's id, starts pings,
   * idles, retransmits, the watchdog) → are you ready (repeated) → I am ready.
   */
  handshake(timeoutMs: number): Promise<HandshakeResult> {
    if (this.ended || !this.socket) return Promise.resolve({ kind: 'closed' });
    return new Promise((resolve) => {
      const sendAyt = () => this.sendRaw(encodeControl(PT.ARE_YOU_THERE, 0, this.ids));
      const retry = every(this.clock, this.t.are_you_there_ms, () => (this.gotHere ? this.sendAreYouReady() : sendAyt()));
      const deadline = this.clock.setTimeout(() => this.finishHandshake({ kind: 'timeout' }), timeoutMs);
      this.hs = { resolve, timers: [retry, deadline] };
      sendAyt();
    });
  }

  /**
   * Sends a tracked packet: it gets the next seq and is kept for retransmits. fill() encodes the
   * whole packet (header included) into buf, which is a reused history slot of exactly len bytes.
   */
  sendTracked(len: number, fill: (buf: Uint8Array) => void, done?: (err: Error | null) => void): boolean {
    if (!this.socket || this.ended) {
      done?.(new Error(`${this.name} stream is closed`));
      return false;
    }
    const seq = this.txSeq;
    this.txSeq = seqNext(this.txSeq);
    const buf = this.history.slot(seq, len);
    fill(buf);
    setSeq(buf, seq);
    this.lastTrackedAt = this.clock.now();
    this.sendRaw(buf, done);
    return true;
  }

  /** Our id and the radio's, for encoding packets. */
  get wireIds(): Ids {
    return this.ids;
  }

  /** Untracked (no seq of its own): control packets, pings, retransmits. */
  sendRaw(bytes: Uint8Array, done?: (err: Error | null) => void): void {
    const s = this.socket;
    if (!s) {
      done?.(new Error(`${this.name} stream is closed`));
      return;
    }
    this.o.counters.tx_packets++;
    try {
      // Without a callback a datagram the kernel took at once costs no completion round trip
      // (errors then come as the socket's 'error' event, handled in onSocketError).
      if (done)
        s.send(bytes, (err) => {
          if (err) this.onSocketError(err);
          done(err ?? null);
        });
      else s.send(bytes);
    } catch (err) {
      done?.(err as Error); // closed under us
    }
  }

  /** Stops everything; with disconnect, tells the radio first (twice: it is not retransmitted). */
  async close(disconnect: boolean): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.stopTimers();
    this.finishHandshake({ kind: 'closed' });
    const s = this.socket;
    if (!s) {
      this.ended = true;
      return;
    }
    if (disconnect && this.gotHere) {
      const bye = encodeControl(PT.DISCONNECT, 0, this.ids);
      await Promise.all([0, 1].map(() => new Promise<void>((r) => this.sendRaw(bye, () => r()))));
    }
    this.ended = true;
    this.socket = null;
    await new Promise<void>((r) => {
      try {
        s.close(() => r());
      } catch {
        r();
      }
    });
  }

  /** The stream went away: stop, and tell the owner once. */
  private lose(reason: string): void {
    if (this.ended || this.closing) return;
    this.ended = true;
    this.stopTimers();
    this.finishHandshake({ kind: 'error', message: reason });
    this.onLost(reason);
  }

  private finishHandshake(r: HandshakeResult): void {
    const hs = this.hs;
    if (!hs) return;
    this.hs = null;
    for (const t of hs.timers) t.cancel();
    hs.resolve(r);
  }

  private sendAreYouReady(): void {
    this.sendRaw(encodeControl(PT.ARE_YOU_READY, 1, this.ids));
  }

  /** From "I am here" on: the heartbeat does pings, idles, retransmit passes and the watchdog. */
  private startRunning(): void {
    if (this.running) return;
    this.running = true;
    this.lastTrackedAt = this.clock.now();
    this.heartbeat.add(this);
    this.sendPing();
  }

  /** The periodic jobs, each when due (less than half a beat early, so jitter never skips a period). */
  beat(now: number): void {
    if (this.ended) return;
    const since = now - (this.lastRxAt ?? 0);
    if (since >= this.t.stale_ms) {
      this.lose(`the radio stopped answering on the ${this.name} stream (nothing for ${Math.round(since / 100) / 10} s)`);
      return;
    }
    const slack = this.heartbeat.periodMs / 2;
    if (this.o.sendIdle && now - this.lastTrackedAt + slack >= this.t.idle_ms) this.sendTracked(SIZE.CONTROL, this.writeIdle);
    if (now - this.pingSentAt + slack >= this.t.ping_ms) this.sendPing();
    if (this.rx.missingCount > 0 || this.reorder.heldCount > 0) this.retransmitPass();
  }

  private readonly writeIdle = (b: Uint8Array): void => writeHeader(b, SIZE.CONTROL, PT.DATA, 0, this.ids.sentid, this.ids.rcvdid);

  private stopTimers(): void {
    this.heartbeat.remove(this);
  }

  private sendPing(): void {
    this.pingSentAt = this.clock.now();
    // time: milliseconds since midnight, as wfview sends it (the radio echoes it)
    this.sendRaw(encodePing(this.pingSeq, this.ids, false, this.pingSentAt % 86_400_000, this.pingBuf()));
  }

  /**
   * Pings and ping replies go out of one of two buffers, used in turn: a datagram is handed to the
   * kernel at once unless the socket would block, and two pings are never that close together.
   */
  private pingBuf(): Uint8Array {
    this.pingFlip ^= 1;
    return this.pingBufs[this.pingFlip];
  }

  private retransmitPass(): void {
    const due = this.rx.due();
    for (let i = 0; i < due.length; i += LAN_LIMITS.retransmit_burst) {
      const part = due.slice(i, i + LAN_LIMITS.retransmit_burst);
      this.o.counters.retransmits_requested += part.length;
      this.sendRaw(encodeRetransmitRequest(part, this.ids));
      if (log.enabled('debug')) log.debug(() => `${this.name}: asked again for ${part.join(',')}`);
    }
    this.reorder.flush(this.clock.now(), this.t.reorder_hold_ms);
  }

  /** Resends what the radio asks for; a seq we no longer have gets an idle with that seq (so it stops asking). */
  private answerRetransmit(list: number[], single: boolean): void {
    const seqs: number[] = [];
    if (single) seqs.push(list[0]);
    else {
      // Pairs: wfview sends each seq twice (a,a); kappanhang reads a pair as a first,last range.
      // A short range is resent whole, which covers both readings.
      for (let i = 0; i < list.length && seqs.length < LAN_LIMITS.retransmit_burst; i += 2) {
        const a = list[i];
        const b = i + 1 < list.length ? list[i + 1] : a;
        const span = seqDiff(b, a);
        if (span > 0 && span < LAN_LIMITS.retransmit_burst) for (let s = a, n = 0; n <= span; s = seqNext(s), n++) seqs.push(s);
        else {
          seqs.push(a);
          if (b !== a) seqs.push(b);
        }
      }
    }
    for (const seq of seqs.slice(0, LAN_LIMITS.retransmit_burst)) {
      const pkt = this.history.get(seq);
      if (pkt) {
        this.o.counters.retransmits_answered++;
        this.sendRaw(pkt);
      } else this.sendRaw(encodeControl(PT.DATA, seq, this.ids));
    }
  }

  private onSocketError(err: Error): void {
    const code = (err as NodeJS.ErrnoException).code;
    if (code && UNREACHABLE.has(code)) {
      // ICMP port/host unreachable: nobody listens there (yet), or the radio just went away
      this.refusals++;
      if (this.hs && !this.gotHere) this.finishHandshake({ kind: 'refused', code });
      return;
    }
    if (this.closing) return;
    log.warn(`${this.name} stream socket: ${code ?? err.message}`);
  }

  private onMessage(msg: Buffer): void {
    if (this.ended || msg.length < SIZE.HEADER || msg.length > LAN_LIMITS.max_datagram) return;
    const p = this.o.decode(msg);
    if (!p) return;
    const now = this.clock.now();
    this.o.counters.rx_packets++;
    this.lastRxAt = now;
    switch (p.kind) {
      case 'ping':
        if (!this.gotHere) return;
        if (!p.reply) {
          this.sendRaw(encodePing(p.h.seq, this.ids, true, p.time, this.pingBuf()));
        } else if (p.h.seq === this.pingSeq) {
          const rtt = now - this.pingSentAt;
          this.rttMs = this.rttMs === null ? rtt : (this.rttMs + rtt) / 2;
          this.pingSeq = seqNext(this.pingSeq);
        }
        return;
      case 'retransmit':
        if (this.gotHere) this.answerRetransmit(p.seqs, msg.length === SIZE.CONTROL);
        return;
      case 'control':
        switch (p.h.type) {
          case PT.I_AM_HERE:
            if (!this.gotHere && this.hs) {
              this.gotHere = true;
              this.ids.rcvdid = p.h.sentid;
              this.startRunning();
              this.sendAreYouReady();
            }
            return;
          case PT.ARE_YOU_READY: // "I am ready"
            if (!this.gotHere) return;
            this.ids.rcvdid = p.h.sentid;
            this.finishHandshake({ kind: 'ready' });
            return;
          case PT.DISCONNECT:
            this.lose(`the radio closed the ${this.name} stream`);
            return;
          case PT.DATA:
            break; // an idle: it takes a seq
          default:
            return;
        }
        break;
    }
    if (p.h.type !== PT.DATA || !this.gotHere) return;
    if (this.rx.accept(p.h.seq) === 'duplicate') {
      this.o.counters.duplicates++;
      return;
    }
    this.reorder.push(p.h.seq, p, now);
  }

  private deliver(p: LanPacket): void {
    if (p.kind === 'control' || this.ended) return; // idles only fill the sequence
    try {
      this.onPacket(p);
    } catch (err) {
      log.error(`${this.name} packet handler failed`, err);
    }
  }
}
