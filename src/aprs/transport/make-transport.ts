import net from 'node:net';
import { join } from 'node:path';
import type { AprsSettings } from '../settings.js';
import type { AprsTransport, TransportStatus } from './transport.js';
import { KissDecoder, encodeKiss } from '../codec/kiss.js';
import { TncProcess } from '../tnc/tnc-process.js';
import { direwolfLaunch, mycallFor, pttPlanFor, type PttPlan } from '../tnc/direwolf-config.js';
import { resolveTncBinary } from '../tnc/tnc-binary.js';
import type { SerialConnection, SerialDriver } from '../../radio/link/serial-driver.js';
import { nodeSerialDriver } from '../../radio/link/serial-driver.js';
import type { StationIdentity } from '../../station/callsign.js';
import type { Clock, Timer } from '../../util/clock.js';
import { backoffMs } from '../../util/queue.js';
import { errorMessage } from '../../util/errors.js';
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

/** Frames in and out of a KISS byte stream, whatever carries the bytes. */
class KissFraming {
  private frameFns: Array<(ax25: Uint8Array) => void> = [];
  readonly decoder = new KissDecoder((f) => {
    if (f.command !== 0 || f.port !== 0) return; // data frames of port 0 only
    for (const fn of this.frameFns) fn(f.data);
  });
  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.frameFns.push(fn);
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

/** Dire Wolf as a child process; its KISS pseudo-terminal opened with serialport, reopened on each restart. */
export class DirewolfTransport implements AprsTransport {
  readonly kind = 'direwolf' as const;
  private readonly tnc: TncProcess;
  private readonly framing = new KissFraming();
  private conn: SerialConnection | null = null;
  private linkError: string | null = null;

  constructor(s: AprsSettings, private readonly ptt: PttPlan, private readonly o: TransportOptions) {
    const bin = resolveTncBinary(s.tnc_binary, o.env);
    const configPath = join(o.dataDir, 'direwolf.conf');
    // The configuration is checked here so a bad device name is a clear error, not a crash loop.
    const launch = direwolfLaunch({ mycall: mycallFor(s), audioIn: s.audio_input_device, audioOut: s.audio_output_device, ptt, configPath });
    this.tnc = new TncProcess({
      binary: bin.resolvedBinary || s.tnc_binary || 'direwolf',
      args: launch.args,
      configPath,
      configText: launch.configText,
      clock: o.clock,
      env: o.env ? { ...process.env, ...o.env } : undefined,
    });
    this.tnc.onPty((path) => void this.attach(path));
  }

  private async attach(path: string | null): Promise<void> {
    const old = this.conn;
    this.conn = null;
    await old?.close().catch(() => {});
    if (!path) return;
    try {
      const c = await this.o.serial.open(path, 9600);
      c.onData((chunk) => this.framing.decoder.push(chunk));
      c.onClose((err) => {
        if (this.conn === c) this.conn = null;
        if (err) this.linkError = `KISS pseudo-terminal closed: ${errorMessage(err)}`;
      });
      this.conn = c;
      this.linkError = null;
    } catch (err) {
      this.linkError = `cannot open the KISS pseudo-terminal ${path}: ${errorMessage(err)}`;
    }
  }

  async start(): Promise<void> {
    const r = await this.tnc.start();
    if (!r.ok) throw new Error(r.error);
    const pty = await this.tnc.waitForPty(this.o.ptyWaitMs);
    if (!pty) throw new Error(`Dire Wolf announced no KISS pseudo-terminal within ${this.o.ptyWaitMs} ms: ${this.tnc.status().output_tail.slice(-3).join(' | ')}`);
    // onPty may still be opening it: wait for that one open.
    for (let i = 0; i < 50 && !this.conn && !this.linkError; i++) await new Promise((res) => setTimeout(res, 20));
    if (!this.conn) throw new Error(this.linkError ?? 'the KISS pseudo-terminal did not open');
  }

  async stop(): Promise<void> {
    const c = this.conn;
    this.conn = null;
    await c?.close().catch(() => {});
    await this.tnc.stop();
  }

  kill(): void {
    // SIGINT first: Dire Wolf drops PTT in its handler; SIGKILL follows shortly.
    this.tnc.kill();
    const c = this.conn;
    this.conn = null;
    void c?.close().catch(() => {});
  }

  send(ax25: Uint8Array): boolean {
    const c = this.conn;
    if (!c) return false;
    c.write(encodeKiss(ax25)).catch((err) => (this.linkError = `KISS write: ${errorMessage(err)}`));
    return true;
  }

  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.framing.onFrame(fn);
  }

  status(): TransportStatus {
    const t = this.tnc.status();
    return {
      sidecar_running: t.running,
      kiss_connected: this.conn !== null,
      modem_state: t.running ? `Dire Wolf 1200 baud AFSK${t.ptt_unavailable ? ' (PTT unavailable: receive only)' : ''}` : t.last_exit ? `stopped (${t.last_exit})` : 'starting',
      control_endpoint: t.pty_path ? `KISS on ${t.pty_path}` : 'KISS pseudo-terminal (not yet announced)',
      sidecar_command: t.command,
      output_tail: t.output_tail,
      last_error: this.linkError ?? t.last_error,
      ptt_unavailable: this.ptt.kind !== 'none' && t.ptt_unavailable,
    };
  }
}

/** An operator's KISS TNC over TCP, reconnected with capped backoff while wanted. */
export class ExternalKissTransport implements AprsTransport {
  readonly kind = 'external-kiss' as const;
  private readonly framing = new KissFraming();
  private socket: net.Socket | null = null;
  private up = false;
  private want = false;
  private attempt = 0;
  private retry: Timer | null = null;
  private lastError: string | null = null;

  constructor(private readonly host: string, private readonly port: number, private readonly clock: Clock) {}

  private open(): Promise<void> {
    return new Promise((resolve, reject) => {
      const sock = net.connect({ host: this.host, port: this.port });
      this.socket = sock;
      sock.setNoDelay(true);
      let settled = false;
      sock.once('connect', () => {
        settled = true;
        this.up = true;
        this.attempt = 0;
        this.lastError = null;
        resolve();
      });
      sock.on('data', (chunk) => this.framing.decoder.push(chunk));
      sock.on('error', (err) => {
        this.lastError = `KISS TNC ${this.host}:${this.port}: ${errorMessage(err)}`;
        if (!settled) {
          settled = true;
          reject(err);
        }
      });
      sock.on('close', () => {
        if (this.socket === sock) {
          this.socket = null;
          this.up = false;
          if (this.want) this.scheduleReconnect();
        }
      });
    });
  }

  private scheduleReconnect(): void {
    if (this.retry) return;
    const ms = backoffMs(this.attempt++, RECONNECT.base_ms, RECONNECT.max_ms);
    log.info(`KISS TNC ${this.host}:${this.port} lost; reconnecting in ${ms} ms`);
    this.retry = this.clock.setTimeout(() => {
      this.retry = null;
      if (this.want) this.open().catch(() => {});
    }, ms);
  }

  async start(): Promise<void> {
    this.want = true;
    await this.open();
  }

  async stop(): Promise<void> {
    this.want = false;
    this.retry?.cancel();
    this.retry = null;
    const s = this.socket;
    this.socket = null;
    this.up = false;
    s?.destroy();
  }

  kill(): void {
    void this.stop();
  }

  send(ax25: Uint8Array): boolean {
    if (!this.up || !this.socket) return false;
    this.socket.write(encodeKiss(ax25));
    return true;
  }

  onFrame(fn: (ax25: Uint8Array) => void): void {
    this.framing.onFrame(fn);
  }

  status(): TransportStatus {
    return {
      sidecar_running: false,
      kiss_connected: this.up,
      modem_state: this.up ? 'external KISS TNC' : this.want ? 'reconnecting to the external KISS TNC' : 'stopped',
      control_endpoint: `${this.host}:${this.port}`,
      sidecar_command: [],
      output_tail: [],
      last_error: this.lastError,
      ptt_unavailable: false,
    };
  }
}
