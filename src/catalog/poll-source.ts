// One source, politely: skip it inside its 2-hour window, its Cache-Control max-age or a 403/429
// backoff (answering from the records we hold), else a conditional fetch, parse and sanity check.
import { logger } from '../util/logger.js';
import { fetchSource } from './fetch-source.js';
import { describeSkipped, parseCatalogSliced, type ParseResult } from './parse.js';
import type { SourceState, SourceStateStore } from './source-state.js';
import type { OmmElements } from './types.js';

const log = logger('catalog-refresh');

/** After a successful fetch, no new fetch of that source for this long, whatever asks. */
export const POLITENESS_MS = 2 * 60 * 60 * 1000;
/** 403/429 without Retry-After: 1 h, doubling per consecutive refusal, at most 24 h. */
const BACKOFF_BASE_MS = 60 * 60 * 1000;
const BACKOFF_MAX_MS = 24 * 60 * 60 * 1000;
/** A source returning less than this share of its last count is broken (truncated, wrong group). */
export const MIN_SHARE_OF_LAST = 0.5;
const MIN_COUNT_FOR_SHARE_CHECK = 10;
/**
 * Bodies at least this large are parsed on a worker thread (parse-job.ts): the whole active
 * catalogue or a hostile body. A group of a few hundred objects (tens of KiB) parses in slices
 * here, cheaper than a worker's start.
 */
export const OFF_THREAD_PARSE_BYTES = 256 * 1024;

export interface SourceOutcome {
  source: string;
  status: 'fetched' | 'not-modified' | 'held' | 'failed';
  /** Records this source contributes (fresh, or held from its last good fetch); null: none. */
  records: OmmElements[] | null;
  skipped: number;
  message: string;
  /** The body was parsed on a worker thread. */
  parsedOffThread?: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const mins = (ms: number) => `${Math.round(ms / 60000)} min`;

export function nextFetchAllowed(st: SourceState): { at: number; why: string } {
  const options: { at: number; why: string }[] = [];
  if (st.last_success_ms !== null) options.push({ at: st.last_success_ms + POLITENESS_MS, why: '2-hour politeness window' });
  if (st.fresh_until_ms !== null) options.push({ at: st.fresh_until_ms, why: 'Cache-Control max-age' });
  if (st.backoff_until_ms !== null) options.push({ at: st.backoff_until_ms, why: `backing off after ${st.last_error ?? 'a refusal'}` });
  return options.reduce((a, b) => (b.at > a.at ? b : a), { at: -Infinity, why: '' });
}

export async function pollSource(
  source: string,
  state: SourceStateStore,
  o: { nowMs: number; timeoutMs: number; maxBytes: number; signal?: AbortSignal },
): Promise<SourceOutcome> {
  const st = state.get(source);
  const held = await state.held(source);
  const now = o.nowMs;
  const gate = nextFetchAllowed(st);
  if (now < gate.at) {
    const when = st.last_success_ms !== null ? `last fetched ${mins(now - st.last_success_ms)} ago; ` : '';
    return {
      source,
      status: 'held',
      records: held,
      skipped: 0,
      message: `${when}not contacted until ${iso(gate.at)} (${gate.why}); ${held ? `answering from ${held.length} held objects` : 'nothing held'}`,
    };
  }
  const res = await fetchSource(source, { timeoutMs: o.timeoutMs, maxBytes: o.maxBytes, etag: held ? st.etag : null, lastModified: held ? st.last_modified : null, nowMs: now, signal: o.signal });
  if (o.signal?.aborted) return { source, status: 'failed', records: held, skipped: 0, message: 'stopped' };
  const next: SourceState = { ...st, last_attempt_ms: now };
  const fail = async (message: string, backoffMs: number | null = null): Promise<SourceOutcome> => {
    next.failures = st.failures + 1;
    next.last_error = message;
    next.backoff_until_ms = backoffMs === null ? null : now + backoffMs;
    await state.set(source, next);
    const tail = held ? ` (keeping ${held.length} held objects)` : '';
    const wait = backoffMs === null ? '' : `; next attempt after ${iso(now + backoffMs)}`;
    return { source, status: 'failed', records: held, skipped: 0, message: message + wait + tail };
  };
  const succeed = async (records: OmmElements[], maxAgeMs: number | null, extra: Partial<SourceState>) => {
    Object.assign(next, { last_success_ms: now, fresh_until_ms: maxAgeMs ? now + maxAgeMs : null, backoff_until_ms: null, failures: 0, last_error: null, last_count: records.length }, extra);
    await state.set(source, next);
  };

  if (res.kind === 'error') {
    const refused = res.status === 403 || res.status === 429;
    const backoff = refused ? (res.retryAfterMs ?? Math.min(BACKOFF_BASE_MS * 2 ** st.failures, BACKOFF_MAX_MS)) : null;
    return fail(res.message, backoff);
  }
  if (res.kind === 'not-modified') {
    if (!held) {
      // Validators without data: forget them so the next fetch is unconditional.
      next.etag = null;
      next.last_modified = null;
      return fail('HTTP 304 but no records are held for this source');
    }
    await succeed(held, res.maxAgeMs, {});
    return { source, status: 'not-modified', records: held, skipped: 0, message: `not modified (HTTP 304); ${held.length} held objects are current` };
  }
  const offThread = res.body.length >= OFF_THREAD_PARSE_BYTES;
  const parsed = await parseBody(res.body, now, offThread, o.signal);
  if (!parsed) return { source, status: 'failed', records: held, skipped: 0, message: 'stopped' };
  if (typeof parsed === 'string') return fail(parsed);
  if (parsed.error) return fail(`${parsed.error}${res.finalUrl !== source ? ` (redirected to ${res.finalUrl})` : ''}`);
  for (const s of parsed.skipped) log.debug(() => `${source}: ${describeSkipped(s)}`);
  const n = parsed.records.length;
  if (st.last_count >= MIN_COUNT_FOR_SHARE_CHECK && n < st.last_count * MIN_SHARE_OF_LAST) {
    return fail(`returned ${n} objects where the last good fetch had ${st.last_count}: treated as broken`);
  }
  await state.hold(source, parsed.records);
  await succeed(parsed.records, res.maxAgeMs, { etag: res.etag, last_modified: res.lastModified });
  const skippedNote = parsed.skippedCount ? `, ${parsed.skippedCount} skipped (${parsed.skipped.slice(0, 3).map((s) => `${s.norad_id ?? '?'}: ${s.reason}`).join('; ')}${parsed.skippedCount > 3 ? '; …' : ''})` : '';
  return { source, status: 'fetched', records: parsed.records, skipped: parsed.skippedCount, message: `fetched ${n} objects (${parsed.format}, ${Math.round(res.bytes / 1024)} KiB)${skippedNote}`, parsedOffThread: offThread };
}

/** The parse, on a worker thread or in slices here; null when stopped, a string when the worker failed. */
async function parseBody(body: Buffer, nowMs: number, offThread: boolean, signal?: AbortSignal): Promise<ParseResult | string | null> {
  if (!offThread) return parseCatalogSliced(body, { nowMs, signal });
  const { parseOffThread } = await import('./parse-job.js');
  const r = await parseOffThread(body, { nowMs }, signal ?? new AbortController().signal);
  return r.kind === 'done' ? r.value : r.kind === 'aborted' ? null : r.message;
}
