// Driver: one TCP connection to an APRS-IS server, kept up unattended. Connect (with a timeout),
// read the banner, log in, wait for `# logresp`, then carry gated lines up and server lines down.
// Every failure (refused, timeout, reset, server closing, silence) ends the session and a new one
// follows after a capped exponential backoff. Never throws; what went wrong lands in last_error.
//
// Rules from aprs-is.net ("Connecting to APRS-IS", "Server Design") and aprsc (keepalive every
// 20 s, 512-byte lines, doc/IGATE-HINTS.md): one connection at a time; a new DNS lookup on every
// connect (net.connect resolves each time, so rotate.aprs2.net keeps balancing); TCP_NODELAY;
// nothing buffered while the link is down (late copies make stations jump back on maps).
import type net from 'node:net';
import { iso, type Clock, type Timer } from '../../util/clock.js';
import { logger, type Logger } from '../../util/logger.js';
import { Reconnect } from '../../util/reconnect.js';
import { MAX_IS_LINE_BODY_BYTES, MAX_IS_LINE_BYTES, loginLine, parseServerLine } from './is-rules.js';
import { nodeTcpConnect, type TcpConnect } from '../../links/tcp-driver.js';

export interface AprsIsStatus {
  status: 'stopped' | 'connecting' | 'logging_in' | 'connected' | 'backoff';
  connected: boolean;
  /** From the login response; null until one arrives. */
  verified: boolean | null;
  /** host:port, then the server's own name from logresp: `rotate.aprs2.net:14580 (T2FINLAND)`. */
  server: string | null;
  last_connect_at: string | null;
  last_error: string | null;
  /** Packet lines handed to the socket by send() (login and keepalives not counted). */
  lines_sent: number;
  /** Packet lines from the server (comments not counted). */
  lines_received: number;
  /** send() calls refused: not connected, unverified, malformed, too long, queue full. */
  lines_dropped: number;
}

export interface AprsIsClientOptions {
  host: string;
  port: number;
  /** Login callsign with SSID. */
  callsign: string;
  /** -1: receive-only login. */
  passcode: number;
  filter: string;
  /** Limit for the TCP connect, and again for the login response after it. */
  connectTimeoutMs: number;
  clock: Clock;
  software: string;
  version: string;
  /** How to open the connection (the ground TCP driver by default; tests point it at fakes). Must return a socket that is still connecting. */
  connect?: TcpConnect;
  /** Each packet line from the server (server comments are not passed on). */
  onLine?: (line: string) => void;
  log?: Logger;
  /** Silence that counts as a dead link; servers send a comment about every 20 s. Default 2 min. */
  silenceMs?: number;
  /** A `#` comment goes up after this long without sending anything. Default 10 min. */
  keepaliveMs?: number;
  /** Backoff between sessions: base, doubling, capped. Default 5 s → 5 min. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** A session logged in at least this long resets the backoff. Default 60 s. */
  goodSessionMs?: number;
  /** Most bytes the socket may hold unsent; send() drops beyond it. Default 16 KiB. */
  maxQueueBytes?: number;
  /** 0 ≤ x < 1, spreads reconnects by up to +10 % (many IGates lose the same server). */
  random?: () => number;
}

interface Session {
  socket: net.Socket;
  phase: 'connecting' | 'logging_in' | 'connected';
  loginSent: boolean;
  loggedInAt: number | null;
  lastRxAt: number;
  lastTxAt: number;
  /** Bytes of a line not yet ended by LF. */
  partial: Buffer[];
  partialBytes: number;
  /** In the middle of an over-long line: drop up to the next LF. */
  discarding: boolean;
}

const DEFAULTS = {
  silenceMs: 120_000,
  keepaliveMs: 600_000,
  backoffBaseMs: 5_000,
  backoffMaxMs: 300_000,
  goodSessionMs: 60_000,
  maxQueueBytes: 16 * 1024,
};
/** How long to wait for the banner before logging in anyway (a proxy may strip it). */
const BANNER_WAIT_MS = 2_000;
/** stop(): the most a FIN handshake may take before the socket is destroyed. */
const CLOSE_GRACE_MS = 1_000;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));
/** Latin1 keeps one byte per character (APRS packets are bytes, not UTF-8); wider text goes as UTF-8. */
const encode = (s: string) => Buffer.from(s, /[^\u0000-\u00ff]/.test(s) ? 'utf8' : 'latin1');

export class AprsIsClient {
  private readonly o: AprsIsClientOptions & typeof DEFAULTS;
  private readonly log: Logger;
  private running = false;
  private session: Session | null = null;
  /** Between sessions; a session logged in for goodSessionMs starts the backoff over. */
  private readonly reconnect: Reconnect;
  private st: AprsIsStatus = { status: 'stopped', connected: false, verified: null, server: null, last_connect_at: null, last_error: null, lines_sent: 0, lines_received: 0, lines_dropped: 0 };
  // Every timer the client holds (the reconnect's too); all cancelled together when a session ends or stop() runs.
  private deadline: Timer | null = null;
  private bannerTimer: Timer | null = null;
  private watchdog: Timer | null = null;
  private keepalive: Timer | null = null;

  constructor(o: AprsIsClientOptions) {
    this.o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) } as AprsIsClientOptions & typeof DEFAULTS;
    this.log = o.log ?? logger('aprs:is');
    this.reconnect = new Reconnect(
      this.o.clock,
      { base_ms: this.o.backoffBaseMs, max_ms: this.o.backoffMaxMs, stable_ms: this.o.goodSessionMs },
      { spread: { fraction: 0.1, random: () => (this.o.random ?? Math.random)() } },
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.reconnect.reset();
    this.open();
  }

  /** Closes the connection (FIN, destroyed after a grace period) and stops reconnecting. */
  async stop(): Promise<void> {
    this.running = false;
    const s = this.session;
    this.endSession(false);
    this.st.status = 'stopped';
    this.st.connected = false;
    if (s) await closeGracefully(s.socket);
  }

  status(): AprsIsStatus {
    return { ...this.st };
  }

  /**
   * Queues one already-built line (CRLF optional). False when it is dropped and counted: not
   * logged in, logged in unverified (APRS-IS discards packets from such a login, so sending is
   * pointless), malformed or over 512 bytes, or the socket already holds maxQueueBytes unsent.
   * Nothing waits for a later connection: a late copy is worse than none on APRS-IS.
   */
  send(line: string): boolean {
    const s = this.session;
    if (!s || s.phase !== 'connected') return this.drop('not connected');
    if (this.st.verified === false) return this.drop('login unverified');
    const body = line.endsWith('\r\n') ? line.slice(0, -2) : line;
    if (!body || /[\r\n]/.test(body)) return this.drop('empty or contains CR/LF');
    const bytes = encode(body + '\r\n');
    if (bytes.length > MAX_IS_LINE_BYTES) return this.drop(`longer than ${MAX_IS_LINE_BYTES} bytes`);
    if (s.socket.writableLength + bytes.length > this.o.maxQueueBytes) return this.drop('send queue full');
    if (!this.write(s, bytes)) return this.drop('socket not writable');
    this.st.lines_sent++;
    return true;
  }

  private drop(why: string): false {
    this.st.lines_dropped++;
    this.log.debug(() => `line dropped: ${why}`);
    return false;
  }

  private open(): void {
    if (!this.running) return;
    const { host, port, clock, connectTimeoutMs } = this.o;
    this.st.status = 'connecting';
    this.st.connected = false;
    this.st.verified = null;
    this.st.server = `${host}:${port}`;
    let socket: net.Socket;
    try {
      socket = (this.o.connect ?? nodeTcpConnect)(host, port);
    } catch (e) {
      this.fail(null, `cannot connect to ${host}:${port}: ${message(e)}`);
      return;
    }
    const now = clock.now();
    const s: Session = { socket, phase: 'connecting', loginSent: false, loggedInAt: null, lastRxAt: now, lastTxAt: now, partial: [], partialBytes: 0, discarding: false };
    this.session = s;
    this.deadline = clock.setTimeout(() => this.fail(s, `no connection to ${host}:${port} within ${connectTimeoutMs} ms`), connectTimeoutMs);
    // Handlers stay attached after a session ends (an 'error' without a listener would crash the
    // process); each checks that its session is still the current one.
    const guard = (fn: () => void) => () => {
      try {
        fn();
      } catch (e) {
        this.fail(s, `internal error: ${message(e)}`);
      }
    };
    socket.on('connect', guard(() => this.onConnect(s)));
    socket.on('data', (chunk: Buffer) => guard(() => this.onData(s, chunk))());
    socket.on('error', (e: NodeJS.ErrnoException) => this.fail(s, e.message || e.code || 'socket error'));
    socket.on('end', () => this.fail(s, 'server closed the connection'));
    socket.on('close', () => this.fail(s, 'connection closed'));
    if (!socket.connecting && socket.readyState === 'open') queueMicrotask(guard(() => this.onConnect(s)));
  }

  private onConnect(s: Session): void {
    if (this.session !== s || s.phase !== 'connecting') return;
    const { clock, connectTimeoutMs } = this.o;
    this.deadline?.cancel();
    s.phase = 'logging_in';
    s.lastRxAt = clock.now();
    this.st.status = 'logging_in';
    this.st.last_connect_at = iso(clock.now());
    s.socket.setNoDelay(true); // aprs-is.net: Nagle adds delay to every line
    this.log.info(`connected to ${this.o.host}:${this.o.port}, logging in as ${this.o.callsign}`);
    this.deadline = clock.setTimeout(() => this.fail(s, `no login response within ${connectTimeoutMs} ms`), connectTimeoutMs);
    this.bannerTimer = clock.setTimeout(() => this.sendLogin(s), Math.min(BANNER_WAIT_MS, connectTimeoutMs / 2));
  }

  private sendLogin(s: Session): void {
    if (this.session !== s || s.loginSent) return;
    s.loginSent = true;
    this.bannerTimer?.cancel();
    const { callsign, passcode, software, version, filter } = this.o;
    this.write(s, encode(loginLine({ callsign, passcode, software, version, filter })));
  }

  /** Splits the stream into LF-ended lines (CR before it removed), across reads, capped at 512 bytes. */
  private onData(s: Session, chunk: Buffer): void {
    if (this.session !== s) return;
    s.lastRxAt = this.o.clock.now();
    let start = 0;
    for (let lf = chunk.indexOf(0x0a); lf >= 0 && this.session === s; lf = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, lf);
      start = lf + 1;
      if (s.discarding) {
        s.discarding = false; // the tail of an over-long line
        continue;
      }
      const whole = s.partialBytes ? Buffer.concat([...s.partial, piece]) : piece;
      s.partial = [];
      s.partialBytes = 0;
      const end = whole.length && whole[whole.length - 1] === 0x0d ? whole.length - 1 : whole.length;
      if (end > MAX_IS_LINE_BODY_BYTES) this.log.debug(() => `over-long line from the server dropped (${end} bytes)`);
      else if (end > 0) this.onLine(s, whole.toString('latin1', 0, end));
    }
    if (this.session !== s || start >= chunk.length || s.discarding) return;
    const rest = chunk.subarray(start);
    if (s.partialBytes + rest.length > MAX_IS_LINE_BYTES) {
      s.partial = [];
      s.partialBytes = 0;
      s.discarding = true;
      return;
    }
    s.partial.push(Buffer.from(rest)); // a copy: the chunk's memory is not ours to keep
    s.partialBytes += rest.length;
  }

  private onLine(s: Session, text: string): void {
    if (s.phase === 'logging_in' && !s.loginSent) this.sendLogin(s); // the banner: our turn
    const line = parseServerLine(text);
    if (line.kind === 'logresp') {
      if (s.phase === 'logging_in') this.onLoggedIn(s, line.verified, line.server);
      return;
    }
    if (line.kind !== 'packet') return;
    this.st.lines_received++;
    try {
      this.o.onLine?.(line.line);
    } catch (e) {
      this.log.warn('onLine handler failed', e);
    }
  }

  private onLoggedIn(s: Session, verified: boolean, serverName: string | null): void {
    const { clock, host, port } = this.o;
    this.deadline?.cancel();
    this.deadline = null;
    s.phase = 'connected';
    s.loggedInAt = clock.now();
    this.reconnect.up();
    this.st.status = 'connected';
    this.st.connected = true;
    this.st.verified = verified;
    this.st.server = `${host}:${port}${serverName ? ` (${serverName})` : ''}`;
    if (verified) this.log.info(`logged in to ${this.st.server}, verified`);
    else {
      this.st.last_error = 'login unverified (passcode -1 or wrong): APRS-IS takes no packets from this login, nothing is gated';
      this.log.warn(`logged in to ${this.st.server} unverified: receive-only, nothing will be gated`);
    }
    this.armWatchdog(s, this.o.silenceMs);
    this.armKeepalive(s, this.o.keepaliveMs);
  }

  /** Fires when silenceMs have passed since the last byte; re-arms for the remainder otherwise. */
  private armWatchdog(s: Session, ms: number): void {
    this.watchdog = this.o.clock.setTimeout(() => {
      if (this.session !== s) return;
      const idle = this.o.clock.now() - s.lastRxAt;
      if (idle >= this.o.silenceMs) this.fail(s, `no data from the server for ${Math.round(idle / 1000)} s`);
      else this.armWatchdog(s, this.o.silenceMs - idle);
    }, ms);
  }

  /**
   * Client keepalives are optional on APRS-IS (aprsc drops a silent client after 48 h by
   * default) and not wanted more often than every 20 s; one comment after keepaliveMs without
   * sending anything keeps quiet links (no RF traffic for hours) from being timed out.
   */
  private armKeepalive(s: Session, ms: number): void {
    this.keepalive = this.o.clock.setTimeout(() => {
      if (this.session !== s) return;
      const quiet = this.o.clock.now() - s.lastTxAt;
      if (quiet >= this.o.keepaliveMs) {
        this.write(s, encode(`# ${this.o.software} ${this.o.version} keepalive\r\n`));
        this.armKeepalive(s, this.o.keepaliveMs);
      } else this.armKeepalive(s, this.o.keepaliveMs - quiet);
    }, ms);
  }

  private write(s: Session, bytes: Buffer): boolean {
    if (s.socket.destroyed || !s.socket.writable) return false;
    try {
      s.socket.write(bytes);
      s.lastTxAt = this.o.clock.now();
      return true;
    } catch (e) {
      this.fail(s, `write failed: ${message(e)}`);
      return false;
    }
  }

  /** Ends the session (if s is still the current one) and schedules the next attempt. */
  private fail(s: Session | null, reason: string): void {
    if (s && this.session !== s) return; // an event from a session already over
    this.endSession(true);
    this.st.connected = false;
    this.st.last_error = reason;
    if (!this.running) {
      this.st.status = 'stopped';
      return;
    }
    const delay = this.reconnect.schedule(() => this.open())!; // endSession cancelled any pending one
    this.st.status = 'backoff';
    this.log.warn(`${this.o.host}:${this.o.port}: ${reason}; reconnecting in ${Math.round(delay / 1000)} s`);
  }

  /** Cancels every timer and lets go of the current session, destroying its socket if asked. */
  private endSession(destroy: boolean): void {
    this.reconnect.cancel();
    for (const t of [this.deadline, this.bannerTimer, this.watchdog, this.keepalive]) t?.cancel();
    this.deadline = this.bannerTimer = this.watchdog = this.keepalive = null;
    const s = this.session;
    this.session = null;
    if (s && destroy) s.socket.destroy();
  }
}

/** FIN when nothing is pending, else (or after a grace period) destroy; resolves once closed. */
function closeGracefully(socket: net.Socket): Promise<void> {
  if (socket.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    socket.once('close', () => resolve());
    if (socket.pending || socket.writableLength > 0) {
      socket.destroy(); // nothing to say to a peer we never reached, or one that stopped reading
      return;
    }
    socket.setTimeout(CLOSE_GRACE_MS, () => socket.destroy());
    socket.end();
  });
}
