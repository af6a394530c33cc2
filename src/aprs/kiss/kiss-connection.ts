import { existsSync } from 'node:fs';
import type { Socket } from 'node:net';
import { nodeTcpConnect, type TcpConnect } from '../../links/tcp-driver.js';
import { encodeKiss, kissCommand, KissDecoder, type KissDecoderStats, type KissFrame, type KissParameter } from '../codec/kiss.js';
import type { SerialConnection, SerialDriver } from '../../links/serial-driver.js';
import { lazySerialDriver } from '../../links/lazy-serial-driver.js';
import { systemClock, type Clock, type Timer } from '../../util/clock.js';
import { errorMessage } from '../../util/errors.js';
import { logger } from '../../util/logger.js';
import { Listeners } from '../../util/listeners.js';

// Driver: a KISS byte stream to the TNC, one interface, two carriers:
// - PtyKissConnection: Dire Wolf's pseudo-terminal (-p), opened raw through the serialport package as
//   src/links/serial-driver.ts does for the rig;
// - TcpKissConnection: an external KISS TNC the operator runs (kiss_host:kiss_port).
// Frames in are decoded with KissDecoder (split reads, bad escapes, oversize all handled); frames
// out are AX.25 without FCS, KISS-encoded here. Never throws: open() answers with a result, send()
// with a boolean, listeners' exceptions are caught and logged. One open at a time; after a close
// (ours or the far end's) open() may be called again. Reconnecting is the caller's policy.

const log = logger('aprs:kiss');

export type KissLinkOpenResult = { ok: true } | { ok: false; error: string };

export interface KissLinkStats extends KissDecoderStats {
  framesSent: number;
  /** send() refused: link down, frame too long, or the write backlog full. */
  sendRefused: number;
}

export interface KissConnection {
  readonly kind: 'pty' | 'tcp';
  /** The device path or host:port. */
  readonly endpoint: string;
  readonly connected: boolean;
  open(): Promise<KissLinkOpenResult>;
  /** Queues one AX.25 frame (no FCS) as a KISS data frame; false when nothing was queued. */
  send(ax25: Uint8Array, port?: number): boolean;
  /** A TNC parameter (TXDELAY, PERSIST, SLOTTIME, TXTAIL, FULLDUPLEX). */
  sendCommand(cmd: KissParameter, value: number, port?: number): boolean;
  close(): Promise<void>;
  /** Every frame from the TNC (command 0 = a received AX.25 frame). */
  onFrame(cb: (f: KissFrame) => void): void;
  /** Once per open: err set when the far end or the device went away, null after our close(). */
  onClose(cb: (err: string | null) => void): void;
  stats(): KissLinkStats;
}

export interface KissConnectionOptions {
  /** Largest frame accepted either way (AX.25 without FCS is at most ~330 bytes). */
  maxFrameBytes?: number;
  /** Bytes written but not yet flushed beyond which send() refuses (a stalled TNC). */
  maxBacklogBytes?: number;
  clock?: Clock;
}

interface Carrier {
  write(bytes: Uint8Array, done: () => void): void;
  close(): Promise<void>;
}

abstract class BaseKissConnection implements KissConnection {
  abstract readonly kind: 'pty' | 'tcp';
  abstract readonly endpoint: string;
  private carrier: Carrier | null = null;
  private opening: Promise<KissLinkOpenResult> | null = null;
  private readonly frameFns = new Listeners<KissFrame>(log, 'KISS frame');
  private readonly closeFns = new Listeners<string | null>(log, 'KISS close');
  private backlog = 0;
  private sent = 0;
  private refused = 0;
  protected readonly maxFrameBytes: number;
  protected readonly maxBacklogBytes: number;
  protected readonly clock: Clock;
  private readonly decoder: KissDecoder;

  constructor(o: KissConnectionOptions) {
    this.maxFrameBytes = o.maxFrameBytes ?? 1024;
    this.maxBacklogBytes = o.maxBacklogBytes ?? 64 * 1024;
    this.clock = o.clock ?? systemClock;
    this.decoder = new KissDecoder((f) => {
      this.frameFns.emit(f);
    }, this.maxFrameBytes);
  }

  get connected(): boolean {
    return this.carrier !== null;
  }

  protected abstract connectCarrier(bytes: (chunk: Uint8Array) => void, gone: (err: string) => void): Promise<Carrier>;

  open(): Promise<KissLinkOpenResult> {
    if (this.carrier) return Promise.resolve({ ok: true });
    this.opening ??= this.doOpen().finally(() => (this.opening = null));
    return this.opening;
  }

  private async doOpen(): Promise<KissLinkOpenResult> {
    this.decoder.reset();
    this.backlog = 0;
    let carrier: Carrier | null = null;
    let early: string | null = null;
    const gone = (err: string) => {
      if (!carrier) {
        early ??= err; // went away while opening
        return;
      }
      if (this.carrier !== carrier) return;
      this.carrier = null;
      this.decoder.reset();
      log.warn(`KISS link ${this.endpoint} went away: ${err}`);
      void carrier.close().catch(() => {});
      this.emitClose(err);
    };
    try {
      carrier = await this.connectCarrier((chunk) => {
        if (this.carrier === carrier) this.decoder.push(chunk);
      }, gone);
    } catch (err) {
      return { ok: false, error: errorMessage(err) };
    }
    if (early) {
      await carrier.close().catch(() => {});
      return { ok: false, error: early };
    }
    this.carrier = carrier;
    log.info(`KISS link open on ${this.endpoint}`);
    return { ok: true };
  }

  send(ax25: Uint8Array, port = 0): boolean {
    if (ax25.length === 0 || ax25.length > this.maxFrameBytes || !Number.isInteger(port) || port < 0 || port > 15) {
      this.refused++;
      return false;
    }
    return this.write(encodeKiss(ax25, port, 0));
  }

  sendCommand(cmd: KissParameter, value: number, port = 0): boolean {
    let bytes: Uint8Array;
    try {
      bytes = kissCommand(cmd, value, port);
    } catch {
      this.refused++;
      return false;
    }
    return this.write(bytes);
  }

  private write(bytes: Uint8Array): boolean {
    const c = this.carrier;
    if (!c || this.backlog + bytes.length > this.maxBacklogBytes) {
      this.refused++;
      return false;
    }
    this.backlog += bytes.length;
    try {
      c.write(bytes, () => (this.backlog = Math.max(0, this.backlog - bytes.length)));
    } catch (err) {
      this.backlog = Math.max(0, this.backlog - bytes.length);
      this.refused++;
      log.warn(`KISS write on ${this.endpoint} failed: ${errorMessage(err)}`);
      return false;
    }
    this.sent++;
    return true;
  }

  async close(): Promise<void> {
    await this.opening?.catch(() => {});
    const c = this.carrier;
    if (!c) return;
    this.carrier = null;
    this.decoder.reset();
    await c.close().catch(() => {});
    log.info(`KISS link ${this.endpoint} closed`);
    this.emitClose(null);
  }

  onFrame(cb: (f: KissFrame) => void): void {
    this.frameFns.add(cb);
  }

  onClose(cb: (err: string | null) => void): void {
    this.closeFns.add(cb);
  }

  stats(): KissLinkStats {
    return { ...this.decoder.stats, framesSent: this.sent, sendRefused: this.refused };
  }

  private emitClose(err: string | null): void {
    this.closeFns.emit(err); // a link is reopened: its listeners stay for the next close
  }
}

export interface PtyKissConnectionOptions extends KissConnectionOptions {
  serial?: SerialDriver;
  /**
   * How often to check the device still exists. A pty whose master closed (Dire Wolf exited) can
   * read 0 bytes forever instead of failing (see test/sims/README.md), so the link notices the
   * path going away instead. 0 turns the check off.
   */
  presenceCheckMs?: number;
}

/** KISS over Dire Wolf's pseudo-terminal (or any serial KISS TNC). */
export class PtyKissConnection extends BaseKissConnection {
  readonly kind = 'pty' as const;
  constructor(
    readonly endpoint: string,
    private readonly po: PtyKissConnectionOptions = {},
  ) {
    super(po);
  }

  protected async connectCarrier(bytes: (chunk: Uint8Array) => void, gone: (err: string) => void): Promise<Carrier> {
    const conn: SerialConnection = await (this.po.serial ?? lazySerialDriver).open(this.endpoint, 9600);
    conn.onData(bytes);
    let watch: Timer | null = null;
    let closed = false;
    conn.onClose((err) => {
      closed = true;
      watch?.cancel();
      if (err) gone(err.message);
    });
    const every = this.po.presenceCheckMs ?? 1000;
    const check = () => {
      watch = null;
      if (closed) return;
      if (!existsSync(this.endpoint)) {
        gone(`${this.endpoint} disappeared (the TNC exited?)`);
        return;
      }
      watch = this.clock.setTimeout(check, every);
    };
    if (every > 0) watch = this.clock.setTimeout(check, every);
    return {
      write: (b, done) => {
        conn.write(b).then(done, (err: unknown) => {
          done();
          log.warn(`KISS write on ${this.endpoint} failed: ${errorMessage(err)}`);
        });
      },
      close: async () => {
        closed = true;
        watch?.cancel();
        watch = null;
        await conn.close();
      },
    };
  }
}

export interface TcpKissConnectionOptions extends KissConnectionOptions {
  connectTimeoutMs?: number;
  /** How to open the TCP connection (the ground driver by default). */
  connect?: TcpConnect;
}

/** KISS over TCP to an external TNC. */
export class TcpKissConnection extends BaseKissConnection {
  readonly kind = 'tcp' as const;
  readonly endpoint: string;
  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly to: TcpKissConnectionOptions = {},
  ) {
    super(to);
    this.endpoint = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  }

  protected connectCarrier(bytes: (chunk: Uint8Array) => void, gone: (err: string) => void): Promise<Carrier> {
    return new Promise((resolve, reject) => {
      const host = this.host.replace(/^\[|\]$/g, '');
      let sock: Socket;
      try {
        sock = (this.to.connect ?? nodeTcpConnect)(host, this.port);
      } catch (err) {
        reject(new Error(`cannot connect to ${this.endpoint}: ${errorMessage(err)}`));
        return;
      }
      let up = false;
      const timer = this.clock.setTimeout(() => {
        sock.destroy();
        reject(new Error(`no answer from ${this.endpoint} within ${this.to.connectTimeoutMs ?? 5000} ms`));
      }, this.to.connectTimeoutMs ?? 5000);
      sock.on('error', (err: NodeJS.ErrnoException) => {
        const msg = `${this.endpoint}: ${err.code ?? err.message}`;
        if (!up) {
          timer.cancel();
          reject(new Error(`cannot connect to ${msg}`));
        } else gone(msg);
      });
      sock.on('close', () => {
        if (up) gone(`${this.endpoint} closed the connection`);
      });
      sock.on('end', () => sock.end());
      sock.on('data', (b: Buffer) => bytes(b));
      sock.once('connect', () => {
        timer.cancel();
        up = true;
        sock.setNoDelay(true);
        sock.setKeepAlive(true, 10_000);
        resolve({
          write: (b, done) => {
            sock.write(b, () => done());
          },
          close: () =>
            new Promise<void>((res) => {
              if (sock.destroyed) return res();
              sock.once('close', () => res());
              sock.end();
              setTimeout(() => sock.destroy(), 1000).unref();
            }),
        });
      });
    });
  }
}

/** The link the settings ask for: Dire Wolf's pty when given, else the external TNC on TCP. */
export function kissLinkFor(target: { ptyPath: string } | { host: string; port: number }, o: KissConnectionOptions = {}): KissConnection {
  return 'ptyPath' in target ? new PtyKissConnection(target.ptyPath, o) : new TcpKissConnection(target.host, target.port, o);
}
