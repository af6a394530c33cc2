import type * as v from 'valibot';

export type Method = 'GET' | 'POST';
type AnySchema = v.GenericSchema<unknown, any>;
type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

/** A pre-serialized answer (cached payloads, pages, CSV exports). */
export class RawReply {
  constructor(
    readonly body: string | Uint8Array,
    readonly contentType = 'application/json; charset=utf-8',
    readonly status = 200,
    readonly headers: Record<string, string> = {},
    /** Pre-compressed twin, sent when the client accepts gzip. */
    readonly gzipBody: Uint8Array | null = null,
  ) {}
}

/** A JSON answer's body: the one rule the server and the push hub's topics both send by. */
export const jsonText = (out: unknown): string => JSON.stringify(out ?? {});

/**
 * A reply written chunk by chunk as the iterable yields them (an export of thousands of records):
 * memory holds one chunk at a time, and the socket's backpressure paces the iteration.
 */
export class StreamReply {
  constructor(
    readonly chunks: Iterable<string | Uint8Array>,
    readonly contentType: string,
    readonly headers: Record<string, string> = {},
  ) {}
}

/**
 * A file's bytes, read from disk as the socket takes them (a recording's audio): a known length,
 * so HEAD answers without reading, and a byte range (`Range: bytes=a-b`) is a 206 of that slice.
 * The handler has already checked the range against `size`.
 */
export class FileReply {
  constructor(
    readonly path: string,
    readonly contentType: string,
    /** The whole file's size when the handler looked. */
    readonly size: number,
    /** The slice to send, inclusive; null: the whole file (200). */
    readonly range: { start: number; end: number } | null,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** What a request presents to the operator lock (src/access): read for every POST and for routes that ask. */
export interface RequestCredentials {
  /** `Authorization: Bearer <token>`, or null. */
  bearer: string | null;
  /** The login cookie's value, or null. */
  cookie: string | null;
  /** The client address, for counting wrong tokens. */
  ip: string;
}

export interface RequestContext<Q, B> {
  query: Q;
  body: B;
  /** Lower-cased request headers the handlers may care about. */
  accept: string;
  acceptEncoding: string;
  path: string;
  /** The `{name}` segments of a resource route's path (`/api/v1/recordings/{id}`); empty elsewhere. */
  params: Readonly<Record<string, string>>;
  /** The `Range` request header ('' when absent), for routes that answer a FileReply. */
  range: string;
  /** Set for POSTs and for routes with `credentials: true`; null otherwise. */
  credentials: RequestCredentials | null;
}

export interface RouteDef<QS extends AnySchema | undefined = any, BS extends AnySchema | undefined = any> {
  method: Method;
  path: string;
  /** Area tag for /docs, e.g. "settings". */
  tag: string;
  summary: string;
  query?: QS;
  body?: BS;
  /** Documents the success body in /docs. */
  response?: AnySchema;
  /**
   * A POST that needs no operator token even when the station is locked: emergency stop (it can
   * only make the station safer) and the login itself.
   */
  open?: boolean;
  /**
   * Served whatever the request's Host and Origin (src/http/request-origin.ts): only for routes
   * that can only make the station safer, i.e. stops (APRS emergency stop, a rotator stop), which
   * any page, tool or name must be able to reach. Everything else that changes state is refused
   * from another origin.
   */
  allowCrossSite?: boolean;
  /** A GET whose handler reads ctx.credentials (the lock state says whether the caller is signed in). */
  credentials?: boolean;
  /** Spec part 4 "Lite snapshot rules": these POSTs clear the lite snapshot cache on success. */
  clearsLiteCache?: boolean;
  handler: (ctx: RequestContext<Out<QS>, Out<BS>>) => unknown | Promise<unknown>;
}

/** Identity helper that keeps the query/body types flowing into the handler. */
export function route<QS extends AnySchema | undefined = undefined, BS extends AnySchema | undefined = undefined>(
  def: RouteDef<QS, BS>,
): RouteDef<QS, BS> {
  return def;
}
