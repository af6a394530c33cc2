import net from 'node:net';

// A fake APRS-IS server (an aprsc/javAPRSSrvr igate port such as 14580) on 127.0.0.1, an
// ephemeral port. An independent reading of aprs-is.net "Server Design" and "Connecting to
// APRS-IS" that shares no code with src/: it sends the `# software version` banner, reads the
// `user CALL pass N vers SW VER [filter ...]` login, checks the passcode with its own copy of
// the public hash and answers `# logresp CALL verified|unverified, server T2TEST`; it can chime a
// `#` keepalive comment like aprsc does every 20 s. Every line a client sends is recorded.
//
// Fault switches (`faults`): go silent (no banner, logresp or keepalive; packets still recorded),
// delay or withhold the logresp. And: closeClients() (FIN), resetClients() (RST), refuse()
// (stop listening: connections are refused) and listen() again on the same port.

export interface FakeLogin {
  client: number;
  callsign: string;
  passcode: number;
  verified: boolean;
  software: string | null;
  version: string | null;
  filter: string | null;
  raw: string;
}

export interface FakeAprsIsOptions {
  serverName?: string;
  /** Send a `#` comment to every client this often; null (default) sends none. */
  keepaliveMs?: number | null;
}

interface Client {
  id: number;
  socket: net.Socket;
  buf: string;
  login: FakeLogin | null;
}

/** The APRS-IS passcode, written here from its public description (15-bit XOR hash). */
export function simPasscode(login: string): number {
  const call = login.toUpperCase().replace(/-.*$/, '').substring(0, 9);
  const bytes = Array.from(call, (c) => c.charCodeAt(0));
  let h = 0x73e2;
  bytes.forEach((b, i) => {
    h ^= i % 2 === 0 ? b * 256 : b;
  });
  return h % 0x8000;
}

export class FakeAprsIsServer {
  readonly host = '127.0.0.1';
  port = 0;
  readonly serverName: string;
  /** Every line received from any client, in order (login included), CRLF removed. */
  readonly received: Array<{ client: number; line: string }> = [];
  readonly logins: FakeLogin[] = [];
  readonly faults = { silent: false, logrespDelayMs: 0, noLogresp: false };
  /** Connections accepted since start. */
  accepted = 0;
  /** Client lines longer than 512 bytes (CRLF included), dropped as aprsc would. */
  tooLong = 0;
  private server: net.Server | null = null;
  private clients = new Map<number, Client>();
  private chime: NodeJS.Timeout | null = null;
  private pending = new Set<NodeJS.Timeout>();

  private constructor(o: FakeAprsIsOptions) {
    this.serverName = o.serverName ?? 'T2TEST';
    if (o.keepaliveMs) {
      this.chime = setInterval(() => {
        if (!this.faults.silent) for (const c of this.clients.values()) this.write(c, `# fakeaprsis 1.0 ${new Date().toUTCString()} ${this.serverName} ${this.host}:${this.port}`);
      }, o.keepaliveMs);
      this.chime.unref();
    }
  }

  static async start(o: FakeAprsIsOptions = {}): Promise<FakeAprsIsServer> {
    const s = new FakeAprsIsServer(o);
    await s.listen();
    return s;
  }

  /** Open sockets right now. */
  get connections(): number {
    return this.clients.size;
  }

  /** Packet lines (not comments, not the login) received, in order. */
  get packets(): string[] {
    return this.received.filter((r) => !r.line.startsWith('#') && !r.line.startsWith('user ')).map((r) => r.line);
  }

  /** Listens (again) on the same port; the first call picks an ephemeral one. */
  async listen(): Promise<void> {
    if (this.server) return;
    const server = net.createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, this.host, () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops listening and drops every client: new connections are refused. */
  async refuse(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.resetClients();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A line (CRLF added) to every client, whatever the fault switches say. */
  sendToAll(line: string): void {
    for (const c of this.clients.values()) this.write(c, line);
  }

  /** Raw bytes to every client: partial lines, over-long lines. */
  sendRaw(data: string | Buffer): void {
    for (const c of this.clients.values()) c.socket.write(typeof data === 'string' ? Buffer.from(data, 'latin1') : data);
  }

  /** The server hangs up politely (FIN). */
  closeClients(): void {
    for (const c of this.clients.values()) c.socket.end();
  }

  /** The server drops every connection hard (RST). */
  resetClients(): void {
    for (const c of this.clients.values()) c.socket.resetAndDestroy();
  }

  async close(): Promise<void> {
    if (this.chime) clearInterval(this.chime);
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
    await this.refuse();
  }

  /** Polls (real time) until pred holds; rejects after timeoutMs. */
  async waitFor(pred: () => boolean, timeoutMs = 3000, what = 'condition'): Promise<void> {
    const t0 = Date.now();
    while (!pred()) {
      if (Date.now() - t0 > timeoutMs) throw new Error(`fake APRS-IS: timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  private accept(socket: net.Socket): void {
    const c: Client = { id: ++this.accepted, socket, buf: '', login: null };
    this.clients.set(c.id, c);
    socket.on('data', (d: Buffer) => this.read(c, d.toString('latin1')));
    socket.on('error', () => {}); // a client reset is an event here, not a failure
    socket.on('close', () => this.clients.delete(c.id));
    if (!this.faults.silent) this.write(c, `# fakeaprsis 1.0`);
  }

  private read(c: Client, text: string): void {
    c.buf += text;
    for (let i = c.buf.indexOf('\r\n'); i >= 0; i = c.buf.indexOf('\r\n')) {
      const line = c.buf.slice(0, i);
      c.buf = c.buf.slice(i + 2);
      if (line.length + 2 > 512) {
        this.tooLong++;
        continue;
      }
      this.received.push({ client: c.id, line });
      if (!c.login && line.startsWith('user ')) this.login(c, line);
    }
    if (c.buf.length > 4096) c.buf = ''; // a client that never ends its lines
  }

  private login(c: Client, raw: string): void {
    const words = raw.split(/\s+/);
    const after = (key: string) => {
      const i = words.indexOf(key);
      return i >= 0 && i + 1 < words.length ? words[i + 1] : null;
    };
    const callsign = words[1] ?? '';
    const passcode = Number(after('pass') ?? NaN);
    const vi = words.indexOf('vers');
    const fi = words.indexOf('filter');
    const login: FakeLogin = {
      client: c.id,
      callsign,
      passcode,
      verified: Number.isInteger(passcode) && passcode >= 0 && passcode === simPasscode(callsign),
      software: vi >= 0 ? (words[vi + 1] ?? null) : null,
      version: vi >= 0 ? (words[vi + 2] ?? null) : null,
      filter: fi >= 0 ? words.slice(fi + 1).join(' ') : null,
      raw,
    };
    c.login = login;
    this.logins.push(login);
    const reply = () => {
      if (this.faults.silent || this.faults.noLogresp || c.socket.destroyed) return;
      this.write(c, `# logresp ${callsign} ${login.verified ? 'verified' : 'unverified'}, server ${this.serverName}`);
    };
    if (this.faults.logrespDelayMs > 0) {
      const t = setTimeout(() => {
        this.pending.delete(t);
        reply();
      }, this.faults.logrespDelayMs);
      this.pending.add(t);
    } else reply();
  }

  private write(c: Client, line: string): void {
    if (!c.socket.destroyed && c.socket.writable) c.socket.write(Buffer.from(line + '\r\n', 'latin1'));
  }
}
