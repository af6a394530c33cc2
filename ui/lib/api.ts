// The one way pages talk to the appliance: JSON in, JSON out, and the API's error body
// ({"error":{"code","message","details"}}) turned into an ApiError that names its fields.

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: unknown = null,
  ) {
    super(message);
  }
  /** The fields an error names: details.fields of a validation error, or the one details.field. */
  get fields(): FieldError[] {
    const d = this.details as { fields?: unknown; field?: unknown } | null;
    if (Array.isArray(d?.fields)) return d.fields as FieldError[];
    // A check across fields or against limits (el_max_deg not above el_min_deg, a goto beyond
    // the stop) names its one field as details.field, the message being the error's own.
    return typeof d?.field === 'string' ? [{ field: d.field, message: this.message }] : [];
  }
  /** The message for one field (`a.b` also matches an error on `a.b.c`), or null. */
  fieldMessage(name: string): string | null {
    const hit = this.fields.find((f) => f.field === name || f.field.startsWith(name + '.') || f.field.startsWith(name + '['));
    return hit ? hit.message : null;
  }
}

/** Served from the service worker's cache because the appliance did not answer. */
export const SW_CACHED_HEADER = 'x-satstation-cached-at';

export interface JsonAnswer<T> {
  data: T;
  /** Epoch ms the data left the appliance (the cache time when it came from the service worker). */
  receivedAt: number;
  /** True when the appliance did not answer and the service worker served its last copy. */
  fromCache: boolean;
}

async function send<T>(method: string, url: string, body?: unknown): Promise<JsonAnswer<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'unreachable', 'the appliance did not answer');
  }
  let parsed: unknown = null;
  try {
    parsed = await res.json();
  } catch {
    /* not JSON: reported below */
  }
  if (!res.ok) {
    const e = (parsed as { error?: { code?: string; message?: string; details?: unknown } } | null)?.error;
    throw new ApiError(res.status, e?.code ?? 'http_' + res.status, e?.message ?? `HTTP ${res.status}`, e?.details ?? null);
  }
  if (parsed === null) throw new ApiError(res.status, 'malformed_answer', 'the answer was not JSON');
  const cachedAt = res.headers.get(SW_CACHED_HEADER);
  return { data: parsed as T, receivedAt: cachedAt ? Number(cachedAt) : Date.now(), fromCache: cachedAt !== null };
}

const prefetched = new Map<string, { promise: Promise<JsonAnswer<unknown>>; answer?: JsonAnswer<unknown> }>();

/**
 * Starts a GET before the page renders (at module load); the page's first poll of the same
 * URL takes the answer instead of asking again, so the first frame can already hold data.
 */
export function prefetch(url: string): Promise<unknown> {
  const entry: { promise: Promise<JsonAnswer<unknown>>; answer?: JsonAnswer<unknown> } = { promise: send<unknown>('GET', url) };
  entry.promise.then((a) => (entry.answer = a)).catch(() => {}); // the poll that takes it reports a failure
  prefetched.set(url, entry);
  return entry.promise;
}

/** A prefetched answer that has already arrived, taken (once) for a first render. */
export function takePrefetched<T>(url: string): JsonAnswer<T> | null {
  const e = prefetched.get(url);
  if (!e?.answer) return null;
  prefetched.delete(url);
  return e.answer as JsonAnswer<T>;
}

export function getJson<T>(url: string): Promise<JsonAnswer<T>> {
  const e = prefetched.get(url);
  if (e) {
    prefetched.delete(url);
    return e.promise as Promise<JsonAnswer<T>>;
  }
  return send<T>('GET', url);
}
export const postJson = <T>(url: string, body: unknown = {}) => send<T>('POST', url, body).then((a) => a.data);

/** A readable line for any error a call can throw. */
export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));
