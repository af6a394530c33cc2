import net from 'node:net';
import { logger } from '../util/logger.js';

// A bounded TCP server for line protocols (Hamlib's rigctld and rotctld). Hamlib has no
// authentication and its clients are tools on other machines, so the server protects the
// station from them rather than trusting them:
//   - at most maxClients connections; one more is closed at once;
//   - a line (up to '\n'; a trailing '\r' is dropped) longer than maxLineBytes disconnects its
//     client: nothing Hamlib sends is near 1 KiB, so a longer line is garbage or an attack;
//   - one request at a time per client, in order: lines that arrive while one is handled wait,
//     and reading pauses while maxQueuedLines wait, so a flood cannot grow memory;
//   - a client that does not read its replies (the socket's unsent bytes pass
//     maxUnsentBytes) is disconnected: node never blocks on a write, so a stalled reader
//     costs only its own buffer and never holds up the others or the event loop.
// Lines are decoded as latin1, byte for byte: Hamlib's one-byte commands above 0x7f (gpredict
// sends 0x8b for get_dcd) stay one character.

const log = logger('hamlib:server');

export interface LineClient {
  readonly id: number;
  /** "address:port" of the peer, for logs and for the station's list of clients. */
  readonly remote: string;
}

/** A handler's answer: text to send ('' for none), null to close now, or { last } to send it and then close. */
export type LineReply = string | null | { last: string };

export interface LineServerOptions {
  host: string;
  port: number;
  maxClients: number;
  maxLineBytes: number;
  handle: (line: string, client: LineClient) => Promise<LineReply>;
  onClientsChanged?: (count: number) => void;
  /** A client connected (before its first line) and, later, went away (whatever the reason). */
  onOpen?: (client: LineClient) => void;
  onClose?: (client: LineClient) => void;
  /** Unsent reply bytes at which a client counts as stalled (default 64 KiB). */
  maxUnsentBytes?: number;
  /** Received lines waiting for their turn before reading pauses (default 32). */
  maxQueuedLines?: number;
}

export interface LineServer {
  /** The port listened on (the one the OS chose when asked for 0). */
  readonly port: number;
  clients(): number;
  /** Drops every client now and keeps listening (the emergency stop ends external control). */
  dropAll(): void;
  /** Stops listening and drops every client. */
  close(): Promise<void>;
}

export type ListenResult =
  | { kind: 'listening'; server: LineServer }
  /** code: the OS's reason (EADDRINUSE: another program has the port; EACCES: a port below 1024 without the right; EADDRNOTAVAIL: no such local address). */
  | { kind: 'failed'; code: string; message: string };

const LF = 0x0a;

export function startLineServer(o: LineServerOptions): Promise<ListenResult> {
  const maxUnsent = o.maxUnsentBytes ?? 64 * 1024;
  const maxQueued = o.maxQueuedLines ?? 32;
  const sockets = new Set<net.Socket>();
  let nextId = 1;

  const notify = (what: string, fn: () => void) => {
    try {
      fn();
    } catch (err) {
      log.error(`${what} failed: ${(err as Error).message}`);
    }
  };
  const changed = () => notify('onClientsChanged', () => o.onClientsChanged?.(sockets.size));

  // allowHalfOpen: a client that sends its last line and shuts its side ("echo f | nc") still
  // gets its replies; the server ends the connection once they are written.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (sock) => {
    if (sockets.size >= o.maxClients) {
      log.warn(`refused ${sock.remoteAddress}:${sock.remotePort}: ${o.maxClients} clients already`);
      sock.destroy();
      return;
    }
    sockets.add(sock);
    const client: LineClient = { id: nextId++, remote: `${sock.remoteAddress}:${sock.remotePort}` };
    sock.once('close', () => {
      sockets.delete(sock);
      changed();
      notify('onClose', () => o.onClose?.(client));
    });
    changed();
    notify('onOpen', () => o.onOpen?.(client));
    serveClient(sock, client);
  });

  function serveClient(sock: net.Socket, client: LineClient): void {
    const queue: string[] = [];
    let partial: Buffer[] = [];
    let partialBytes = 0;
    let busy = false;
    let peerEnded = false;

    const drop = (why: string) => {
      log.warn(`${client.remote}: ${why}; disconnected`);
      sock.destroy();
    };

    sock.on('error', (err) => log.debug(() => `${client.remote}: ${err.message}`));
    sock.on('end', () => {
      peerEnded = true;
      if (!busy && queue.length === 0) sock.end();
    });
    sock.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let i = chunk.indexOf(LF); i !== -1; i = chunk.indexOf(LF, start)) {
        const piece = chunk.subarray(start, i);
        if (partialBytes + piece.length > o.maxLineBytes) return drop(`a line longer than ${o.maxLineBytes} bytes`);
        const bytes = partialBytes === 0 ? piece : Buffer.concat([...partial, piece]);
        partial = [];
        partialBytes = 0;
        const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
        queue.push(bytes.toString('latin1', 0, end));
        start = i + 1;
      }
      const rest = chunk.subarray(start);
      if (rest.length > 0) {
        if (partialBytes + rest.length > o.maxLineBytes) return drop(`a line longer than ${o.maxLineBytes} bytes`);
        partial.push(Buffer.from(rest)); // a copy: the chunk's memory is not held for a fragment
        partialBytes += rest.length;
      }
      if (queue.length >= maxQueued) sock.pause();
      void pump();
    });

    async function pump(): Promise<void> {
      if (busy) return;
      busy = true;
      try {
        while (queue.length > 0 && !sock.destroyed) {
          const line = queue.shift()!;
          if (queue.length < maxQueued && sock.isPaused()) sock.resume();
          let reply: LineReply;
          try {
            reply = await o.handle(line, client);
          } catch (err) {
            // A handler must answer every line; one that throws is a bug: close rather than
            // leave the client waiting for a reply that will never come.
            log.error(`${client.remote}: handler failed on ${JSON.stringify(line)}: ${(err as Error).stack ?? err}`);
            sock.destroy();
            return;
          }
          if (sock.destroyed) return;
          if (reply === null) {
            sock.destroy();
            return;
          }
          if (typeof reply !== 'string') {
            sock.end(reply.last);
            queue.length = 0;
            return;
          }
          if (reply !== '') sock.write(reply, 'latin1');
          if (sock.writableLength > maxUnsent) return drop(`${sock.writableLength} reply bytes unread`);
        }
        if (peerEnded && !sock.destroyed) sock.end();
      } finally {
        busy = false;
      }
    }
  }

  return new Promise((resolve) => {
    const onError = (err: NodeJS.ErrnoException) => {
      resolve({ kind: 'failed', code: err.code ?? 'UNKNOWN', message: `cannot listen on ${o.host}:${o.port}: ${err.message}` });
    };
    server.once('error', onError);
    server.listen({ host: o.host, port: o.port }, () => {
      server.off('error', onError);
      server.on('error', (err) => log.error(`${o.host}:${o.port}: ${err.message}`));
      const address = server.address() as net.AddressInfo;
      resolve({
        kind: 'listening',
        server: {
          port: address.port,
          clients: () => sockets.size,
          dropAll: () => {
            for (const s of sockets) s.destroy();
          },
          close: () =>
            new Promise<void>((done) => {
              server.close(() => done());
              for (const s of sockets) s.destroy();
            }),
        },
      });
    });
  });
}
