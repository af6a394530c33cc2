import { existsSync } from 'node:fs';
import { SerialPort } from 'serialport';

// The rig end of a pty pair as a simulator holds it: bytes in, bytes out, and the end going away
// with the cable. A pulled pty is not always reported (a read under way at the hangup reads
// 0 bytes for ever, see README.md), so the end also goes when its device path disappears.
// (civ-rig.ts and rotator-sim.ts still carry their own copy of this.)

export interface RigEnd {
  readonly isOpen: boolean;
  write(bytes: ArrayLike<number>): void;
  /** Closes the port; idempotent. */
  close(): Promise<void>;
}

/** Opens path; onData gets every chunk, onGone runs once when the cable goes (not on close()). */
export function openRigEnd(path: string, settings: { baudRate: number; stopBits?: 1 | 2 }, onData: (chunk: Buffer) => void, onGone: () => void): Promise<RigEnd> {
  const port = new SerialPort({ path, ...settings, autoOpen: false });
  let watch: NodeJS.Timeout | null = null;
  let closed = false;
  const end: RigEnd = {
    get isOpen() {
      return !closed && port.isOpen;
    },
    write(bytes) {
      if (end.isOpen) port.write(Buffer.from(Array.from(bytes)));
    },
    close() {
      if (watch) clearInterval(watch);
      watch = null;
      if (closed) return Promise.resolve();
      closed = true;
      return port.isOpen ? new Promise((resolve) => port.close(() => resolve())) : Promise.resolve();
    },
  };
  const gone = () => {
    if (closed) return;
    void end.close();
    onGone();
  };
  return new Promise((resolve, reject) => {
    port.open((err) => {
      if (err) return reject(err);
      port.on('data', onData);
      port.on('error', () => {}); // an unplugged cable: 'close' follows, or the path goes
      port.on('close', gone);
      watch = setInterval(() => {
        if (!existsSync(path)) gone();
      }, 50);
      watch.unref();
      resolve(end);
    });
  });
}
