import { connect } from 'node:net';
import type { ByteConnection } from './exchange.js';

// A TCP socket in the shape of a serial connection, so one exchange serves both. Used for
// rotctld; a connect that hangs (a firewalled host) fails after timeoutMs instead of waiting
// for the kernel's minutes-long SYN retries.

export function openTcpConnection(host: string, port: number, timeoutMs: number): Promise<ByteConnection> {
  return new Promise((resolve, reject) => {
    const sock = connect({ host, port });
    const timer = setTimeout(() => {
      sock.destroy();
      reject(new Error(`cannot reach ${host}:${port}: no connection within ${timeoutMs} ms`));
    }, timeoutMs);
    sock.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`cannot reach ${host}:${port}: ${err.message}`));
    });
    sock.once('connect', () => {
      clearTimeout(timer);
      sock.removeAllListeners('error');
      sock.setNoDelay(true);
      resolve(wrap(sock, `${host}:${port}`));
    });
  });
}

function wrap(sock: import('node:net').Socket, name: string): ByteConnection {
  let closeFns: Array<(err: Error | null) => void> = [];
  let closedByUs = false;
  let lastError: Error | null = null;
  sock.on('error', (err) => {
    lastError = err;
  });
  sock.on('close', () => {
    const fns = closeFns;
    closeFns = [];
    const err = closedByUs ? null : (lastError ?? new Error(`${name} closed the connection`));
    for (const fn of fns) fn(err);
  });
  return {
    write: (bytes) =>
      new Promise((resolve, reject) => {
        if (sock.destroyed || !sock.writable) return reject(new Error(`${name} is closed`));
        sock.write(bytes, (err) => (err ? reject(err) : resolve()));
      }),
    close: () =>
      new Promise((resolve) => {
        if (sock.destroyed) return resolve();
        closedByUs = true;
        sock.once('close', () => resolve());
        sock.end();
        sock.destroySoon();
      }),
    onData: (fn) => {
      sock.on('data', fn);
    },
    onClose: (fn) => {
      closeFns.push(fn);
    },
  };
}
