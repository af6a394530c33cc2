import net from 'node:net';

// Outside links, TCP: one way to open a connection, taken by injection (an external KISS TNC,
// APRS-IS, Hamlib's rotctld), so tests point every TCP peer at a fake on 127.0.0.1 the same way.

/** Opens a TCP connection; errors arrive as the socket's 'error' event. */
export type TcpConnect = (host: string, port: number) => net.Socket;

export const nodeTcpConnect: TcpConnect = (host, port) => net.connect({ host, port });
