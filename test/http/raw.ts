// Raw-socket helpers for HTTP framing tests: exact bytes out, every byte back.
import { connect } from 'node:net';
import { after, before } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

export interface RawResult {
  text: string;
  /** The server closed the connection (FIN or reset) before we stopped listening. */
  closed: boolean;
  /** ms from the write to the close, or to when we stopped listening */
  ms: number;
}

/**
 * Writes `payload` in one write and collects the answer until the server closes, or until
 * `untilResponses` complete responses arrived (then waits `settleMs` for stray bytes), or `maxMs`.
 */
export function rawExchange(
  port: number,
  payload: string,
  opts: { untilResponses?: number; heads?: boolean[]; settleMs?: number; maxMs?: number } = {},
): Promise<RawResult> {
  const { untilResponses = Infinity, heads = [], settleMs = 150, maxMs = 3000 } = opts;
  return new Promise((resolve, reject) => {
    const sock = connect(port, '127.0.0.1');
    let text = '';
    let t0 = 0;
    let done = false;
    let settle: NodeJS.Timeout | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearTimeout(settle);
      sock.destroy();
      resolve({ text, closed, ms: performance.now() - t0 });
    };
    const timer = setTimeout(() => finish(false), maxMs);
    sock.on('connect', () => {
      t0 = performance.now();
      sock.write(payload);
    });
    sock.on('data', (d) => {
      text += d.toString('latin1');
      let n = 0;
      try {
        n = parseResponses(text, heads, true).length;
      } catch {
        n = Infinity; // unparseable: stop and let the test's own parse report it
      }
      if (settle === undefined && n >= untilResponses) settle = setTimeout(() => finish(false), settleMs);
    });
    sock.on('close', () => finish(true));
    sock.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET') finish(true);
      else if (!done) reject(err);
    });
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string[]>;
  body: string;
}

/**
 * Splits a byte stream into responses the way a keep-alive client must: headers, then exactly
 * Content-Length body bytes (or the chunks of a chunked answer), none for answers to HEAD (`heads[i]`). Throws on anything else
 * unless `partialOk` (then it stops at the first incomplete response).
 */
export function parseResponses(text: string, heads: boolean[] = [], partialOk = false): RawResponse[] {
  const out: RawResponse[] = [];
  let at = 0;
  while (at < text.length) {
    const end = text.indexOf('\r\n\r\n', at);
    if (end < 0) {
      if (partialOk) break;
      throw new Error(`incomplete response head at byte ${at}: ${JSON.stringify(text.slice(at, at + 80))}`);
    }
    const lines = text.slice(at, end).split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3}) /.exec(lines[0]);
    if (!m) throw new Error(`not a status line at byte ${at}: ${JSON.stringify(lines[0].slice(0, 80))}`);
    const headers: Record<string, string[]> = {};
    for (const l of lines.slice(1)) {
      const i = l.indexOf(':');
      const k = l.slice(0, i).trim().toLowerCase();
      (headers[k] ??= []).push(l.slice(i + 1).trim());
    }
    if (!heads[out.length] && headers['transfer-encoding']?.[0] === 'chunked') {
      // A streamed answer: size lines and chunks up to the zero-size one (no trailers are sent).
      let p = end + 4;
      let body = '';
      let complete = false;
      while (p < text.length) {
        const eol = text.indexOf('\r\n', p);
        if (eol < 0) break;
        const size = parseInt(text.slice(p, eol), 16);
        if (!Number.isInteger(size)) throw new Error(`response ${out.length}: bad chunk size ${JSON.stringify(text.slice(p, eol))}`);
        if (eol + 2 + size + 2 > text.length) break;
        body += text.slice(eol + 2, eol + 2 + size);
        p = eol + 2 + size + 2;
        if (size === 0) {
          complete = true;
          break;
        }
      }
      if (!complete) {
        if (partialOk) break;
        throw new Error(`response ${out.length} chunked body is truncated`);
      }
      out.push({ status: Number(m[1]), headers, body });
      at = p;
      continue;
    }
    const len = heads[out.length] ? 0 : Number(headers['content-length']?.[0] ?? NaN);
    if (!Number.isInteger(len)) throw new Error(`response ${out.length} has no usable Content-Length`);
    if (end + 4 + len > text.length) {
      if (partialOk) break;
      throw new Error(`response ${out.length} body is truncated`);
    }
    out.push({ status: Number(m[1]), headers, body: text.slice(end + 4, end + 4 + len) });
    at = end + 4 + len;
  }
  return out;
}

export const portOf = (base: string): number => Number(new URL(base).port);

/** The real app for the enclosing suite, with its port for raw sockets (set once `before` ran). */
export function suiteServer(): { s: TestServer; port: number } {
  const t = { s: undefined as unknown as TestServer, port: 0 };
  before(async () => {
    t.s = await startServer();
    t.port = portOf(t.s.base);
  });
  after(() => t.s.stop());
  return t;
}
