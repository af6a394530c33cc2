import { execFile } from 'node:child_process';
import net from 'node:net';

// Hamlib clients for the station tests: Hamlib's own rigctl/rotctl (-m 2, the NET backends) run
// as processes, and a raw TCP client that speaks the line protocol byte for byte, as gpredict
// does. Async only: the server under test runs in the same process.

export function hamlibTool(tool: 'rigctl' | 'rotctl', port: number, ...cmd: string[]): Promise<{ ok: boolean; out: string }> {
  return new Promise((resolve) => {
    execFile(tool, ['-m', '2', '-r', `127.0.0.1:${port}`, ...cmd], { timeout: 15000 }, (err, stdout, stderr) => {
      resolve({ ok: !err, out: `${stdout}${err ? stderr : ''}` });
    });
  });
}

export class LineClient {
  private buf = '';
  private wake: (() => void) | null = null;
  readonly closed: Promise<void>;

  private constructor(private readonly sock: net.Socket) {
    sock.setEncoding('latin1');
    sock.on('data', (d: string) => {
      this.buf += d;
      this.wake?.();
    });
    this.closed = new Promise((resolve) => sock.once('close', () => {
      this.wake?.();
      resolve();
    }));
    sock.on('error', () => {});
  }

  static open(port: number, host = '127.0.0.1'): Promise<LineClient> {
    return new Promise((resolve, reject) => {
      const s = net.connect({ port, host }, () => {
        s.off('error', reject);
        resolve(new LineClient(s));
      });
      s.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.sock.destroyed || this.sock.readableEnded;
  }

  /** Sends one line and returns the next `lines` reply lines (without their '\n'). */
  async ask(line: string, lines = 1, ms = 5000): Promise<string[]> {
    this.sock.write(`${line}\n`, 'latin1');
    return this.read(lines, ms);
  }

  async read(lines: number, ms = 5000): Promise<string[]> {
    const end = Date.now() + ms;
    while (this.buf.split('\n').length - 1 < lines) {
      if (this.sock.destroyed || Date.now() > end) throw new Error(`no ${lines}-line reply (have ${JSON.stringify(this.buf)})`);
      await new Promise<void>((r) => {
        this.wake = r;
        setTimeout(r, 50);
      });
    }
    const parts = this.buf.split('\n');
    this.buf = parts.slice(lines).join('\n');
    return parts.slice(0, lines);
  }

  write(bytes: string): void {
    this.sock.write(bytes, 'latin1');
  }

  close(): void {
    this.sock.destroy();
  }
}
