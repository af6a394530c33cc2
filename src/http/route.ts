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

export interface RequestContext<Q, B> {
  query: Q;
  body: B;
  /** Lower-cased request headers the handlers may care about. */
  accept: string;
  acceptEncoding: string;
  path: string;
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
