import { readDir, realPath } from '../util/fs-calls.js';
// serialport's own stream and its Linux binding, not the `serialport` package's index: that index
// evaluates every parser, the mock binding and the macOS and Windows bindings at first use (the
// radio area's first load at a tenth of a core; docs/decisions/latency.md). The appliance is Linux
// only (build.mjs ships Linux binaries alone).
import { SerialPortStream } from '@serialport/stream';
import { LinuxBinding } from '@serialport/bindings-cpp/dist/linux.js';
import type { ByteConnection } from './byte-connection.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { hangupAware, type Binding } from './hangup-aware-binding.js';

// The one outside thing this wraps: a serial device through the `serialport` package. Never
// throws into the caller's event handlers; open() and list() answer with a result or an error.
// Injected from the composition root (SerialDriver), so a test can swap the binding.

/** An open serial device: its bytes, and the path it was opened by. */
export interface SerialConnection extends ByteConnection {
  readonly path: string;
}

export interface PortListing {
  device: string;
  description: string;
  hwid: string;
}

/** Line settings beyond the speed: 8 data bits, no parity and one stop bit unless said (Yaesu's CAT wants two). */
export interface SerialLineOptions {
  stopBits?: 1 | 2;
}

export interface SerialDriver {
  open(path: string, baudRate: number, line?: SerialLineOptions): Promise<SerialConnection>;
  list(): Promise<PortListing[]>;
}

const log = logger('links:serial');

class PortConnection implements SerialConnection {
  private readonly closeFns = new Listeners<Error | null>(log, 'serial close');
  private closed = false;
  constructor(
    private readonly port: SerialPortStream,
    readonly path: string,
  ) {
    port.on('close', (err?: Error & { disconnected?: boolean }) => this.finish(err ?? null));
    // After open, an error means the device is gone; the close that follows reports it.
    port.on('error', (err: Error) => this.finish(err));
  }
  write(bytes: Uint8Array): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.closed) return reject(new Error(`${this.path} is closed`));
      this.port.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (err) => (err ? reject(err) : resolve()));
    });
  }
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.closed = true;
      this.port.close(() => resolve());
      this.emitClose(null);
    });
  }
  onData(fn: (chunk: Uint8Array) => void): void {
    this.port.on('data', fn);
  }
  onClose(fn: (err: Error | null) => void): void {
    this.closeFns.add(fn);
  }
  private finish(err: Error | null): void {
    if (this.closed) return;
    this.closed = true;
    if (this.port.isOpen) this.port.close(() => {});
    this.emitClose(err ?? new Error(`${this.path} closed`));
  }
  private emitClose(err: Error | null): void {
    this.closeFns.emitOnce(err);
  }
}

/** Stable udev names, the ones a setting should use: they survive a replug into another port. */
async function stableNames(): Promise<Map<string, string[]>> {
  const byTarget = new Map<string, string[]>();
  for (const dir of ['/dev/serial/by-id', '/dev/serial/by-path']) {
    let names: string[] = [];
    try {
      names = await readDir(dir);
    } catch {
      continue; // no such folder: no USB serial device, or no udev
    }
    for (const n of names) {
      try {
        const target = await realPath(`${dir}/${n}`);
        byTarget.set(target, [...(byTarget.get(target) ?? []), `${dir}/${n}`]);
      } catch {
        /* a dangling link */
      }
    }
  }
  return byTarget;
}

/** serialport's Linux binding, reporting every kind of hangup (see hangup-aware-binding.ts). */
const binding = hangupAware(LinuxBinding as unknown as Binding);

export const nodeSerialDriver: SerialDriver = {
  open(path, baudRate, line) {
    return new Promise((resolve, reject) => {
      const options = { path, baudRate, stopBits: line?.stopBits ?? 1, autoOpen: false, hupcl: false, binding };
      const port = new SerialPortStream(options as unknown as ConstructorParameters<typeof SerialPortStream>[0]);
      port.open((err) => {
        if (err) return reject(new Error(`cannot open ${path}: ${err.message}`));
        resolve(new PortConnection(port, path));
      });
    });
  },
  async list() {
    const [ports, names] = await Promise.all([LinuxBinding.list().catch(() => []), stableNames()]);
    const out: PortListing[] = [];
    const seen = new Set<string>();
    for (const p of ports) {
      const hwid = [p.vendorId && p.productId ? `USB VID:PID=${p.vendorId}:${p.productId}` : '', p.serialNumber ? `SER=${p.serialNumber}` : '']
        .filter(Boolean)
        .join(' ');
      const description = [p.manufacturer, p.pnpId].filter(Boolean).join(' · ') || 'serial port';
      for (const device of [...(names.get(p.path) ?? []), p.path]) {
        if (seen.has(device)) continue;
        seen.add(device);
        out.push({ device, description, hwid: hwid || p.locationId || '' });
      }
    }
    // udev links whose device the binding's listing missed (e.g. no udevadm in a container).
    for (const [target, links] of names) {
      for (const device of [...links, target]) {
        if (seen.has(device)) continue;
        seen.add(device);
        out.push({ device, description: 'serial device (udev link)', hwid: '' });
      }
    }
    return out;
  },
};
