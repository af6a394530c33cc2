import { connect, createServer, type Server, type Socket } from 'node:net';

// A TCP proxy in front of a real rigctld, on loopback: it writes down every line the station sends
// (what the daemon was asked, in order) and can hold each line back a while before passing it on,
// which is a slow CAT link (an FT-847 takes ~300 ms a command) without a slow radio.

export class LineProxy {
  /** Every line the client sent, without its LF, in arrival order. */
  readonly lines: string[] = [];
  /** Held before each line goes on to the daemon, ms. */
  delayMs = 0;
  port = 0;
  private server!: Server;
  private readonly socks = new Set<Socket>();

  constructor(private readonly target: number) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const daemon = connect(this.target, '127.0.0.1');
      this.socks.add(client).add(daemon);
      let buf = '';
      let chain = Promise.resolve();
      client.setEncoding('utf8').on('data', (d: string) => {
        buf += d;
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          this.lines.push(line);
          const delay = this.delayMs;
          chain = chain.then(() => (delay ? new Promise((r) => setTimeout(r, delay)) : undefined)).then(() => void daemon.write(`${line}\n`));
        }
      });
      daemon.on('data', (d) => client.write(d));
      const end = () => {
        client.destroy();
        daemon.destroy();
      };
      for (const s of [client, daemon]) s.on('close', end).on('error', () => {});
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** Lines sent since mark (an index into lines). */
  since(mark: number): string[] {
    return this.lines.slice(mark);
  }

  async close(): Promise<void> {
    for (const s of this.socks) s.destroy();
    await new Promise((r) => this.server.close(r));
  }
}

/** Plain rigctld commands on a connection of their own, and the first `count` reply lines. */
export function askRigctld(port: number, lines: string[], count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let buf = '';
    s.setEncoding('utf8');
    s.on('connect', () => s.write(lines.map((l) => `${l}\n`).join('')));
    s.on('data', (d: string) => {
      buf += d;
      const got = buf.split('\n').filter(Boolean);
      if (got.length >= count) {
        s.destroy();
        resolve(got.slice(0, count));
      }
    });
    s.on('error', reject);
  });
}
