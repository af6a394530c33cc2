import { read } from 'node:fs';
import { promisify } from 'node:util';

// serialport's Unix binding with one change: a read of 0 bytes is the device gone.
//
// A pulled USB cable (or a pty whose other side closed) hangs the tty up. The kernel tells a
// reader in one of three ways, depending on where its read was at that moment: EIO, a poll error
// (the binding's EBADF), or, once the hangup has swapped the open file's operations, a read that
// returns 0 bytes for ever. The stock binding retries a 0-byte read at once, without waiting, so
// a hangup of the third kind is never reported: the port stays "open", the loop spins on the
// thread pool, and only a later write's EIO (if anything writes) closes it. On a raw tty opened
// non-blocking a live device answers "no data" with EAGAIN, never with 0, so 0 is a hangup.

const readAsync = promisify(read);

/** What the binding's port offers (serialport's BindingPortInterface, the part used here). */
interface BindingPort {
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>;
}
/** The Unix port's descriptor and poller (LinuxPortBinding, DarwinPortBinding). */
interface UnixPort extends BindingPort {
  fd: number | null;
  poller: { once(event: 'readable', fn: (err: Error | null) => void): unknown };
}
export interface Binding {
  open(options: object): Promise<BindingPort>;
  list(): Promise<unknown[]>;
}

const RETRY = new Set(['EAGAIN', 'EWOULDBLOCK', 'EINTR']);

/** The stream treats a canceled read as our own close, anything else as a disconnect. */
const canceled = () => Object.assign(new Error('Port is not open'), { canceled: true });

function isUnixPort(p: BindingPort): p is UnixPort {
  const u = p as Partial<UnixPort>;
  return 'fd' in u && typeof u.poller?.once === 'function';
}

function readable(port: UnixPort): Promise<void> {
  return new Promise((resolve, reject) => port.poller.once('readable', (err) => (err ? reject(err) : resolve())));
}

async function readUntilHangup(port: UnixPort, buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }> {
  for (;;) {
    if (port.fd === null) throw canceled();
    let bytesRead: number;
    try {
      ({ bytesRead } = await readAsync(port.fd, buffer, offset, length, null));
    } catch (err) {
      if (!RETRY.has((err as NodeJS.ErrnoException).code ?? '')) throw err;
      if (port.fd === null) throw canceled();
      await readable(port);
      continue;
    }
    if (bytesRead > 0) return { buffer, bytesRead };
    if (port.fd === null) throw canceled();
    throw Object.assign(new Error('the device hung up (end of file)'), { code: 'EIO', disconnect: true });
  }
}

/** The binding, its ports reading through readUntilHangup (ports of other kinds are left as they are). */
export function hangupAware(binding: Binding): Binding {
  return {
    list: () => binding.list(),
    async open(options) {
      const port = await binding.open(options);
      if (isUnixPort(port)) port.read = (buffer, offset, length) => readUntilHangup(port, buffer, offset, length);
      return port;
    },
  };
}
