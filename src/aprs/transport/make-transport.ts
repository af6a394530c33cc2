import type net from 'node:net';
import { join } from 'node:path';
import type { AprsSettings } from '../settings.js';
import { TransportStartError, type AprsTransport, type TransportStatus } from './transport.js';
import { PtyKissConnection, TcpKissConnection, type KissConnection } from '../kiss/kiss-connection.js';
import { TncProcess } from '../tnc/tnc-process.js';
import { direwolfLaunch, mycallFor, pttPlanFor, type PttPlan } from '../tnc/direwolf-config.js';
import { resolveTncBinary } from '../tnc/tnc-binary.js';
import type { SerialDriver } from '../../links/serial-driver.js';
import type { StationIdentity } from '../../ham/callsign.js';
import type { Clock } from '../../util/clock.js';
import { Reconnect } from '../../util/reconnect.js';
import { Listeners } from '../../util/listeners.js';
import { logger } from '../../util/logger.js';

// The two USB-side transports. Dire Wolf: our sidecar, KISS on the pseudo-terminal it makes
// (-p), AGW and KISS network ports off, so nothing that can key the transmitter listens on a
// socket. External: the operator's own KISS TNC at kiss_host:kiss_port over TCP.

const log = logger('aprs:transport');

export interface TransportOptions {
  dataDir: string;
  clock: Clock;
  identity: StationIdentity;
  serial: SerialDriver;
  /** How long connect waits for Dire Wolf to announce its pseudo-terminal. */
  ptyWaitMs: number;
  /** Extra environment for the sidecar (tests: ALSA config for audio loopback). */
  env?: NodeJS.ProcessEnv;
  /** The APRS-IS socket seam, passed on to the iGate. */
  isConnect?: (host: string, port: number) => net.Socket;
}

export interface MadeTransport {
  transport: AprsTransport;
  /** The serial device this transport's PTT opens (claimed before start). */
  claimDevice: string | null;
  ownedResource: string | null;
}

const RECONNECT = { base_ms: 1000, max_ms: 30_000 };

/** Received AX.25 frames of a link (KISS data frames of port 0) fanned out to the listeners. */
class FrameFanout {
  private readonly fns = new Listeners<Uint8Array>(log, 'received frame');
  attach(link: KissConnection): void {
    link.onFrame((f) => {
      if (f.command !== 0 || f.port !== 0) return;
      this.fns.emit(f.data);
    });
  }
  add(fn: (ax25: Uint8Array) => void): void {
    this.fns.add(fn);
  }
}

function pttResource(p: PttPlan): { device: string | null; text: string | null } {
  switch (p.kind) {
    case 'hamlib':
      return { device: p.device, text: `${p.device} (Dire Wolf PTT over CAT, rig model ${p.model})` };
    case 'serial-line':
      return { device: p.device, text: `${p.device} (Dire Wolf PTT on ${p.line})` };
    case 'cm108':
      return { device: p.device, text: `${p.device ?? 'CM108 sound card'} (Dire Wolf PTT on the CM108 GPIO)` };
    case 'none':
      return { device: null, text: null };
  }
}

export function makeTransport(s: AprsSettings, o: TransportOptions): MadeTransport {
  if (s.kiss_host) return { transport: new ExternalKissTransport(s.kiss_host, s.kiss_port, o.clock), claimDevice: null, ownedResource: `KISS TNC at ${s.kiss_host}:${s.kiss_port}` };
  const ptt = pttPlanFor(s);
  const r = pttResource(ptt);
  return { transport: new DirewolfTransport(s, ptt, o), claimDevice: r.device, ownedResource: r.text ?? 'Dire Wolf sidecar (receive only, no PTT line)' };
}

/** Dire Wolf as a child process; its KISS pseudo-terminal opened through a KissConnection, reopened on each restart. */
export class DirewolfTransport implements AprsTransport {
  private readonly statusFns = new Listeners<void>(log, 'transport status');
  readonly kind = 'direwolf' as const;
  private readonly tnc: TncProcess;
  private readonly frames = new FrameFanout();
  private link: KissConnection | null = null;
  private linkError: string | null = null;
  /** The open under way for the latest announced pseudo-terminal. */
  private attaching: Promise<void> = Promise.resolve();

  /**
   * decodeOnlyRate: the Wi-Fi transport's receiver. Audio comes in through feedAudio() (standard
   * input), there is no PTT and no output device, and send() is refused: our own modem transmits.
   */
  constructor(s: AprsSettings, private readonly ptt: PttPlan, private readonly o: TransportOptions, private readonly decodeOnlyRate?: number) {
    const bin = resolveTncBinary(s.tnc_binary, o.env);
    const configPath = join(o.dataDir, 'direwolf.conf');
    // The configuration is checked here so a bad device name is a clear error, not a crash loop.
    const launch = direwolfLaunch({ mycall: mycallFor(s), audioIn: s.audio_input_device, audioOut: s.audio_output_device, ptt, configPath, decodeOnlyStdinRate: decodeOnlyRate });
    this.tnc = new TncProcess({
      stdin: decodeOnlyRate ? 'hold' : 'ignore',
      binary: bin.resolvedBinary || s.tnc_binary || 'direwolf',
      args: launch.args,
      configPath,
      configText: launch.configText,
      clock: o.clock,
      env: o.env ? { ...process.env, ...o.env } : undefined,
    });
    this.tnc.onPty((path) => {
      this.attaching = this.attach(path).finally(() => this.statusFns.emit());
      this.statusFns.emit();
    });
    this.tnc.onExit(() => this.statusFns.emit());
  }

  onStatus(fn: () => void): void {
    this.statusFns.add(fn);
  }

  /** Each announced pseudo-terminal (a restart makes a new one) gets a fresh link; null closes it. */
  private async attach(path: string | null): Promise<void> {
    const old = this.link;
    this.link = null;
    await old?.close();
    if (!path) return;
    const link = new PtyKissConnection(path, { serial: this.o.serial, clock: this.o.clock });
    this.frames.attach(link);
    link.onClose((err) => {
      if (err) this.linkError = `KISS pseudo-terminal closed: ${err}`;
      this.statusFns.emit();
    });
    const r = await link.open();
    if (!r.ok) {
      this.linkError = `cannot open the KISS pseudo-terminal ${path}: ${r.error}`;
      return;
    }
    this.link = link;
    this.linkError = null;
  }

  async start(): Promise<void> {
    const r = await this.tnc.start();
    if (!r.ok) throw new Error(r.error);
    const pty = await this.tnc.waitForPty(this.o.ptyWaitMs);
    if (!pty) {
      // Ended, or said it cannot work: stop it (no restart loop for a start that failed), then
      // explain from everything it printed, the lines after the failure included.
      await this.tnc.stop();
      const t = this.tnc.status();
      const message = t.diagnosis ? `${t.diagnosis.summary}. ${t.diagnosis.fix}` : t.last_error ?? `Dire Wolf announced no KISS pseudo-terminal within ${this.o.ptyWaitMs} ms`;
      throw new TransportStartError(message, 'tnc_start_failed', { problem: t.diagnosis?.kind ?? null, last_exit: t.last_exit, output_tail: t.output_tail.slice(-20) });
    }
    await this.attaching;
    if (!this.link?.connected) throw new Error(this.linkError ?? 'the KISS pseudo-terminal did not open');
  }

  async stop(): Promise<void> {
    const l = this.link;
    this.link = null;
    await l?.close();
    await this.tnc.stop();
  }

  kill(): void {
    // SIGINT first: Dire Wolf drops PTT in its handler; SIGKILL follows shortly.
    this.tnc.kill();
    const l = this.link;
    this.link = null;
    void l?.close();
  }

  send(ax25: Uint8Array): boolean {
    if (this.decodeOnlyRate) return false;
    return this.link?.send(ax25) ?? false;
  }

  /** Receive audio for the decode-only sidecar (16-bit mono samples); false when dropped. */
  feedAudio(pcm: Int16Array): boolean {
    // A copy: the pipe keeps the chunk until the child reads it, and the caller may reuse pcm.
    return this.tnc.writeStdin(Buffer.from(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)));
  }

  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.frames.add(fn);
  }

  status(): TransportStatus {
    const t = this.tnc.status();
    return {
      sidecar_running: t.running,
      kiss_connected: this.link?.connected ?? false,
      modem_state: t.state === 'running' ? `Dire Wolf 1200 baud AFSK${t.ptt_unavailable && this.ptt.kind !== 'none' ? ' (PTT unavailable: receive only)' : ''}` : t.state === 'failing' ? `failing: ${t.diagnosis?.summary ?? t.last_exit ?? 'not running'}` : t.last_exit ? `stopped (${t.last_exit})` : 'starting',
      control_endpoint: t.pty_path ? `KISS on ${t.pty_path}` : 'KISS pseudo-terminal (not yet announced)',
      sidecar_command: t.command,
      output_tail: t.output_tail,
      last_error: this.linkError ?? t.last_error,
      ptt_unavailable: this.ptt.kind !== 'none' && t.ptt_unavailable,
      sidecar: { state: t.state, failures: t.failures, next_restart_at: t.next_restart_at, diagnosis: t.diagnosis },
    };
  }
}

/** An operator's KISS TNC over TCP, reopened with capped backoff while wanted. */
export class ExternalKissTransport implements AprsTransport {
  private readonly statusFns = new Listeners<void>(log, 'transport status');
  readonly kind = 'external-kiss' as const;
  private readonly frames = new FrameFanout();
  private readonly link: TcpKissConnection;
  private want = false;
  private readonly retry: Reconnect;
  private lastError: string | null = null;

  constructor(host: string, port: number, clock: Clock) {
    this.retry = new Reconnect(clock, RECONNECT);
    this.link = new TcpKissConnection(host, port, { clock });
    this.frames.attach(this.link);
    this.link.onClose((err) => {
      if (err) this.lastError = `KISS TNC ${this.link.endpoint}: ${err}`;
      if (this.want) this.scheduleReconnect();
      this.statusFns.emit();
    });
  }

  onStatus(fn: () => void): void {
    this.statusFns.add(fn);
  }

  private async open(): Promise<boolean> {
    const r = await this.link.open();
    if (r.ok) {
      this.retry.up();
      this.lastError = null;
    } else this.lastError = `KISS TNC ${this.link.endpoint}: ${r.error}`;
    this.statusFns.emit();
    return r.ok;
  }

  private scheduleReconnect(): void {
    const ms = this.retry.schedule(() => {
      if (this.want) void this.open().then((ok) => !ok && this.want && this.scheduleReconnect());
    });
    if (ms !== null) log.info(`KISS TNC ${this.link.endpoint} lost; reconnecting in ${ms} ms`);
  }

  async start(): Promise<void> {
    this.want = true;
    if (!(await this.open())) {
      this.want = false;
      throw new Error(this.lastError ?? 'KISS TNC did not answer');
    }
  }

  async stop(): Promise<void> {
    this.want = false;
    this.retry.cancel();
    await this.link.close();
  }

  kill(): void {
    void this.stop();
  }

  send(ax25: Uint8Array): boolean {
    return this.link.send(ax25);
  }

  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.frames.add(fn);
  }

  status(): TransportStatus {
    const up = this.link.connected;
    return {
      sidecar_running: false,
      kiss_connected: up,
      modem_state: up ? 'external KISS TNC' : this.want ? 'reconnecting to the external KISS TNC' : 'stopped',
      control_endpoint: this.link.endpoint,
      sidecar_command: [],
      output_tail: [],
      last_error: this.lastError,
      ptt_unavailable: false,
    };
  }
}
