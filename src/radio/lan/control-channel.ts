// The control stream's meaning once its handshake is done: login (0x80) and its answer (0x60,
// the token), token confirm, renewal every token_renew_ms and removal (0x40), the radio's
// capabilities (0x42 + 0x66 per radio), its conninfo (0x90), our stream request (conninfo 0x90)
// and status (0x50), which also tells an open session that the radio ended it.
// Every packet (and the end of the conninfo wait) is passed on to the session's waits; the
// session decides the order of the conversation. The stream itself is a LanStream the session
// owns and attaches.
import { randomInt } from 'node:crypto';
import type { Clock, Timer } from '../../util/clock.js';
import type { Logger } from '../../util/logger.js';
import { Waitress } from '../../util/waitress.js';
import { every, type LanStream } from './lan-stream.js';
import { DIR, ERR_REFUSED, SIZE, TOKEN_REQ, encodeConninfoRequest, encodeLogin, encodeToken, type ConninfoRequest, type LanPacket, type RadioCap } from './packets.js';
import { secs } from './open-answers.js';
import type { LanTimings } from './timings.js';
import type { LanSessionState } from './session-types.js';

/** What the session's waits see: control packets, and the end of the wait for a conninfo. */
export type ControlEvent = LanPacket | { kind: 'conninfo_wait_over' };

export interface TokenStats {
  renewals_sent: number;
  renewals_ok: number;
  renewals_unanswered: number;
}

export interface ControlChannelOptions {
  /** The radio's host, for logs. */
  host: string;
  username: string;
  password: string;
  /** Shown on the radio as the connected client. */
  clientName: string;
  clock: Clock;
  timings: LanTimings;
  log: Logger;
  state: () => LanSessionState;
  /** Every control packet, and conninfo_wait_over, for the session's waits. */
  offer: (e: ControlEvent) => void;
  /** The radio ended the session, or refused the token. */
  lost: (reason: string) => void;
}

export class ControlChannel {
  /** Token renewals sent / answered, for tests and logs. */
  readonly tokenStats: TokenStats = { renewals_sent: 0, renewals_ok: 0, renewals_unanswered: 0 };
  private stream: LanStream | null = null;
  private tokRequest = 0;
  private token = 0;
  private loggedIn = false;
  private innerSeq = 0x30; // wfview's authSeq starts at 0x30
  private radioCaps: RadioCap | null = null;
  private waitingConninfo = false;
  private conninfoWaitTimer: Timer | null = null;
  private renewTimer: Timer | null = null;
  private tokenAckTimer: Timer | null = null;
  /** While goodbye() waits for the answer to the token removal. */
  private farewell: Waitress<LanPacket> | null = null;

  constructor(private readonly o: ControlChannelOptions) {}

  attach(stream: LanStream): void {
    this.stream = stream;
    stream.onPacket = (p) => this.onPacket(p);
  }

  /** The first radio's capabilities, once the radio sent them. */
  get caps(): RadioCap | null {
    return this.radioCaps;
  }

  sendLogin(): void {
    const c = this.stream;
    if (!c) return;
    this.tokRequest = randomInt(1, 0x10000);
    const { username, password, clientName } = this.o;
    c.sendTracked(SIZE.LOGIN, (b) => b.set(encodeLogin(c.wireIds, { innerSeq: this.nextInner(), tokRequest: this.tokRequest, username, password, name: clientName })));
  }

  /** The answer to our login (an error answers any login). */
  answersLogin(p: Extract<LanPacket, { kind: 'login_response' }>): boolean {
    return p.error !== 0 || p.a.tokRequest === this.tokRequest;
  }

  /**
   * The login was accepted: confirm the token, renew it from now on, and wait for the radio's
   * conninfo at most conninfo_wait_ms after its capabilities (then the stream is requested anyway).
   */
  loggedInWith(token: number): void {
    this.token = token;
    this.loggedIn = true;
    this.waitingConninfo = true;
    if (this.radioCaps) this.armConninfoWait();
    this.sendToken(TOKEN_REQ.CONFIRM);
    this.renewTimer = every(this.o.clock, this.o.timings.token_renew_ms, () => this.renewToken());
  }

  /** The wait for the radio's conninfo is over (it came, or the wait ended). */
  conninfoSettled(): void {
    this.waitingConninfo = false;
    this.conninfoWaitTimer?.cancel();
  }

  /** Our stream request: codecs, rates, and where our CI-V and audio sockets are. */
  requestStreams(f: Omit<ConninfoRequest, 'username'>): void {
    const c = this.stream;
    if (!c) return;
    c.sendTracked(SIZE.CONNINFO, (b) => b.set(encodeConninfoRequest(c.wireIds, { innerSeq: this.nextInner(), tokRequest: this.tokRequest, token: this.token, username: this.o.username, ...f })));
  }

  /** After a loss: remove the token if the control stream still runs, without waiting for the answer. */
  dropToken(): void {
    if (this.loggedIn && this.stream?.isRunning) this.sendToken(TOKEN_REQ.REMOVE);
  }

  /** The clean goodbye: remove the token and wait for the answer, at most close_ack_ms. */
  async goodbye(): Promise<void> {
    const c = this.stream;
    if (!c || !this.loggedIn || !c.isRunning) return;
    const waiter = (this.farewell = new Waitress<LanPacket>(this.o.clock));
    this.sendToken(TOKEN_REQ.REMOVE);
    await waiter.wait((p) => p.kind === 'token' && p.a.requestType === TOKEN_REQ.REMOVE && p.a.requestReply === DIR.REPLY, this.o.timings.close_ack_ms, 'token removal').catch(() => undefined);
  }

  stopTimers(): void {
    this.renewTimer?.cancel();
    this.renewTimer = null;
    this.tokenAckTimer?.cancel();
    this.tokenAckTimer = null;
    this.conninfoWaitTimer?.cancel();
    this.conninfoWaitTimer = null;
  }

  private nextInner(): number {
    const v = this.innerSeq;
    this.innerSeq = (this.innerSeq + 1) & 0xffff;
    return v;
  }

  private armConninfoWait(): void {
    if (!this.waitingConninfo || this.conninfoWaitTimer) return;
    this.conninfoWaitTimer = this.o.clock.setTimeout(() => this.o.offer({ kind: 'conninfo_wait_over' }), this.o.timings.conninfo_wait_ms);
  }

  private sendToken(requestType: number): void {
    const c = this.stream;
    if (!c) return;
    c.sendTracked(SIZE.TOKEN, (b) => b.set(encodeToken(c.wireIds, { requestType, innerSeq: this.nextInner(), tokRequest: this.tokRequest, token: this.token })));
  }

  private renewToken(): void {
    const st = this.o.state();
    if (st !== 'open' && st !== 'streams') return;
    this.tokenStats.renewals_sent++;
    this.sendToken(TOKEN_REQ.RENEW);
    this.tokenAckTimer?.cancel();
    this.tokenAckTimer = this.o.clock.setTimeout(() => {
      this.tokenStats.renewals_unanswered++;
      this.o.log.warn(`${this.o.host}: no answer to the token renewal within ${secs(this.o.timings.token_ack_ms)}`);
    }, this.o.timings.token_ack_ms);
  }

  private onPacket(p: LanPacket): void {
    this.farewell?.offer(p);
    const { host, log } = this.o;
    switch (p.kind) {
      case 'capabilities':
        if (p.radios.length > 0) {
          this.radioCaps = p.radios[0];
          if (p.radios.length > 1) log.info(`${host}: ${p.radios.length} radios behind this server; using ${this.radioCaps.name}`);
          if (this.loggedIn) this.armConninfoWait();
        }
        break;
      case 'token':
        if (p.a.requestReply !== DIR.REPLY) break;
        if (p.a.requestType === TOKEN_REQ.RENEW) {
          this.tokenAckTimer?.cancel();
          this.tokenAckTimer = null;
          if (p.response === 0) this.tokenStats.renewals_ok++;
          else if (p.response === ERR_REFUSED) this.o.lost('the radio rejected the token renewal');
          else log.warn(`${host}: unknown token renewal answer 0x${p.response.toString(16)}`);
        }
        break;
      case 'status':
        if (this.o.state() !== 'open') break;
        if (p.error === ERR_REFUSED) this.o.lost('the radio ended the session');
        else if (p.disconnected) this.o.lost('the radio disconnected the session');
        break;
      case 'conninfo':
        if (this.o.state() === 'open' && log.enabled('debug')) log.debug(() => `${host}: conninfo ${p.name} busy=${p.busy} by ${p.computer}`);
        break;
    }
    this.o.offer(p);
  }
}
