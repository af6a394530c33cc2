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
// The session owns the streams' lifecycle (bind, connect, handshake, close), the order of the
// opening conversation and the session's state; what each stream's packets mean is its channel's
// (control-channel.ts, civ-channel.ts, audio-channel.ts), what the radio's answers mean in words
// is open-answers.ts.
//
// open() never throws and answers with a union; the session is single use. close() says goodbye
// properly (CI-V close, disconnects, token removal) so the radio is free for the next client.
import { systemClock, type Clock } from '../../util/clock.js';
import { logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';
import { TimeoutError, Waitress } from '../../util/waitress.js';
import type { SerialConnection } from '../../links/serial-driver.js';
import type { LanAudioTx } from './audio-tx.js';
import { AudioChannel } from './audio-channel.js';
import { CivChannel } from './civ-channel.js';
import { ControlChannel, type ControlEvent, type TokenStats } from './control-channel.js';
import { Heartbeat, LanStream, heartbeatMs, newCounters, resolveHost, socketErrorText, type LanCounters, type StreamName } from './lan-stream.js';
import { busyMessage, radioNameOf, secs, statusRefusal, streamRates } from './open-answers.js';
import { CODEC, LOGIN_ERR_CREDENTIALS, decodeAudioStream, decodeCivStream, decodeControlStream, type LanPacket } from './packets.js';
import type { LanOpenResult, LanSessionOptions, LanSessionState, LanSessionStats } from './session-types.js';
import { resolveTimings, type LanTimings } from './timings.js';

export type { LanOpenResult, LanSessionOptions, LanSessionState, LanSessionStats } from './session-types.js';

const log = logger('radio:lan');

/** What the wait for a packet ended with. */
type Got<K extends LanPacket['kind']> = { ok: true; p: Extract<LanPacket, { kind: K }> } | { ok: false; why: string };

const DEFAULT_CLIENT_NAME = 'satstation';

export class IcomLanSession {
  readonly civ: SerialConnection;
  readonly audioTx: LanAudioTx;
  /** Token renewals sent / answered, for tests and logs. */
  readonly tokenStats: Readonly<TokenStats>;

  private readonly o: LanSessionOptions;
  private readonly clock: Clock;
  private readonly t: LanTimings;
  private readonly counters: LanCounters = newCounters();
  private readonly clientName: string;
  private readonly waitress: Waitress<ControlEvent>;
  private readonly heartbeat: Heartbeat;
  private readonly controlCh: ControlChannel;
  private readonly civCh: CivChannel;
  private readonly audioCh: AudioChannel;
  private st: LanSessionState = 'new';
  private control: LanStream | null = null;
  private civStream: LanStream | null = null;
  private audioStream: LanStream | null = null;
  private spareAudio: LanStream | null = null;
  private openAbort: string | null = null;
  private closePromise: Promise<void> | null = null;
  private readonly lostFns = new Listeners<string>(log, 'session lost');

  constructor(opts: LanSessionOptions) {
    this.o = { ...opts, controlPort: opts.controlPort || 50001 };
    this.clock = opts.clock ?? systemClock;
    this.t = resolveTimings(opts.timings);
    this.clientName = (opts.clientName ?? DEFAULT_CLIENT_NAME).slice(0, 15);
    this.waitress = new Waitress<ControlEvent>(this.clock);
    this.heartbeat = new Heartbeat(this.clock, heartbeatMs(this.t));
    const state = () => this.st;
    const { host, username, password } = this.o;
    this.controlCh = new ControlChannel({
      host,
      username,
      password,
      clientName: this.clientName,
      clock: this.clock,
      timings: this.t,
      log,
      state,
      offer: (e) => this.waitress.offer(e),
      lost: (reason) => this.streamLost(reason),
    });
    this.tokenStats = this.controlCh.tokenStats;
    const pipeHost = host.includes(':') ? `[${host}]` : host;
    this.civCh = new CivChannel({ path: `lan://${pipeHost}:${this.o.controlPort}`, clock: this.clock, timings: this.t, log, state, close: () => this.close() });
    this.civ = this.civCh.pipe;
    this.audioCh = new AudioChannel({ audio: opts.audio ?? null, timings: this.t, pacer: opts.pacer, log, state });
    this.audioTx = this.audioCh.tx;
  }

  get state(): LanSessionState {
    return this.st;
  }

  /** Receive audio, one packet at a time; pcm may be a view of the datagram: copy what is kept. */
  onAudio(fn: (pcm: Int16Array) => void): () => void {
    return this.audioCh.onAudio(fn);
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
    const ip = addr.ip;
    if (this.aborted()) return this.abortedResult();

    const control = (this.control = this.makeStream('control', decodeControlStream, true));
    this.controlCh.attach(control);
    const bound = await control.bind(addr.family);
    if (!bound.ok) return { kind: 'failed', message: `control stream: ${bound.message}` };
    const conn = await control.connect(ip, controlPort);
    if (!conn.ok) return { kind: 'failed', message: `control stream: ${conn.message}` };
    const hs = await control.handshake(this.t.connect_ms);
    if (hs.kind === 'timeout') return { kind: 'unreachable', message: `host ${host} did not respond on UDP port ${controlPort} within ${secs(this.t.connect_ms)}` };
    if (hs.kind === 'refused') return { kind: 'unreachable', message: `host ${host} did not respond on UDP port ${controlPort} (${socketErrorText(hs.code, hs.code)})` };
    if (hs.kind !== 'ready') return this.abortedResult(hs.kind === 'error' ? hs.message : 'closed while connecting');

    // Login
    this.st = 'login';
    this.controlCh.sendLogin();
    const login = await this.waitFor('login_response', (p) => this.controlCh.answersLogin(p), this.t.login_ms, 'the login answer');
    if (!login.ok) return { kind: 'failed', message: `login: ${login.why}` };
    if (login.p.error === LOGIN_ERR_CREDENTIALS) return { kind: 'login_rejected', message: `the radio rejected the user name or password for "${this.o.username}"` };
    if (login.p.error !== 0) return { kind: 'login_rejected', message: `the radio refused the login (error 0x${login.p.error.toString(16)})` };
    this.controlCh.loggedInWith(login.p.a.token);

    // Which radio, and is it free?
    const info = await this.waitForAny((e) => e.kind === 'conninfo' || e.kind === 'conninfo_wait_over', this.t.login_ms, "the radio's connection info");
    this.controlCh.conninfoSettled();
    if (!info.ok) return { kind: 'failed', message: `login: ${info.why}` };
    const ci = info.p.kind === 'conninfo' ? info.p : null;
    const caps = this.controlCh.caps;
    const radioName = radioNameOf(caps, ci);
    const busy = busyMessage(ci, radioName, { clientName: this.clientName, localAddress: control.localAddress });
    if (busy !== null) return { kind: 'busy', message: busy };

    // Our sockets first, so the request can name their ports
    this.st = 'streams';
    const audio = this.o.audio ?? null;
    const civ = (this.civStream = this.makeStream('civ', decodeCivStream, true));
    this.civCh.attach(civ);
    const civBound = await civ.bind(addr.family);
    if (!civBound.ok) return { kind: 'failed', message: `CI-V stream: ${civBound.message}` };
    // Without audio we still ask for RX audio as every known client does (and name a real port), but never open it.
    const aud = this.makeStream('audio', decodeAudioStream, false);
    if (audio) {
      this.audioStream = aud;
      this.audioCh.attach(aud);
    } else this.spareAudio = aud;
    const audBound = await aud.bind(addr.family);
    if (!audBound.ok) return { kind: 'failed', message: `audio stream: ${audBound.message}` };
    if (this.aborted()) return this.abortedResult();

    const rates = streamRates(caps, audio);
    if (audio && rates.unlisted) log.warn(`${radioName} does not list ${audio.sampleRate} Hz among its sample rates (mask 0x${caps!.rxSampleMask.toString(16)}); asking anyway`);
    this.controlCh.requestStreams({
      ident: caps?.ident ?? ci?.ident,
      radioName,
      rxEnable: true,
      txEnable: rates.txOk,
      rxCodec: CODEC.PCM16_1CH,
      txCodec: rates.txOk ? CODEC.PCM16_1CH : 0,
      rxSampleRate: rates.rxSampleRate,
      txSampleRate: rates.txSampleRate,
      civPort: civBound.port,
      audioPort: audBound.port,
      txBufferMs: this.t.tx_buffer_ms,
    });
    const status = await this.waitFor('status', () => true, this.t.login_ms, 'the stream ports (status)');
    if (!status.ok) return { kind: 'failed', message: `stream request: ${status.why}` };
    const s = status.p;
    const refusal = statusRefusal(s, radioName, audio);
    if (refusal) return refusal;

    // The CI-V (and audio) streams
    const civConn = await civ.connect(ip, s.civPort);
    if (!civConn.ok) return { kind: 'failed', message: `CI-V stream: ${civConn.message}` };
    if (audio) {
      const c = await aud.connect(ip, s.audioPort);
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

    this.civCh.open();
    if (audio) this.audioCh.startTx(rates.txOk, radioName);
    this.st = 'open';
    const mac = caps?.mac ?? ci?.mac ?? '';
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

  private makeStream(name: StreamName, decode: (b: Uint8Array) => LanPacket | null, sendIdle: boolean): LanStream {
    const s = new LanStream({ name, clock: this.clock, timings: this.t, sendIdle, decode, counters: this.counters, heartbeat: this.heartbeat });
    s.onLost = (reason) => this.streamLost(reason);
    return s;
  }

  private async waitFor<K extends LanPacket['kind']>(kind: K, match: (p: Extract<LanPacket, { kind: K }>) => boolean, ms: number, what: string): Promise<Got<K>> {
    const r = await this.waitForAny((e) => e.kind === kind && match(e as Extract<LanPacket, { kind: K }>), ms, what);
    return r.ok ? { ok: true, p: r.p as Extract<LanPacket, { kind: K }> } : r;
  }

  private async waitForAny(match: (e: ControlEvent) => boolean, ms: number, what: string): Promise<{ ok: true; p: ControlEvent } | { ok: false; why: string }> {
    if (this.aborted()) return { ok: false, why: this.openAbort ?? 'closed while connecting' };
    try {
      return { ok: true, p: await this.waitress.wait(match, ms, what) };
    } catch (err) {
      if (err instanceof TimeoutError) return { ok: false, why: `the radio did not send ${what} within ${secs(ms)}` };
      return { ok: false, why: (err as Error).message };
    }
  }

  /** A stream reported the radio gone (stale, disconnect) or the token was refused. */
  private streamLost(reason: string): void {
    if (this.st === 'open') {
      this.st = 'lost';
      log.warn(`${this.o.host}: session lost: ${reason}`);
      this.audioCh.tx.detach(reason, 'lost');
      this.civCh.closed(new Error(reason));
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
    this.controlCh.stopTimers();
    this.civCh.stopTimers();
  }

  private async doClose(): Promise<void> {
    const was = this.st;
    if (was === 'closed') return;
    this.st = 'closing';
    this.audioCh.tx.detach('the session was closed', 'aborted');
    this.stopTimers();
    if (this.openAbort === null) this.openAbort = 'closed while connecting';
    this.waitress.rejectAll(new Error('closed'));
    if (was === 'lost') {
      await this.closeStreams(false);
    } else {
      await this.goodbye();
    }
    this.st = 'closed';
    this.civCh.closed(null);
  }

  /** After a failed open or a loss: release what we can without waiting for answers. */
  private async teardown(why: 'failed' | 'lost'): Promise<void> {
    this.stopTimers();
    if (why === 'failed') {
      this.st = 'closing';
      this.audioCh.tx.detach('the session did not open', 'lost');
      await this.goodbye();
      this.st = 'closed';
      this.civCh.closed(null);
      return;
    }
    // lost: the streams that are still up say goodbye; the token is removed if the control stream is alive
    this.controlCh.dropToken();
    await this.closeStreams(true);
  }

  /**
   * The clean goodbye: CI-V close, disconnect on the CI-V and audio streams, token removal (and
   * its answer, at most close_ack_ms), then disconnect on the control stream.
   */
  private async goodbye(): Promise<void> {
    this.civCh.sayClose();
    await Promise.all([this.civStream?.close(true), this.audioStream?.close(true), this.spareAudio?.close(false)]);
    await this.controlCh.goodbye();
    await this.control?.close(true);
  }

  private async closeStreams(disconnect: boolean): Promise<void> {
    await Promise.all([this.civStream?.close(disconnect), this.audioStream?.close(disconnect), this.spareAudio?.close(false), this.control?.close(disconnect)]);
  }
}
