import net from 'node:net';
import type { ByteConnection } from './byte-connection.js';
import type { Clock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';

// Outside links, TCP: one way to open a connection, taken by injection (an external KISS TNC,
// APRS-IS, Hamlib's rotctld), so tests point every TCP peer at a fake on 127.0.0.1 the same way.

const log = logger('links:tcp');

/** Opens a TCP connection; errors arrive as the socket's 'error' event. */
export type TcpConnect = (host: string, port: number) => net.Socket;

export const nodeTcpConnect: TcpConnect = (host, port) => net.connect({ host, port });

/**
 * A TCP connection as a ByteConnection (rotctld). A connect that hangs (a firewalled host) fails
 * after timeoutMs on the injected clock instead of waiting out the kernel's SYN retries.
 */
export function openTcpConnection(o: { host: string; port: number; timeoutMs: number; clock: Clock; connect?: TcpConnect }): Promise<ByteConnection> {
  const name = `${o.host}:${o.port}`;
  return new Promise((resolve, reject) => {
    const sock = (o.connect ?? nodeTcpConnect)(o.host, o.port);
    const timer = o.clock.setTimeout(() => {
      sock.destroy();
      reject(new Error(`cannot reach ${name}: no connection within ${o.timeoutMs} ms`));
    }, o.timeoutMs);
    sock.once('error', (err) => {
      timer.cancel();
      reject(new Error(`cannot reach ${name}: ${err.message}`));
    });
    sock.once('connect', () => {
      timer.cancel();
      sock.removeAllListeners('error');
      sock.setNoDelay(true);
      resolve(asByteConnection(sock, name));
    });
  });
}

function asByteConnection(sock: net.Socket, name: string): ByteConnection {
  const closed = new Listeners<Error | null>(log, `${name} close`);
  let closedByUs = false;
  let lastError: Error | null = null;
  sock.on('error', (err) => {
    lastError = err;
  });
  sock.on('close', () => closed.emitOnce(closedByUs ? null : (lastError ?? new Error(`${name} closed the connection`))));
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
      closed.add(fn);
    },
  };
}
