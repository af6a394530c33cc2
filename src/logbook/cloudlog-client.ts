// Driver: push one QSO to Cloudlog or Wavelog (POST {url}/index.php/api/qso, JSON
// {key, station_profile_id, type: "adif", string}). Never throws: the answer is one of three
// kinds the push queue acts on.
//   pushed    the logger has the QSO (created now, or already there: a duplicate is success,
//             so a retry after a lost answer cannot make a second entry count against us)
//   rejected  the logger refused it for a reason a retry cannot fix (bad key, station profile
//             not the key owner's, callsign mismatch, no API at that URL): shown, not retried
//   failed    transient (timeout, refused connection, 5xx, 429): retried with backoff
// What the loggers answer (read from their Api.php::qso): 201 {status:"created"} with Cloudlog's
// imported_count/messages (a duplicate is imported_count 0 and a message ending "Duplicate") or
// Wavelog's adif_count/adif_errors; Wavelog answers 400 {status:"abort", messages} when the
// import had errors; both answer 401 {status:"failed", reason} for a bad key or station id, and
// 200 {status:"failed", reason:"wrong JSON"} for a body they cannot read.
import type { IncomingMessage } from 'node:http';
import { retryAfterMs } from '../util/retry-after.js';

export interface PushTarget {
  /** The logger's base URL as in the browser: https://log.example.org or …/index.php. */
  url: string;
  apiKey: string;
  stationProfileId: string;
}

export interface PushOptions {
  timeoutMs: number;
  /** Aborts the push (service stop): reported as failed, so the QSO stays queued. */
  signal?: AbortSignal;
  /** Epoch ms "now" for a Retry-After date (injected clock). */
  nowMs?: number;
}

export type PushResult =
  | { kind: 'pushed'; duplicate: boolean; status: number }
  | { kind: 'rejected'; status: number | null; message: string }
  | { kind: 'failed'; status: number | null; message: string; retryAfterMs: number | null };

/** Cloudlog echoes the pushed string back; a few KiB is plenty for one record's answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

/** The API endpoint for a base URL; a base already ending in /index.php is not doubled. */
export function cloudlogQsoUrl(base: string): string {
  const trimmed = base.trim().replace(/\/+$/, '').replace(/\/index\.php$/i, '');
  return `${trimmed}/index.php/api/qso`;
}

/** Cloudlog's messages are HTML fragments ("…&nbsp;<b>W1AW</b>…<br>"): plain text for our log. */
export function plainMessage(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '; ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .replace(/[;\s]+$/, '')
    .trim()
    .slice(0, 300);
}

const isDuplicateMessage = (m: string) => /duplicate/i.test(m);

interface Answer {
  status?: unknown;
  reason?: unknown;
  messages?: unknown;
  imported_count?: unknown;
  adif_errors?: unknown;
}

/** The result of a complete HTTP answer (pure: status code and body text). */
export function classifyAnswer(status: number, body: string, retryAfterMs: number | null = null): PushResult {
  let json: Answer | null = null;
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Answer;
  } catch {
    json = null;
  }
  const messages = Array.isArray(json?.messages) ? json.messages.filter((m): m is string => typeof m === 'string').map(plainMessage).filter((m) => m !== '') : [];
  const reason = typeof json?.reason === 'string' ? plainMessage(json.reason) : null;
  const said = reason ?? (messages.length ? messages.join('; ') : null);

  if (status >= 500 || status === 429 || status === 408) {
    return { kind: 'failed', status, message: `HTTP ${status}${said ? `: ${said}` : ''}`, retryAfterMs };
  }
  if (status >= 300 && status < 400) {
    return { kind: 'rejected', status, message: `HTTP ${status}: the logger redirects; set its final URL (https?) in the logbook settings` };
  }
  if (json?.status === 'created') {
    // Cloudlog: imported_count 0 means nothing was added, and its messages say why.
    if (json.imported_count === 0 && messages.length && !messages.every(isDuplicateMessage)) {
      return { kind: 'rejected', status, message: messages.join('; ') };
    }
    const duplicate = json.imported_count === 0 && messages.length > 0 && messages.every(isDuplicateMessage);
    return { kind: 'pushed', duplicate, status };
  }
  if (json?.status === 'abort' && messages.length && messages.every(isDuplicateMessage)) {
    return { kind: 'pushed', duplicate: true, status };
  }
  if (status === 404 && !json) return { kind: 'rejected', status, message: 'HTTP 404: no Cloudlog/Wavelog API at this URL' };
  if (json?.status === 'failed' || json?.status === 'abort' || status >= 400) {
    return { kind: 'rejected', status, message: `HTTP ${status}: ${said ?? 'refused without a reason'}` };
  }
  // 200 and nothing readable: Cloudlog answers an empty 200 when the string is empty or the type
  // is not adif, i.e. it did not take the QSO.
  return { kind: 'rejected', status, message: `HTTP ${status} without an answer the push can read` };
}

/** Push one ADIF record. node:http rather than fetch (undici costs ~15 MiB RSS), loaded on first push. */
export async function pushToCloudlog(target: PushTarget, adif: string, o: PushOptions): Promise<PushResult> {
  let url: URL;
  try {
    url = new URL(cloudlogQsoUrl(target.url));
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return { kind: 'rejected', status: null, message: `not an http(s) URL: ${target.url}` };
  }
  const body = Buffer.from(JSON.stringify({ key: target.apiKey, station_profile_id: target.stationProfileId, type: 'adif', string: adif }));
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), o.timeoutMs);
  const stop = () => ctl.abort();
  o.signal?.addEventListener('abort', stop);
  try {
    const mod = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = mod.request(
        url,
        {
          method: 'POST',
          signal: ctl.signal,
          headers: { 'content-type': 'application/json', 'content-length': body.length, accept: 'application/json', 'user-agent': 'satstation (amateur radio appliance)' },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(body);
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes <= MAX_ANSWER_BYTES) chunks.push(chunk); // past the cap the rest is drained, not kept
    }
    const status = res.statusCode ?? 0;
    if (!res.complete) return { kind: 'failed', status, message: 'connection closed before the answer was complete', retryAfterMs: null };
    return classifyAnswer(status, Buffer.concat(chunks).toString('utf8'), retryAfterMs(res.headers['retry-after'], o.nowMs ?? Date.now()));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const message = o.signal?.aborted ? 'stopped' : ctl.signal.aborted ? `timed out after ${o.timeoutMs} ms` : `cannot reach the logger: ${e.code ?? e.message}`;
    return { kind: 'failed', status: null, message, retryAfterMs: null };
  } finally {
    clearTimeout(timer);
    o.signal?.removeEventListener('abort', stop);
  }
}
