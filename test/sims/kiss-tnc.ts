import { existsSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { SerialPort } from 'serialport';

// A fake KISS TNC, for the product's KISS link to talk to: over TCP (127.0.0.1, a free port) or
// on the rig end of a socat pseudo-terminal pair (pty-pair.ts). Like the other simulators here it
// shares no code with src/: its KISS framing is its own reading of the KISS spec (K9NG/KA9Q:
// FEND C0, FESC DB, TFEND DC, TFESC DD; type byte = port << 4 | command).
//
//   const tnc = new KissTncSim();
//   const port = await tnc.listenTcp();          // or: await tnc.openPty(pair.rigPath)
//   tnc.received                                  // frames the host sent, decoded, in order
//   await tnc.push(ax25, { port: 0, splits: [1, 5] })  // a frame to the host, written in pieces
//   tnc.pushRaw(bytes)                            // anything at all
//   tnc.drop()                                    // TCP: hang up on every client
//   await tnc.close()

const C0 = 0xc0;
const DB = 0xdb;
const DC = 0xdc;
const DD = 0xdd;

export interface SimKissFrame {
  port: number;
  command: number;
  data: Uint8Array;
  at: number;
}

/** KISS-encodes one frame (the simulator's own encoder). */
export function simEncode(data: Uint8Array, port = 0, command = 0): Uint8Array {
  const out: number[] = [C0];
  for (const b of [(port << 4) | command, ...data]) {
    if (b === C0) out.push(DB, DC);
    else if (b === DB) out.push(DB, DD);
    else out.push(b);
  }
  out.push(C0);
  return Uint8Array.from(out);
}

export class KissTncSim {
  readonly received: SimKissFrame[] = [];
  /** Raw bytes the host sent, for tests that check the wire itself. */
  readonly rawIn: number[] = [];
  private server: Server | null = null;
  private sockets = new Set<Socket>();
  private serial: SerialPort | null = null;
  private serialWatch: NodeJS.Timeout | null = null;
  private frame: number[] = [];
  private inFrame = false;
  private esc = false;
  private waiters: Array<() => void> = [];
  /** TCP connections accepted so far. */
  connections = 0;

  /** Listens on 127.0.0.1 (port 0: a free one); resolves with the port. */
  listenTcp(port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createServer((sock) => {
        this.connections++;
        this.sockets.add(sock);
        sock.on('data', (b) => this.feed(b));
        sock.on('error', () => {});
        sock.on('close', () => this.sockets.delete(sock));
        this.wake();
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        this.server = server;
        resolve((server.address() as { port: number }).port);
      });
    });
  }

  /** Opens the rig end of a pty pair; closes itself when the path disappears (unplug). */
  openPty(path: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const port = new SerialPort({ path, baudRate: 9600, autoOpen: false, hupcl: false });
      port.open((err) => {
        if (err) return reject(err);
        this.serial = port;
        port.on('data', (b: Buffer) => this.feed(b));
        port.on('error', () => {});
        this.serialWatch = setInterval(() => {
          if (!existsSync(path)) void this.closePty();
        }, 50);
        resolve();
      });
    });
  }

  get clients(): number {
    return this.sockets.size + (this.serial?.isOpen ? 1 : 0);
  }

  /** Sends one frame to the host, cut at the given byte offsets, with a short pause at each cut. */
  async push(data: Uint8Array, o: { port?: number; command?: number; splits?: number[]; pauseMs?: number } = {}): Promise<void> {
    const wire = simEncode(data, o.port ?? 0, o.command ?? 0);
    const cuts = [...new Set((o.splits ?? []).filter((n) => n > 0 && n < wire.length))].sort((a, b) => a - b);
    let at = 0;
    for (const cut of [...cuts, wire.length]) {
      this.pushRaw(wire.subarray(at, cut));
      at = cut;
      if (cut < wire.length) await new Promise((r) => setTimeout(r, o.pauseMs ?? 15));
    }
  }

  pushRaw(bytes: Uint8Array): void {
    const b = Buffer.from(bytes);
    for (const s of this.sockets) s.write(b);
    this.serial?.write(b);
  }

  /** Hangs up on every TCP client (the TNC dropped the connection); keeps listening. */
  drop(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
  }

  /** Resolves once `n` frames have been received (or rejects after ms). */
  async waitFrames(n: number, ms = 3000): Promise<SimKissFrame[]> {
    await this.waitUntil(() => this.received.length >= n, ms, `${n} frame(s)`);
    return this.received;
  }

  /** Resolves once a TCP client is connected. */
  waitClient(ms = 3000): Promise<void> {
    return this.waitUntil(() => this.sockets.size > 0, ms, 'a client');
  }

  async close(): Promise<void> {
    this.drop();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
    this.server = null;
    await this.closePty();
  }

  private async closePty(): Promise<void> {
    if (this.serialWatch) clearInterval(this.serialWatch);
    this.serialWatch = null;
    const p = this.serial;
    this.serial = null;
    if (p?.isOpen) await new Promise<void>((r) => p.close(() => r()));
  }

  private waitUntil(cond: () => boolean, ms: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (cond()) return resolve();
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== check);
        reject(new Error(`KissTncSim: timed out waiting for ${what}`));
      }, ms);
      const check = () => {
        if (!cond()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== check);
        resolve();
      };
      this.waiters.push(check);
    });
  }

  private wake(): void {
    for (const w of [...this.waiters]) w();
  }

  private feed(bytes: Uint8Array): void {
    for (const b of bytes) {
      this.rawIn.push(b);
      if (b === C0) {
        if (this.inFrame && this.frame.length > 0 && !this.esc) {
          const [type, ...data] = this.frame;
          this.received.push({ port: type >> 4, command: type & 15, data: Uint8Array.from(data), at: Date.now() });
        }
        this.inFrame = true;
        this.esc = false;
        this.frame = [];
      } else if (!this.inFrame) continue;
      else if (this.esc) {
        this.esc = false;
        if (b === DC) this.frame.push(C0);
        else if (b === DD) this.frame.push(DB);
        else this.inFrame = false; // protocol error: skip to the next FEND
      } else if (b === DB) this.esc = true;
      else this.frame.push(b);
    }
    this.wake();
  }
}
