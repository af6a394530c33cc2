// Driver: a session with an Icom radio over its network protocol (the IC-705's Wi-Fi remote,
// RS-BA1 compatible, as wfview speaks it). Three UDP streams, each a LanStream:
//
//   control (radio port 50001, configurable): handshake → login (0x80) → login answer (0x60,
//     carries the token) → token confirm (0x40) → the radio's capabilities (0x42 + 0x66 per
//     radio) and conninfo (0x90: name, MAC, busy) → our stream request (conninfo 0x90: codec,
//     sample rate, tx buffer, our local CI-V and audio ports) → status (0x50: the radio's CI-V
//     and audio ports, or a refusal). Then token renewal every minute.
//   CI-V (the port status gave, 50002 by default): handshake → open (0x16, magic 0x04) → CI-V
//     bytes in 0x15-header packets both ways. Exposed as a SerialConnection, so CivBus runs on it.
//   audio (status's port, 50003 by default; only when audio was asked for): handshake → 16-bit
//     LE mono PCM in 0x18-header packets both ways.
//
// open() never throws and answers with a union; the session is single use. close() says goodbye
// properly (CI-V close, disconnects, token removal) so the radio is free for the next client.
import { randomInt } from 'node:crypto';
import { systemClock, type Clock, type Timer } from '../../util/clock.js';
import { logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';
import { TimeoutError, Waitress } from '../../util/waitress.js';
import type { SerialConnection } from '../../links/serial-driver.js';
import { PacedAudioTx, type LanAudioTx, type Pacer } from './audio-tx.js';
import { Heartbeat, LanStream, every, heartbeatMs, newCounters, resolveHost, socketErrorText, type LanCounters, type StreamName } from './lan-stream.js';
import {
  CIV_CLOSE,
  CIV_OPEN,
  CODEC,
  DIR,
  ERR_REFUSED,
  LOGIN_ERR_CREDENTIALS,
  SIZE,
  TOKEN_REQ,
  audioPacketLength,
  civPacketLength,
  decodeAudioStream,
  decodeCivStream,
  decodeControlStream,
  encodeConninfoRequest,
  encodeLogin,
  encodeOpenClose,
  encodeToken,
  formatIp,
  maskAllows,
  pcmFromBytes,
  SAMPLE_RATE_BITS,
  writeAudioPacket,
  writeCivPacket,
  type LanPacket,
  type RadioCap,
} from './packets.js';
import { LAN_LIMITS, resolveTimings, type LanTimings } from './timings.js';

const log = logger('radio:lan');

export interface LanSessionOptions {
  host: string;
  /** The radio's control port (its "Control port" setting), 50001 by default. */
  controlPort: number;
  username: string;
  password: string;
  /** Protocol timers run on it (default systemClock). */
  clock?: Clock;
  timings?: Partial<LanTimings>;
  /** Shown on the radio as the connected client, default 'satstation' (15 characters at most). */
  clientName?: string;
  /** null/undefined: no audio stream (radio control only). Codec: 16-bit linear PCM mono both ways. */
  audio?: { sampleRate: number } | null;
  /** Real-time pacing of TX audio (tests may inject one). */
  pacer?: Pacer;
}

export type LanOpenResult =
  | { kind: 'open'; radio: { name: string; mac: string; civ_port: number; audio_port: number | null } }
  | { kind: 'unreachable'; message: string }
  | { kind: 'login_rejected'; message: string }
  | { kind: 'busy'; message: string }
  | { kind: 'failed'; message: string };

export type LanSessionState = 'new' | 'connecting' | 'login' | 'streams' | 'open' | 'closing' | 'closed' | 'lost';

export interface LanSessionStats {
  state: string;
  rx_packets: number;
  tx_packets: number;
  retransmits_requested: number;
  retransmits_answered: number;
  duplicates: number;
  last_rx_at: number | null;
  rtt_ms: number | null;
}

/** What the wait for a packet ended with. */
type Got<K extends LanPacket['kind']> = { ok: true; p: Extract<LanPacket, { kind: K }> } | { ok: false; why: string };
type SessionEvent = LanPacket | { kind: 'conninfo_wait_over' };

const DEFAULT_CLIENT_NAME = 'satstation';
const secs = (ms: number) => `${Math.round(ms / 100) / 10} s`;

export class IcomLanSession {
  readonly civ: SerialConnection;
  readonly audioTx: LanAudioTx;

  private readonly o: LanSessionOptions;
  private readonly clock: Clock;
  private readonly t: LanTimings;
  private readonly counters: LanCounters = newCounters();
  private readonly clientName: string;
  private readonly tx: PacedAudioTx;
  private readonly waitress: Waitress<SessionEvent>;
  private readonly heartbeat: Heartbeat;
  private st: LanSessionState = 'new';
  private control: LanStream | null = null;
  private civStream: LanStream | null = null;
  private audioStream: LanStream | null = null;
  private spareAudio: LanStream | null = null;
  private ip = '';
  private tokRequest = 0;
  private token = 0;
  private loggedIn = false;
  private innerSeq = 0x30; // wfview's authSeq starts at 0x30
  private civSeq = 0; // the CI-V stream's inner send seq (CI-V data and open/close)
  private audioSeq = 0;
  private caps: RadioCap | null = null;
  private conninfoWaitTimer: Timer | null = null;
  private waitingConninfo = false;
  private timers: Timer[] = [];
  private tokenAckTimer: Timer | null = null;
  private civDataSeen = false;
  private openAbort: string | null = null;
  private closePromise: Promise<void> | null = null;
  private readonly dataFns = new Listeners<Uint8Array>(log, 'CI-V data');
  private readonly closeFns = new Listeners<Error | null>(log, 'CI-V close');
  private readonly audioFns = new Listeners<Int16Array>(log, 'audio');
  private readonly lostFns = new Listeners<string>(log, 'session lost');
  /** Token renewals sent / answered, for tests and logs. */
  readonly tokenStats = { renewals_sent: 0, renewals_ok: 0, renewals_unanswered: 0 };

  constructor(opts: LanSessionOptions) {
    this.o = { ...opts, controlPort: opts.controlPort || 50001 };
    this.clock = opts.clock ?? systemClock;
    this.t = resolveTimings(opts.timings);
    this.clientName = (opts.clientName ?? DEFAULT_CLIENT_NAME).slice(0, 15);
    this.waitress = new Waitress<SessionEvent>(this.clock);
    this.heartbeat = new Heartbeat(this.clock, heartbeatMs(this.t));
    const rate = opts.audio?.sampleRate ?? 0;
    this.tx = new PacedAudioTx({ sampleRate: rate || 8000, packetMs: this.t.audio_packet_ms, leadMs: this.t.audio_lead_ms, holdMs: this.t.tx_buffer_ms + this.t.tx_tail_ms, pacer: opts.pacer }, opts.audio ? 'the session is not open' : 'the session was opened without audio');
    this.audioTx = this.tx;
    this.civ = this.makeCivPipe();
  }

  get state(): LanSessionState {
    return this.st;
  }

  /** Receive audio, one packet at a time; pcm may be a view of the datagram: copy what is kept. */
  onAudio(fn: (pcm: Int16Array) => void): void {
    this.audioFns.add(fn);
  }

  /** Once: the radio stopped answering, sent a disconnect, refused the token... (not on close()). */
  onLost(fn: (reason: string) => void): void {
    this.lostFns.add(fn);
  }

  stats(): LanSessionStats {
    const rx = [this.control, this.civStream, this.audioStream].map((s) => s?.lastRxAt ?? null).filter((x): x is number => x !== null);
    return {
      state: this.st,
      ...this.counters,
      last_rx_at: rx.length ? Math.max(...rx) : null,
      rtt_ms: this.control?.rttMs === null || this.control?.rttMs === undefined ? null : Math.round(this.control.rttMs * 10) / 10,
    };
  }

  async open(): Promise<LanOpenResult> {
    if (this.st !== 'new') return { kind: 'failed', message: `this session was already used (${this.st}); make a new one` };
    try {
      const r = await this.doOpen();
      if (r.kind !== 'open') {
        log.info(`${this.o.host}: ${r.kind}: ${r.message}`);
        const st = this.st as LanSessionState; // open() awaited: close() may have run meanwhile
        if (st !== 'closing' && st !== 'closed') await this.teardown('failed');
        else await this.closePromise;
        await this.closeStreams(false); // anything opened while a close() ran
      }
      return r;
    } catch (err) {
      log.error(`${this.o.host}: open failed`, err);
      await this.teardown('failed');
      return { kind: 'failed', message: `unexpected error while connecting: ${(err as Error).message}` };
    }
  }

  /** Clean disconnect, bounded in time; the radio is free for the next client afterwards. */
  close(): Promise<void> {
    if (!this.closePromise) this.closePromise = this.doClose();
    return this.closePromise;
  }

  // -------------------------------------------------------------------------------------------

  private async doOpen(): Promise<LanOpenResult> {
    const { host, controlPort } = this.o;
    const rate = this.o.audio?.sampleRate;
    if (rate !== undefined && !(Number.isInteger(rate) && rate >= 8000 && rate <= 48000)) return { kind: 'failed', message: `audio sample rate ${rate} Hz: 8000 to 48000 Hz` };
    if (!Number.isInteger(controlPort) || controlPort < 1 || controlPort > 65535) return { kind: 'failed', message: `control port ${controlPort}: 1 to 65535` };
    this.st = 'connecting';
    const addr = await resolveHost(host);
    if (!addr.ok) return { kind: 'unreachable', message: `host ${host} did not respond (${addr.message})` };
    this.ip = addr.ip;
    if (this.aborted()) return this.abortedResult();

    const control = (this.control = this.makeStream('control', decodeControlStream, true));
    control.onPacket = (p) => this.onControlPacket(p);
    const bound = await control.bind(addr.family);
    if (!bound.ok) return { kind: 'failed', message: `control stream: ${bound.message}` };
    const conn = await control.connect(this.ip, controlPort);
    if (!conn.ok) return { kind: 'failed', message: `control stream: ${conn.message}` };
    const hs = await control.handshake(this.t.connect_ms);
    if (hs.kind === 'timeout') return { kind: 'unreachable', message: `host ${host} did not respond on UDP port ${controlPort} within ${secs(this.t.connect_ms)}` };
    if (hs.kind === 'refused') return { kind: 'unreachable', message: `host ${host} did not respond on UDP port ${controlPort} (${socketErrorText(hs.code, hs.code)})` };
    if (hs.kind !== 'ready') return this.abortedResult(hs.kind === 'error' ? hs.message : 'closed while connecting');

    // Login
    this.st = 'login';
    this.tokRequest = randomInt(1, 0x10000);
    control.sendTracked(SIZE.LOGIN, (b) =>
      b.set(encodeLogin(control.wireIds, { innerSeq: this.nextInner(), tokRequest: this.tokRequest, username: this.o.username, password: this.o.password, name: this.clientName })),
    );
    const login = await this.waitFor('login_response', (p) => p.error !== 0 || p.a.tokRequest === this.tokRequest, this.t.login_ms, 'the login answer');
    if (!login.ok) return { kind: 'failed', message: `login: ${login.why}` };
    if (login.p.error === LOGIN_ERR_CREDENTIALS) return { kind: 'login_rejected', message: `the radio rejected the user name or password for "${this.o.username}"` };
    if (login.p.error !== 0) return { kind: 'login_rejected', message: `the radio refused the login (error 0x${login.p.error.toString(16)})` };
    this.token = login.p.a.token;
    this.loggedIn = true;
    this.waitingConninfo = true;
    if (this.caps) this.armConninfoWait();
    this.sendToken(TOKEN_REQ.CONFIRM);
    this.timers.push(this.every(this.t.token_renew_ms, () => this.renewToken()));

    // Which radio, and is it free?
    const info = await this.waitForAny((e) => e.kind === 'conninfo' || e.kind === 'conninfo_wait_over', this.t.login_ms, "the radio's connection info");
    this.waitingConninfo = false;
    this.conninfoWaitTimer?.cancel();
    if (!info.ok) return { kind: 'failed', message: `login: ${info.why}` };
    const ci = info.p.kind === 'conninfo' ? info.p : null;
    const radioName = this.caps?.name || ci?.name || 'radio';
    if (ci && ci.busy !== 0) {
      const ours = ci.computer === this.clientName && formatIp(ci.ip) === control.localAddress;
      if (!ours) {
        const who = ci.computer ? ` by ${ci.computer}${ci.ip ? ` (${formatIp(ci.ip)})` : ''}` : ci.ip ? ` by ${formatIp(ci.ip)}` : ' by another client';
        return { kind: 'busy', message: ci.busy === 1 ? `${radioName} is in use${who}` : `${radioName} is not available (busy ${ci.busy})` };
      }
    }

    // Our sockets first, so the request can name their ports
    this.st = 'streams';
    const audio = this.o.audio ?? null;
    const civ = (this.civStream = this.makeStream('civ', decodeCivStream, true));
    civ.onPacket = (p) => this.onCivPacket(p);
    const civBound = await civ.bind(addr.family);
    if (!civBound.ok) return { kind: 'failed', message: `CI-V stream: ${civBound.message}` };
    // Without audio we still ask for RX audio as every known client does (and name a real port), but never open it.
    const aud = this.makeStream('audio', decodeAudioStream, false);
    if (audio) this.audioStream = aud;
    else this.spareAudio = aud;
    aud.onPacket = (p) => this.onAudioPacket(p);
    const audBound = await aud.bind(addr.family);
    if (!audBound.ok) return { kind: 'failed', message: `audio stream: ${audBound.message}` };
    if (this.aborted()) return this.abortedResult();

    // TX only when the radio lists any TX rate (wfview tests "> 1", which would also refuse a radio offering 24 kHz alone).
    const txOk = audio !== null && (this.caps ? this.caps.txSampleMask !== 0 : true);
    if (audio && this.caps) {
      const allowed = maskAllows(this.caps.rxSampleMask, audio.sampleRate);
      if (allowed === false) log.warn(`${radioName} does not list ${audio.sampleRate} Hz among its sample rates (mask 0x${this.caps.rxSampleMask.toString(16)}); asking anyway`);
    }
    // Without audio: RX audio is still asked for (every known client does), at a rate the radio lists, lowest first.
    const idleRate = this.caps ? (SAMPLE_RATE_BITS.map(([r]) => r).sort((a, b) => a - b).find((r) => maskAllows(this.caps!.rxSampleMask, r)) ?? 8000) : 8000;
    control.sendTracked(SIZE.CONNINFO, (b) =>
      b.set(
        encodeConninfoRequest(control.wireIds, {
          innerSeq: this.nextInner(),
          tokRequest: this.tokRequest,
          token: this.token,
          ident: this.caps?.ident ?? ci?.ident,
          radioName,
          username: this.o.username,
          rxEnable: true,
          txEnable: txOk,
          rxCodec: CODEC.PCM16_1CH,
          txCodec: txOk ? CODEC.PCM16_1CH : 0,
          rxSampleRate: audio ? audio.sampleRate : idleRate,
          txSampleRate: txOk && audio ? audio.sampleRate : 0,
          civPort: civBound.port,
          audioPort: audBound.port,
          txBufferMs: this.t.tx_buffer_ms,
        }),
      ),
    );
    const status = await this.waitFor('status', () => true, this.t.login_ms, 'the stream ports (status)');
    if (!status.ok) return { kind: 'failed', message: `stream request: ${status.why}` };
    const s = status.p;
    if (s.error === ERR_REFUSED) {
      const fmt = audio ? `; or it does not take ${audio.sampleRate} Hz audio` : '';
      return { kind: 'busy', message: `${radioName} refused the connection: it is in use by another client, or still holds an earlier session (it lets go within a minute, or restart the radio)${fmt}` };
    }
    if (s.disconnected) return { kind: 'failed', message: `stream request: ${radioName} answered "disconnected"` };
    if (s.error !== 0) return { kind: 'failed', message: `stream request: ${radioName} answered with error 0x${s.error.toString(16)}` };
    if (!s.civPort) return { kind: 'failed', message: `stream request: ${radioName} gave no CI-V port` };
    if (audio && !s.audioPort) return { kind: 'failed', message: `stream request: ${radioName} gave no audio port` };

    // The CI-V (and audio) streams
    const civConn = await civ.connect(this.ip, s.civPort);
    if (!civConn.ok) return { kind: 'failed', message: `CI-V stream: ${civConn.message}` };
    if (audio) {
      const c = await aud.connect(this.ip, s.audioPort);
      if (!c.ok) return { kind: 'failed', message: `audio stream: ${c.message}` };
    }
    const [civHs, audHs] = await Promise.all([civ.handshake(this.t.stream_ms), audio ? aud.handshake(this.t.stream_ms) : Promise.resolve({ kind: 'ready' as const })]);
    for (const [what, port, r] of [['CI-V', s.civPort, civHs], ['audio', s.audioPort, audHs]] as const) {
      if (r.kind === 'ready') continue;
      if (r.kind === 'timeout') return { kind: 'failed', message: `${what} stream: no answer on UDP port ${port} within ${secs(this.t.stream_ms)}` };
      if (r.kind === 'refused') return { kind: 'failed', message: `${what} stream: no answer on UDP port ${port} (${socketErrorText(r.code, r.code)})` };
      return this.abortedResult(r.kind === 'error' ? r.message : undefined);
    }
    if (this.aborted()) return this.abortedResult();

    this.sendCivOpenClose(CIV_OPEN);
    let attempts = 1;
    const retry = this.every(this.t.civ_open_retry_ms, () => {
      if (this.civDataSeen || attempts >= this.t.civ_open_attempts || this.st !== 'open') return retry.cancel();
      attempts++;
      this.sendCivOpenClose(CIV_OPEN);
    });
    this.timers.push(retry);
    if (audio && txOk) this.tx.attach({ send: (pcm, from, to) => this.sendAudio(pcm, from, to) });
    else if (audio) this.tx.detach(`${radioName} offers no TX audio`);
    this.st = 'open';
    const mac = this.caps?.mac ?? ci?.mac ?? '';
    log.info(`${host}: connected to ${radioName}${mac ? ` (${mac})` : ''}, CI-V port ${s.civPort}${audio ? `, audio port ${s.audioPort} at ${audio.sampleRate} Hz` : ''}`);
    return { kind: 'open', radio: { name: radioName, mac, civ_port: s.civPort, audio_port: audio ? s.audioPort : null } };
  }

  private aborted(): boolean {
    return this.openAbort !== null || this.st === 'closing' || this.st === 'closed';
  }

  private abortedResult(why?: string): LanOpenResult {
    const reason = why ?? this.openAbort ?? (this.st === 'closing' || this.st === 'closed' ? 'closed while connecting' : 'connection lost');
    return { kind: 'failed', message: reason };
  }

  private nextInner(): number {
    const v = this.innerSeq;
    this.innerSeq = (this.innerSeq + 1) & 0xffff;
    return v;
  }

  private makeStream(name: StreamName, decode: (b: Uint8Array) => LanPacket | null, sendIdle: boolean): LanStream {
    const s = new LanStream({ name, clock: this.clock, timings: this.t, sendIdle, decode, counters: this.counters, heartbeat: this.heartbeat });
    s.onLost = (reason) => this.streamLost(reason);
    return s;
  }

  private every(ms: number, fn: () => void): Timer {
    return every(this.clock, ms, fn);
  }

  private async waitFor<K extends LanPacket['kind']>(kind: K, match: (p: Extract<LanPacket, { kind: K }>) => boolean, ms: number, what: string): Promise<Got<K>> {
    const r = await this.waitForAny((e) => e.kind === kind && match(e as Extract<LanPacket, { kind: K }>), ms, what);
    return r.ok ? { ok: true, p: r.p as Extract<LanPacket, { kind: K }> } : r;
  }

  private async waitForAny(match: (e: SessionEvent) => boolean, ms: number, what: string): Promise<{ ok: true; p: SessionEvent } | { ok: false; why: string }> {
    if (this.aborted()) return { ok: false, why: this.openAbort ?? 'closed while connecting' };
    try {
      return { ok: true, p: await this.waitress.wait(match, ms, what) };
    } catch (err) {
      if (err instanceof TimeoutError) return { ok: false, why: `the radio did not send ${what} within ${secs(ms)}` };
      return { ok: false, why: (err as Error).message };
    }
  }

  private armConninfoWait(): void {
    if (!this.waitingConninfo || this.conninfoWaitTimer) return;
    this.conninfoWaitTimer = this.clock.setTimeout(() => this.waitress.offer({ kind: 'conninfo_wait_over' }), this.t.conninfo_wait_ms);
  }

  private sendToken(requestType: number): void {
    const c = this.control;
    if (!c) return;
    c.sendTracked(SIZE.TOKEN, (b) => b.set(encodeToken(c.wireIds, { requestType, innerSeq: this.nextInner(), tokRequest: this.tokRequest, token: this.token })));
  }

  private renewToken(): void {
    if (this.st !== 'open' && this.st !== 'streams') return;
    this.tokenStats.renewals_sent++;
    this.sendToken(TOKEN_REQ.RENEW);
    this.tokenAckTimer?.cancel();
    this.tokenAckTimer = this.clock.setTimeout(() => {
      this.tokenStats.renewals_unanswered++;
      log.warn(`${this.o.host}: no answer to the token renewal within ${secs(this.t.token_ack_ms)}`);
    }, this.t.token_ack_ms);
  }

  private onControlPacket(p: LanPacket): void {
    switch (p.kind) {
      case 'capabilities':
        if (p.radios.length > 0) {
          this.caps = p.radios[0];
          if (p.radios.length > 1) log.info(`${this.o.host}: ${p.radios.length} radios behind this server; using ${this.caps.name}`);
          if (this.loggedIn) this.armConninfoWait();
        }
        break;
      case 'token':
        if (p.a.requestReply !== DIR.REPLY) break;
        if (p.a.requestType === TOKEN_REQ.RENEW) {
          this.tokenAckTimer?.cancel();
          this.tokenAckTimer = null;
          if (p.response === 0) this.tokenStats.renewals_ok++;
          else if (p.response === ERR_REFUSED) this.streamLost('the radio rejected the token renewal');
          else log.warn(`${this.o.host}: unknown token renewal answer 0x${p.response.toString(16)}`);
        }
        break;
      case 'status':
        if (this.st !== 'open') break;
        if (p.error === ERR_REFUSED) this.streamLost('the radio ended the session');
        else if (p.disconnected) this.streamLost('the radio disconnected the session');
        break;
      case 'conninfo':
        if (this.st === 'open' && log.enabled('debug')) log.debug(() => `${this.o.host}: conninfo ${p.name} busy=${p.busy} by ${p.computer}`);
        break;
    }
    this.waitress.offer(p);
  }

  private onCivPacket(p: LanPacket): void {
    if (p.kind !== 'civ' || this.st !== 'open') return;
    this.civDataSeen = true;
    this.dataFns.emit(p.data);
  }

  private onAudioPacket(p: LanPacket): void {
    if (p.kind !== 'audio' || this.st !== 'open' || this.audioFns.size === 0) return;
    this.audioFns.emit(pcmFromBytes(p.data));
  }

  private sendCivOpenClose(magic: number): void {
    const s = this.civStream;
    if (!s) return;
    const seq = this.civSeq;
    this.civSeq = (this.civSeq + 1) & 0xffff;
    s.sendTracked(SIZE.OPENCLOSE, (b) => b.set(encodeOpenClose(s.wireIds, seq, magic)));
  }

  private sendAudio(pcm: Int16Array, from: number, to: number): boolean {
    const s = this.audioStream;
    if (!s || this.st !== 'open' || !s.isRunning) return false;
    const seq = this.audioSeq;
    this.audioSeq = (this.audioSeq + 1) & 0xffff;
    return s.sendTracked(audioPacketLength(to - from), (b) => writeAudioPacket(b, s.wireIds, seq, pcm, from, to));
  }

  private writeCiv(bytes: Uint8Array): Promise<void> {
    const s = this.civStream;
    if (this.st !== 'open' || !s || !s.isRunning) return Promise.reject(new Error(`${this.civ.path} is ${this.st === 'open' ? 'not ready' : this.st === 'new' ? 'not open' : this.st}`));
    if (bytes.length === 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      let pending = 0;
      let failed = false;
      const done = (err: Error | null) => {
        if (failed) return;
        if (err) {
          failed = true;
          reject(err);
        } else if (--pending === 0) resolve();
      };
      for (let from = 0; from < bytes.length; from += LAN_LIMITS.max_payload) {
        const to = Math.min(bytes.length, from + LAN_LIMITS.max_payload);
        const seq = this.civSeq;
        this.civSeq = (this.civSeq + 1) & 0xffff;
        pending++;
        s.sendTracked(civPacketLength(to - from), (b) => writeCivPacket(b, s.wireIds, seq, bytes, from, to), done);
      }
    });
  }

  private makeCivPipe(): SerialConnection {
    const host = this.o.host.includes(':') ? `[${this.o.host}]` : this.o.host;
    return {
      path: `lan://${host}:${this.o.controlPort || 50001}`,
      write: (bytes) => this.writeCiv(bytes),
      close: () => this.close(),
      onData: (fn) => {
        this.dataFns.add(fn);
      },
      onClose: (fn) => {
        this.closeFns.add(fn);
      },
    };
  }

  private emitCivClose(err: Error | null): void {
    this.closeFns.emitOnce(err);
  }

  /** A stream reported the radio gone (stale, disconnect) or the token was refused. */
  private streamLost(reason: string): void {
    if (this.st === 'open') {
      this.st = 'lost';
      log.warn(`${this.o.host}: session lost: ${reason}`);
      this.tx.detach(reason, 'lost');
      this.emitCivClose(new Error(reason));
      this.lostFns.emitOnce(reason);
      void this.teardown('lost');
      return;
    }
    if (this.st === 'closing' || this.st === 'closed' || this.st === 'lost') return;
    // Still opening: the open() in progress ends with this.
    if (this.openAbort === null) this.openAbort = reason;
    this.waitress.rejectAll(new Error(reason));
  }

  private stopTimers(): void {
    for (const t of this.timers) t.cancel();
    this.timers = [];
    this.tokenAckTimer?.cancel();
    this.tokenAckTimer = null;
    this.conninfoWaitTimer?.cancel();
    this.conninfoWaitTimer = null;
  }

  private async doClose(): Promise<void> {
    const was = this.st;
    if (was === 'closed') return;
    this.st = 'closing';
    this.tx.detach('the session was closed', 'aborted');
    this.stopTimers();
    if (this.openAbort === null) this.openAbort = 'closed while connecting';
    this.waitress.rejectAll(new Error('closed'));
    if (was === 'lost') {
      await this.closeStreams(false);
    } else {
      await this.goodbye();
    }
    this.st = 'closed';
    this.emitCivClose(null);
  }

  /** After a failed open or a loss: release what we can without waiting for answers. */
  private async teardown(why: 'failed' | 'lost'): Promise<void> {
    this.stopTimers();
    if (why === 'failed') {
      this.st = 'closing';
      this.tx.detach('the session did not open', 'lost');
      await this.goodbye();
      this.st = 'closed';
      this.emitCivClose(null);
      return;
    }
    // lost: the streams that are still up say goodbye; the token is removed if the control stream is alive
    if (this.loggedIn && this.control?.isRunning) this.sendToken(TOKEN_REQ.REMOVE);
    await this.closeStreams(true);
  }

  /**
   * The clean goodbye: CI-V close, disconnect on the CI-V and audio streams, token removal (and
   * its answer, at most close_ack_ms), then disconnect on the control stream.
   */
  private async goodbye(): Promise<void> {
    if (this.civStream?.isRunning) this.sendCivOpenClose(CIV_CLOSE);
    await Promise.all([this.civStream?.close(true), this.audioStream?.close(true), this.spareAudio?.close(false)]);
    const c = this.control;
    if (c && this.loggedIn && c.isRunning) {
      const waiter = new Waitress<LanPacket>(this.clock);
      const prevHandler = c.onPacket;
      c.onPacket = (p) => {
        waiter.offer(p);
        prevHandler(p);
      };
      this.sendToken(TOKEN_REQ.REMOVE);
      await waiter.wait((p) => p.kind === 'token' && p.a.requestType === TOKEN_REQ.REMOVE && p.a.requestReply === DIR.REPLY, this.t.close_ack_ms, 'token removal').catch(() => undefined);
    }
    await c?.close(true);
  }

  private async closeStreams(disconnect: boolean): Promise<void> {
    await Promise.all([this.civStream?.close(disconnect), this.audioStream?.close(disconnect), this.spareAudio?.close(false), this.control?.close(disconnect)]);
  }
}
