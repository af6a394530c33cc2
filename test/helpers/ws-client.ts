// A tiny RFC 6455 client over a raw TCP socket, for the push hub's tests: the handshake is sent
// with exactly the headers a test gives (so the gate can be tried with a foreign Origin or Host),
// client frames are masked as the RFC requires, and the reading side can be paused to make a
// client that stops reading. Node 20 has no WebSocket client without a flag, and a browser's or a
// library's client would never send the hostile headers and frames these tests need.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

export interface WsClose {
  /** The close frame's code; 1006 when the connection ended without one. */
  code: number;
  reason: string;
}

/** The answer to an upgrade the server refused: an HTTP response instead of 101. */
export interface WsRefused {
  status: number;
  body: string;
}

/** Frame opcodes (RFC 6455 §5.2). */
const OP = { text: 0x1, close: 0x8, ping: 0x9, pong: 0xa } as const;

/** One client frame: FIN set, masked, any payload length. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  head[0] = 0x80 | opcode;
  if (len < 126) head[1] = 0x80 | len;
  else if (len < 65536) {
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else {
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const mask = randomBytes(4);
  const body = Buffer.alloc(len);
  for (let i = 0; i < len; i++) body[i] = payload[i] ^ mask[i & 3];
  return Buffer.concat([head, mask, body]);
}

/** The port of a server's base URL (`http://127.0.0.1:port`). */
export const portOf = (s: { base: string }): number => Number(new URL(s.base).port);

export class WsClient {
  /** Text messages received, parsed as JSON when they are (raw strings otherwise), in order. */
  readonly messages: any[] = [];
  /** Called with each message as it arrives (the bench times events by it). */
  onMessage: ((m: any) => void) | null = null;
  /** Keep no messages (a bench's long run): onMessage still sees each. */
  keep = true;
  /** Bytes of frames received so far (payloads only). */
  received = 0;
  closed: WsClose | null = null;
  /** The server's 101 response head (status line and headers). */
  handshake = '';
  private buf: Buffer = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  private readonly closedP: Promise<WsClose>;
  private resolveClosed!: (c: WsClose) => void;

  private constructor(readonly socket: Socket) {
    this.closedP = new Promise((r) => (this.resolveClosed = r));
    socket.on('data', (d) => this.onData(d));
    socket.on('close', () => this.finish({ code: 1006, reason: '' }));
    socket.on('error', () => this.finish({ code: 1006, reason: '' }));
  }

  /**
   * Opens a socket to `path` on 127.0.0.1:port. `headers` replace the defaults (Host 127.0.0.1:port,
   * no Origin); resolves with the client after 101, or with what the server answered instead.
   */
  static open(port: number, o: { path?: string; headers?: Record<string, string>; timeoutMs?: number } = {}): Promise<WsClient | WsRefused> {
    const key = randomBytes(16).toString('base64');
    const headers: Record<string, string> = {
      Host: `127.0.0.1:${port}`,
      Upgrade: 'websocket',
      Connection: 'Upgrade',
      'Sec-WebSocket-Key': key,
      'Sec-WebSocket-Version': '13',
      ...o.headers,
    };
    const head = [`GET ${o.path ?? '/api/v1/events'} HTTP/1.1`, ...Object.entries(headers).filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}`), '', ''].join('\r\n');
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let got = Buffer.alloc(0);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer to the upgrade within ${o.timeoutMs ?? 5000} ms`));
      }, o.timeoutMs ?? 5000);
      const onData = (d: Buffer) => {
        got = Buffer.concat([got, d]);
        const end = got.indexOf('\r\n\r\n');
        if (end < 0) return;
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got.subarray(0, end).toString('latin1'))?.[1] ?? 0);
        if (status === 101) {
          clearTimeout(timer);
          socket.off('data', onData);
          const c = new WsClient(socket);
          c.handshake = got.subarray(0, end).toString('latin1');
          const rest = got.subarray(end + 4);
          if (rest.length) c.onData(rest);
          resolve(c);
          return;
        }
        // A refusal: wait for its body (Content-Length) or the close.
        const len = Number(/\r\ncontent-length: *(\d+)/i.exec(got.subarray(0, end).toString('latin1'))?.[1] ?? NaN);
        if (Number.isFinite(len) && got.length - end - 4 < len) return;
        clearTimeout(timer);
        socket.destroy();
        resolve({ status, body: got.subarray(end + 4).toString('utf8') });
      };
      socket.on('data', onData);
      socket.on('connect', () => socket.write(head));
      socket.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
  }

  /** Opens a socket and fails the test when the server refused it. */
  static async connect(port: number, o: { path?: string; headers?: Record<string, string> } = {}): Promise<WsClient> {
    const c = await WsClient.open(port, o);
    if (!(c instanceof WsClient)) throw new Error(`upgrade refused: ${c.status} ${c.body}`);
    return c;
  }

  send(value: unknown): void {
    this.sendText(typeof value === 'string' ? value : JSON.stringify(value));
  }

  sendText(text: string): void {
    this.socket.write(clientFrame(OP.text, Buffer.from(text, 'utf8')));
  }

  /** A text frame of exactly `bytes` bytes. */
  sendBytes(bytes: number): void {
    this.socket.write(clientFrame(OP.text, Buffer.alloc(bytes, 0x20)));
  }

  /** Stops reading: the kernel's buffers fill, then the server's own. */
  pause(): void {
    this.socket.pause();
  }

  resume(): void {
    this.socket.resume();
  }

  /** The first message from `from` on that matches, waiting up to timeoutMs. */
  async next(match: (m: any) => boolean = () => true, timeoutMs = 5000, from = 0): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.slice(from).find(match);
      if (found !== undefined) return found;
      if (this.closed) throw new Error(`socket closed (${this.closed.code} ${this.closed.reason}) before the message came; got ${JSON.stringify(this.messages).slice(0, 400)}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching message within ${timeoutMs} ms; got ${JSON.stringify(this.messages).slice(0, 400)}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Events of a topic received so far. */
  events(topic: string): any[] {
    return this.messages.filter((m) => m?.type === 'event' && m.topic === topic);
  }

  /** Sends a request with this id and waits for its reply (result or pong). */
  async request(frame: { id: number | string; type: string; [k: string]: unknown }, timeoutMs = 5000): Promise<any> {
    this.send(frame);
    return this.next((m) => (m.type === 'result' || m.type === 'pong') && m.id === frame.id, timeoutMs);
  }

  /** Resolves with the close (code 1006 when the connection just ended). */
  whenClosed(timeoutMs = 5000): Promise<WsClose> {
    return Promise.race([
      this.closedP,
      new Promise<WsClose>((_, reject) => setTimeout(() => reject(new Error(`not closed within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
  }

  /** Closes from our side (a close frame, then the TCP connection). */
  close(code = 1000): void {
    if (this.closed) return;
    const p = Buffer.alloc(2);
    p.writeUInt16BE(code, 0);
    this.socket.write(clientFrame(OP.close, p));
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private finish(c: WsClose): void {
    if (this.closed) return;
    this.closed = c;
    this.resolveClosed(c);
    this.wake();
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const fn of w) fn();
  }

  private onData(d: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d;
    for (;;) {
      if (this.buf.length < 2) return;
      const op = this.buf[0] & 0x0f;
      let len = this.buf[1] & 0x7f;
      let at = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        at = 10;
      }
      if (this.buf.length < at + len) return;
      const payload = this.buf.subarray(at, at + len);
      this.buf = this.buf.subarray(at + len);
      this.received += len;
      if (op === OP.text) {
        const text = payload.toString('utf8');
        let m: any = text;
        try {
          m = JSON.parse(text);
        } catch {
          /* kept as text */
        }
        if (this.keep) this.messages.push(m);
        this.onMessage?.(m);
        this.wake();
      } else if (op === OP.ping) this.socket.write(clientFrame(OP.pong, Buffer.from(payload)));
      else if (op === OP.close) {
        this.finish({ code: len >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') });
        this.socket.end();
      }
    }
  }
}
