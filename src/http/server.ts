import type { FileHandle } from 'node:fs/promises';
import { nodeFsPromises } from '../util/lazy-builtins.js';
import { hostname } from 'node:os';
import * as v from 'valibot';
import uWS from 'uWebSockets.js';
import { AppError, errorMessage } from '../util/errors.js';
import { logger } from '../util/logger.js';
import { StoreValidationError } from '../store/json-store.js';
import { SESSION_COOKIE, cookieValue } from '../access/session-cookie.js';
import { FileReply, RawReply, StreamReply, jsonText, type RequestCredentials, type RouteDef } from './route.js';
import { Router } from './router.js';
import { faviconAssets } from './favicon.js';
import type { StaticAsset } from './static-asset.js';
import { crossSiteRefusal, hostAllowed, isSafeMethod, type HostPolicy } from '../util/request-origin.js';
import { parseOr400, validationError } from './validate.js';
import type { EventHub } from '../events/hub.js';
import { EVENTS_PATH } from '../events/protocol.js';
import { eventsBehavior } from './events-socket.js';
import { noteRequest, noteRequestClosed, noteRequestOpen } from '../util/loop-slices.js';

const log = logger('http');

export const MAX_BODY_BYTES = 64 * 1024;

const STATUS: Record<number, string> = {
  200: '200 OK',
  201: '201 Created',
  202: '202 Accepted',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  409: '409 Conflict',
  413: '413 Payload Too Large',
  415: '415 Unsupported Media Type',
  426: '426 Upgrade Required',
  429: '429 Too Many Requests',
  431: '431 Request Header Fields Too Large',
  500: '500 Internal Server Error',
  502: '502 Bad Gateway',
  503: '503 Service Unavailable',
  504: '504 Gateway Timeout',
  507: '507 Insufficient Storage',
};
const JSON_TYPE = 'application/json; charset=utf-8';

export type { StaticAsset };

export interface HttpServerOptions {
  routes: readonly RouteDef[];
  /** Hashed static files by URL path (`/assets/...`). */
  assets?: ReadonlyMap<string, StaticAsset>;
  /** Called after a successful route marked clearsLiteCache. */
  onLiteInvalidate?: (route: RouteDef) => void;
  /**
   * Tests: check every JSON answer against the route's documented `response` schema and answer
   * 500 response_schema_mismatch when it drifts, so /docs cannot lie about what is sent.
   */
  checkResponses?: boolean;
  /**
   * The operator lock: runs before every POST not marked `open`, after its body has arrived and
   * before it is parsed or validated; returns when the caller may go on, throws AppError (401/429)
   * otherwise. Returns synchronously while the station is open.
   */
  gate?: (credentials: RequestCredentials) => void | Promise<void>;
  /** ALLOWED_HOSTS: names served besides IP literals, localhost and this machine's own name. */
  allowedHosts?: readonly string[];
  /** This machine's host name (default os.hostname()); tests pick one. */
  hostname?: string;
  /**
   * The push hub behind the live-events WebSocket (GET /api/v1/events with Upgrade): the upgrade
   * passes the Host and Origin rules a POST does; the operator lock does not gate reading.
   */
  events?: EventHub;
}

interface Reply {
  status: number;
  contentType: string;
  body: string | Uint8Array;
  headers?: Record<string, string>;
  /** The body is a RawReply's gzip twin: send() adds Content-Encoding and Vary (no per-request header object). */
  gzip?: boolean;
}

function errorReply(status: number, code: string, message: string, details: unknown = null, headers?: Record<string, string>): Reply {
  return { status, contentType: JSON_TYPE, body: JSON.stringify({ error: { code, message, details } }), headers };
}

// The message of an unknown error can carry file paths and internals: it goes to the log only.
const INTERNAL_ERROR: Reply = errorReply(500, 'internal_error', 'internal error; the server log has the details');

/** Maps anything a handler throws to the one error body; unknown errors are 500 and logged. */
export function replyForError(err: unknown, route?: RouteDef): Reply {
  if (err instanceof AppError) return errorReply(err.status, err.code, err.message, err.details, err.headers);
  if (err instanceof StoreValidationError) {
    const e = validationError(err.issues, 'body');
    return errorReply(e.status, e.code, e.message, e.details);
  }
  log.error(`handler ${route ? `${route.method} ${route.path}` : ''} failed`, err);
  return INTERNAL_ERROR;
}

/** Resolves on the next event-loop turn (after the current socket read has been fully parsed). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A file reply reads this much per socket write. */
const FILE_CHUNK_BYTES = 64 * 1024;

interface ReqState {
  aborted: boolean;
  head: boolean;
  /** Counted in inFlight until answered or abandoned (closed() once). */
  open: boolean;
}

/** A parameter given more than once keeps every value (an array), so its schema refuses it instead of the last one winning. */
function parseQuery(qs: string): Record<string, string | string[]> {
  // No prototype: `__proto__` is a parameter name like any other.
  const out: Record<string, string | string[]> = Object.create(null);
  if (!qs) return out;
  for (const [k, val] of new URLSearchParams(qs)) {
    const had = out[k];
    out[k] = had === undefined ? val : [...(Array.isArray(had) ? had : [had]), val];
  }
  return out;
}

/** uWebSockets.js front: one catch-all handler dispatching through the static-path router. */
export class HttpServer {
  readonly router = new Router();
  private app: uWS.TemplatedApp | null = null;
  private listenSocket: uWS.us_listen_socket | null = null;
  private inFlight = 0;
  private readonly hosts: HostPolicy;
  /** The UI build's files plus the site icon, which is served even before a UI build. */
  private readonly assets: ReadonlyMap<string, StaticAsset>;
  /** Host names already logged as refused (bounded: a scanner must not grow it or flood the log). */
  private readonly refusedHosts = new Set<string>();

  constructor(private readonly opts: HttpServerOptions) {
    for (const r of opts.routes) this.router.add(r);
    this.hosts = { hostname: opts.hostname ?? hostname(), extra: opts.allowedHosts ?? [] };
    this.assets = new Map([...faviconAssets(), ...(opts.assets ?? [])]);
  }

  get activeRequests(): number {
    return this.inFlight;
  }

  listen(host: string, port: number): Promise<number> {
    const app = uWS.App();
    // A GET without Upgrade on the events path falls through to the router (its route answers 426).
    if (this.opts.events) app.ws(EVENTS_PATH, eventsBehavior(this.opts.events, (res, req) => this.upgradeAllowed(res, req)));
    app.any('/*', (res, req) => this.onRequest(res, req));
    this.app = app;
    return new Promise((resolve, reject) => {
      app.listen(host, port, (sock) => {
        if (!sock) return reject(new Error(`cannot listen on ${host}:${port}`));
        this.listenSocket = sock;
        // Counts as a request: the boot's first ones (a health check, the kiosk's page) come right
        // after listen, and the background warm-ups would otherwise start before them (at a tenth
        // of a core, ~0.5 s of /health's wait).
        noteRequest();
        resolve(uWS.us_socket_local_port(sock));
      });
    });
  }

  close(): void {
    if (this.listenSocket) uWS.us_listen_socket_close(this.listenSocket);
    this.listenSocket = null;
    // Drops keep-alive connections too, so the process can exit promptly.
    (this.app as unknown as { close?: () => void } | null)?.close?.();
    this.app = null;
  }

  private onRequest(res: uWS.HttpResponse, req: uWS.HttpRequest): void {
    noteRequest(); // background warm-ups stand back while requests come (src/util/loop-slices.ts)
    // Everything from req must be read now: it is invalid after the first await.
    const method = req.getMethod().toUpperCase();
    const url = req.getUrl();
    const acceptEncoding = req.getHeader('accept-encoding');
    const head = method === 'HEAD';
    const host = req.getHeader('host');
    const match = this.router.match(head ? 'GET' : method, url);
    const anywhere = match.kind === 'found' && match.route.allowCrossSite === true;

    // Before anything is served or read: pages and assets too, or a rebinding page could read them.
    if (!anywhere && !hostAllowed(host, this.hosts)) {
      this.noteRefusedHost(host);
      return this.send(res, hostRefused(host), false, head);
    }
    if (method === 'GET' || head) {
      const asset = this.assets.get(url);
      if (asset) return this.sendAsset(res, asset, acceptEncoding, head, url);
    }
    if (match.kind === 'not_found') {
      return this.send(res, errorReply(404, 'not_found', `no route for ${url}`, { path: url }), false, head);
    }
    if (match.kind === 'method_not_allowed') {
      return this.send(
        res,
        errorReply(405, 'method_not_allowed', `${method} is not allowed on ${url}`, { allowed: match.allowed }, {
          Allow: match.allowed.join(', '),
        }),
        false,
        head,
      );
    }
    const route = match.route;
    if (!anywhere && !isSafeMethod(method)) {
      // Refused before the body is read, whatever the operator lock says (it is not a login check).
      const why = crossSiteRefusal({ host, origin: req.getHeader('origin'), secFetchSite: req.getHeader('sec-fetch-site') });
      if (why) return this.send(res, crossOriginRefused(method, url, why), false, head);
    }
    const ctx = {
      query: parseQuery(req.getQuery() ?? '') as unknown,
      body: undefined as unknown,
      accept: req.getHeader('accept'),
      acceptEncoding,
      path: url,
      params: match.params,
      range: route.method === 'GET' ? req.getHeader('range') : '',
      credentials: method === 'POST' || route.credentials ? readCredentials(res, req) : null,
    };
    const contentType = req.getHeader('content-type');
    const declaredLength = Number(req.getHeader('content-length') || 0);
    const state: ReqState = { aborted: false, head, open: true };
    res.onAborted(() => {
      state.aborted = true;
      // A client gone mid-body never reaches a handler: it is abandoned here.
      this.closed(state);
    });
    this.inFlight++;
    noteRequestOpen();

    if (method !== 'POST') {
      this.run(res, route, ctx, state);
      return;
    }
    if (declaredLength > MAX_BODY_BYTES) {
      this.finish(res, state, errorReply(413, 'payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, { limit: MAX_BODY_BYTES }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let rejected = false;
    res.onData((chunk, isLast) => {
      if (rejected || state.aborted) return;
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) {
        rejected = true;
        this.finish(res, state, errorReply(413, 'payload_too_large', `request body exceeds ${MAX_BODY_BYTES} bytes`, { limit: MAX_BODY_BYTES }), true);
        return;
      }
      // The ArrayBuffer is only valid during this callback: copy it.
      chunks.push(Buffer.from(new Uint8Array(chunk).slice()));
      if (!isLast) return;
      const raw = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
      this.afterGate(res, route, ctx.credentials, state, () => {
        if (raw.length === 0 || raw.toString('utf8').trim() === '') {
          ctx.body = {};
        } else {
          if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
            this.finish(res, state, errorReply(415, 'unsupported_media_type', 'request body must be application/json', { content_type: contentType || null }));
            return;
          }
          try {
            ctx.body = JSON.parse(raw.toString('utf8'));
          } catch (err) {
            this.finish(res, state, errorReply(400, 'malformed_json', 'request body is not valid JSON: ' + errorMessage(err)));
            return;
          }
        }
        this.run(res, route, ctx, state);
      });
    });
  }

  /**
   * The live-events socket's gate: the Host and Origin rules of a POST (a page on another site must
   * not read the station over a socket either: cross-site WebSocket hijacking). Answers a refusal
   * (403, no socket) and returns false.
   */
  private upgradeAllowed(res: uWS.HttpResponse, req: uWS.HttpRequest): boolean {
    const host = req.getHeader('host');
    if (!hostAllowed(host, this.hosts)) {
      this.noteRefusedHost(host);
      this.send(res, hostRefused(host));
      return false;
    }
    const why = crossSiteRefusal({ host, origin: req.getHeader('origin'), secFetchSite: req.getHeader('sec-fetch-site') });
    if (!why) return true;
    this.send(res, errorReply(403, 'cross_origin_refused', `the live-events socket refused: ${why}. It opens from this station's own pages and from clients that send no Origin`, { reason: why }));
    return false;
  }

  /** The operator who reaches the station by a new name sees why in the log, once per name. */
  private noteRefusedHost(host: string): void {
    if (this.refusedHosts.size >= 32 || this.refusedHosts.has(host)) return;
    this.refusedHosts.add(host);
    log.warn(`refused requests for host name ${JSON.stringify(host.slice(0, 255))}: not an IP address, localhost or this machine's name; add it to ALLOWED_HOSTS to serve it`);
  }

  /** The operator lock before a POST goes on (HttpServerOptions.gate); refusals are answered here. */
  private afterGate(res: uWS.HttpResponse, route: RouteDef, credentials: RequestCredentials | null, state: ReqState, next: () => void): void {
    if (route.open || !this.opts.gate || !credentials) return next();
    let pending: void | Promise<void>;
    try {
      pending = this.opts.gate(credentials);
    } catch (err) {
      return this.finish(res, state, replyForError(err, route));
    }
    if (!pending) return next();
    pending.then(
      () => (state.aborted ? this.finish(res, state, INTERNAL_ERROR) : next()),
      (err) => this.finish(res, state, replyForError(err, route)),
    );
  }

  private async run(res: uWS.HttpResponse, route: RouteDef, ctx: any, state: ReqState): Promise<void> {
    let reply: Reply;
    try {
      if (route.query) ctx.query = parseOr400(route.query, ctx.query, 'query');
      if (route.body) {
        // Every request body of this API is a JSON object; valibot's object() would take an array.
        if (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body)) {
          throw new AppError(400, 'validation_failed', 'invalid body: (root): must be a JSON object', {
            fields: [{ field: '(root)', message: 'must be a JSON object' }],
          });
        }
        ctx.body = parseOr400(route.body, ctx.body, 'body');
      }
      if (route.method === 'POST') {
        // uWS 20.30 closes the connection, unanswered, when it parses a pipelined request while this
        // answer is pending (HttpContext.h, HTTP_RESPONSE_PENDING), within the current socket read.
        // Wait one loop turn and do not apply a write whose answer can no longer be delivered.
        await nextTurn();
        if (state.aborted) {
          this.closed(state);
          log.warn(`${route.method} ${route.path} not run: connection closed before it started (pipelined request?)`);
          return;
        }
      }
      const out = await route.handler(ctx);
      if (route.clearsLiteCache) this.opts.onLiteInvalidate?.(route);
      if (out instanceof StreamReply) return await this.stream(res, state, out);
      if (out instanceof FileReply) return await this.sendFile(res, state, out);
      if (out instanceof RawReply) {
        const gz = out.gzipBody !== null && ctx.acceptEncoding.includes('gzip');
        reply = { status: out.status, contentType: out.contentType, body: gz ? out.gzipBody! : out.body, headers: out.headers, gzip: gz };
      } else {
        if (this.opts.checkResponses && route.response) checkResponse(route, out);
        reply = { status: 200, contentType: JSON_TYPE, body: jsonText(out) };
      }
    } catch (err) {
      reply = replyForError(err, route);
    }
    if (state.aborted && route.method === 'POST') {
      log.warn(`${route.method} ${route.path} ran but its answer was lost: the connection closed meanwhile`);
    }
    this.finish(res, state, reply);
  }

  /**
   * A StreamReply: status and headers, then each chunk as the socket takes it (uWS buffers what it
   * cannot send at once and says so; the next chunk waits for onWritable). A client that goes away
   * ends the iteration; an iterator that throws cuts the connection (the status is already sent).
   */
  private async stream(res: uWS.HttpResponse, state: ReqState, out: StreamReply): Promise<void> {
    try {
      if (state.aborted) return;
      // HEAD: the length GET would send, counted through the chunks (HEAD is rare; the body is never held).
      let length = 0;
      if (state.head) {
        try {
          for (const chunk of out.chunks) length += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
        } catch (err) {
          // Nothing written yet: the usual error answer (its status, no body for HEAD).
          if (!state.aborted) this.send(res, replyForError(err), false, true);
          return;
        }
      }
      if (state.aborted) return;
      res.cork(() => {
        res.writeStatus('200 OK');
        res.writeHeader('Content-Type', out.contentType);
        res.writeHeader('Cache-Control', 'no-store');
        for (const k in out.headers) res.writeHeader(k, out.headers[k]);
        if (state.head) endHead(res, length);
      });
      if (state.head) return;
      try {
        for (const chunk of out.chunks) {
          if (state.aborted) return;
          let ok = true;
          res.cork(() => (ok = res.write(chunk)));
          if (!ok) {
            await new Promise<void>((resolve) => {
              res.onWritable(() => {
                resolve();
                return true;
              });
              res.onAborted(() => {
                state.aborted = true;
                resolve();
              });
            });
          }
        }
      } catch (err) {
        return this.cutMidway(res, state, 'a streamed reply', err);
      }
      if (!state.aborted) res.cork(() => res.end());
    } finally {
      this.closed(state);
    }
  }

  /**
   * A FileReply: the file's bytes (or the asked range) with a Content-Length, read in 64 KiB
   * chunks as the socket takes them (tryEnd, and onWritable's offset says how much of a chunk
   * went when it did not all go), so a recording of any size costs one chunk of memory.
   */
  private async sendFile(res: uWS.HttpResponse, state: ReqState, out: FileReply): Promise<void> {
    let fh: FileHandle | null = null;
    try {
      if (state.aborted) return;
      const start = out.range?.start ?? 0;
      const total = out.range ? out.range.end - out.range.start + 1 : out.size;
      if (!state.head) {
        try {
          fh = await nodeFsPromises().open(out.path, 'r');
        } catch {
          if (!state.aborted) this.send(res, errorReply(404, 'not_found', 'the file is gone (deleted meanwhile)'));
          return;
        }
      }
      if (state.aborted) return;
      res.cork(() => {
        res.writeStatus(out.range ? '206 Partial Content' : '200 OK');
        res.writeHeader('Content-Type', out.contentType);
        res.writeHeader('Cache-Control', 'no-store');
        res.writeHeader('Accept-Ranges', 'bytes');
        if (out.range) res.writeHeader('Content-Range', `bytes ${out.range.start}-${out.range.end}/${out.size}`);
        for (const k in out.headers) res.writeHeader(k, out.headers[k]);
        if (state.head) endHead(res, total);
      });
      if (state.head || !fh) return;
      if (total === 0) return void res.cork(() => res.end());
      const buf = Buffer.allocUnsafe(Math.min(FILE_CHUNK_BYTES, total));
      let sent = 0;
      while (sent < total && !state.aborted) {
        const { bytesRead } = await fh.read(buf, 0, Math.min(buf.length, total - sent), start + sent);
        if (state.aborted) return;
        if (bytesRead === 0) {
          // The file shrank under us (deleted by retention): the promised length cannot be kept.
          res.close();
          state.aborted = true;
          return;
        }
        const chunk = buf.subarray(0, bytesRead);
        const base = res.getWriteOffset();
        let ok = false;
        let done = false;
        res.cork(() => ([ok, done] = res.tryEnd(chunk, total)));
        sent += bytesRead;
        if (done) return;
        if (ok) continue;
        await new Promise<void>((resolve) => {
          res.onWritable((offset) => {
            let again = false;
            let finished = false;
            res.cork(() => ([again, finished] = res.tryEnd(chunk.subarray(offset - base), total)));
            if (again || finished) resolve();
            return again || finished;
          });
          res.onAborted(() => {
            state.aborted = true;
            resolve();
          });
        });
      }
    } catch (err) {
      this.cutMidway(res, state, 'a file reply', err);
    } finally {
      this.closed(state);
      await fh?.close().catch(() => {});
    }
  }

  /** A reply that failed after its status went out: the connection is cut (a short body must not pass for a whole one). */
  private cutMidway(res: uWS.HttpResponse, state: ReqState, what: string, err: unknown): void {
    log.error(`${what} failed midway; closing the connection`, err);
    if (!state.aborted) res.close();
    state.aborted = true;
  }

  /** A request begun in onRequest is answered or abandoned: counted once. */
  private closed(state: ReqState): void {
    if (!state.open) return;
    state.open = false;
    this.inFlight--;
    noteRequestClosed();
  }

  private finish(res: uWS.HttpResponse, state: ReqState, reply: Reply, close = false): void {
    this.closed(state);
    if (state.aborted) return; // the client is gone; nothing to write, nothing leaked
    this.send(res, reply, close, state.head);
  }

  private send(res: uWS.HttpResponse, reply: Reply, close = false, head = false): void {
    res.cork(() => {
      res.writeStatus(STATUS[reply.status] ?? `${reply.status} Status`);
      res.writeHeader('Content-Type', reply.contentType);
      res.writeHeader('Cache-Control', 'no-store');
      if (reply.headers) for (const k in reply.headers) res.writeHeader(k, reply.headers[k]);
      if (reply.gzip) {
        res.writeHeader('Content-Encoding', 'gzip');
        res.writeHeader('Vary', 'Accept-Encoding');
      }
      // end(body, true) writes `Connection: close` itself; writing it here too doubled the header.
      // HEAD never closes: `close` is only set while reading a POST body.
      if (head) endHead(res, bodyLength(reply.body));
      else res.end(reply.body, close);
    });
  }

  private sendAsset(res: uWS.HttpResponse, a: StaticAsset, acceptEncoding: string, head: boolean, url: string): void {
    const gzip = acceptEncoding.includes('gzip') ? a.gzip : null;
    const body = gzip ?? a.body;
    if (!body) return this.send(res, errorReply(500, 'asset_unreadable', `${url} is part of this build but its file cannot be read (see the log)`, { path: url }), false, head);
    const gz = gzip !== null;
    res.cork(() => {
      res.writeStatus('200 OK');
      res.writeHeader('Content-Type', a.contentType);
      res.writeHeader('Cache-Control', a.cacheControl);
      res.writeHeader('Vary', 'Accept-Encoding');
      if (gz) res.writeHeader('Content-Encoding', 'gzip');
      if (head) endHead(res, body.byteLength);
      else res.end(body);
    });
  }
}

function hostRefused(sent: string): Reply {
  const host = sent.slice(0, 255);
  return errorReply(
    403,
    'host_not_allowed',
    `this station does not answer to the host name "${host}" (protection against DNS rebinding). ` +
      `To allow it, add it to ALLOWED_HOSTS in the service environment (comma-separated, e.g. ALLOWED_HOSTS=${host.replace(/:\d+$/, '') || 'station.lan'}; ` +
      `/etc/default/satstation on the appliance) and restart; IP addresses, localhost and this machine's own name (and <name>.local) are always served`,
    { host, setting: 'ALLOWED_HOSTS' },
  );
}

function crossOriginRefused(method: string, path: string, why: string): Reply {
  return errorReply(
    403,
    'cross_origin_refused',
    `${method} ${path} refused: ${why}. Changes are accepted from this station's own pages and from clients that send no Origin (curl, scripts); stops are accepted from anywhere`,
    { reason: why },
  );
}

/** Read while the request is valid (before any await): the bearer token, the login cookie, the address. */
function readCredentials(res: uWS.HttpResponse, req: uWS.HttpRequest): RequestCredentials {
  const auth = req.getHeader('authorization');
  const bearer = /^Bearer\s+(\S.*)$/i.exec(auth);
  return {
    bearer: bearer ? bearer[1].trim() : null,
    cookie: cookieValue(req.getHeader('cookie'), SESSION_COOKIE),
    ip: Buffer.from(res.getRemoteAddressAsText()).toString(),
  };
}

function bodyLength(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** A HEAD answer: the GET's headers and Content-Length, no body (a body would desync keep-alive framing). */
function endHead(res: uWS.HttpResponse, contentLength: number): void {
  // uWS 20.30's endWithoutBody(n), and endWithoutBody(undefined, close), ignore the call and leave the
  // response open; so the header is written by hand and endWithoutBody() (which adds none) ends it.
  res.writeHeader('Content-Length', String(contentLength));
  res.endWithoutBody();
}

/** The answer must match its documented schema (tests only: see HttpServerOptions.checkResponses). */
function checkResponse(route: RouteDef, out: unknown): void {
  const r = v.safeParse(route.response!, JSON.parse(JSON.stringify(out ?? {})));
  if (r.success) return;
  const fields = r.issues.slice(0, 10).map((i) => ({ field: i.path?.map((p) => String(p.key)).join('.') || '(root)', message: i.message }));
  throw new AppError(500, 'response_schema_mismatch', `${route.method} ${route.path} answered outside its documented response schema`, { fields });
}
