// Transmitter data at run time (issue 27): SatNOGS DB's transmitters fetched politely (timeout,
// size cap, conditional GET, 403/429 backoff, a daily guard unless the operator asks, the offline
// switch), checked and reduced, persisted atomically as the last good dump, then handed to the
// injected consumer (guidance rebuilds its profiles). At boot the persisted dump is applied when
// it was taken after the bundled snapshot. Never throws: the summary says what happened; a source
// that fails, times out or sends garbage changes nothing.
import { join } from 'node:path';
import * as v from 'valibot';
import { removeStaleTemps, writeFileAtomic } from '../store/atomic-file.js';
import { JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { errorMessage } from '../util/errors.js';
import { jsonTextWithArrayPartsSteps } from '../util/json-bytes.js';
import { drainSliced } from '../util/loop-slices.js';
import { logger } from '../util/logger.js';
import { fetchSource } from './fetch-source.js';
import { MAX_TRANSMITTERS_BYTES, type CatalogSources } from './sources.js';
import { readPersistedDump, reduceDump, shrunkTooMuch, type PersistedDump } from './transmitters-dump.js';
import { LazyAbort } from '../util/lazy-abort.js';

const log = logger('transmitters');

/** Without the operator asking, the source is contacted at most once a day (the schedule is weekly). */
export const TRANSMITTERS_GUARD_MS = 24 * 60 * 60 * 1000;
/** 403/429 without Retry-After: wait an hour, whoever asks. */
const REFUSED_BACKOFF_MS = 60 * 60 * 1000;
/** Reading our own file: only a stuck disk takes this long. */
const PERSISTED_READ_TIMEOUT_MS = 30_000;
export const PERSISTED_DUMP_FILE = 'transmitters.json';

/** A profile the new data would have lost and was kept (guidance's KeptProfile). */
export interface KeptTransmitterProfile {
  norad_id: number;
  name: string;
  reason: string;
}

/** What the consumer did with a dump (guidance's TransmittersResult satisfies it). */
export interface TransmittersApplied {
  date: string;
  profiles: number;
  receive_only: number;
  kept: readonly KeptTransmitterProfile[];
  skipped_records: readonly unknown[];
  not_covered: readonly unknown[];
}

/** Who turns transmitter records into something (guidance's profiles); injected so the catalog never imports guidance. */
export interface TransmittersConsumer {
  apply(records: unknown[], date: string): TransmittersApplied;
  /** Date (ISO UTC) of the data the consumer starts with: the bundled snapshot's. */
  bundledDate: string;
}

/** One refresh, as POST /datasets/refresh reports it. */
export interface TransmittersSummary {
  /** New data was fetched and the profiles rebuilt from it. */
  refreshed: boolean;
  /** Date of the data in use after this call (ISO UTC). */
  date: string;
  /** Profiles and receive-only profiles built from the data in use; null while it is the bundled snapshot, counted by guidance. */
  profiles: number | null;
  receive_only: number | null;
  /** Profiles this refresh's data would have lost, kept from the previous data. */
  kept: KeptTransmitterProfile[];
  error: string | null;
  message: string;
}

const ms = v.nullable(v.number());
const StateSchema = v.object({
  source: v.string(),
  last_success_ms: ms,
  last_attempt_ms: ms,
  last_error: v.nullable(v.string()),
  failures: v.number(),
  backoff_until_ms: ms,
  etag: v.nullable(v.string()),
  last_modified: v.nullable(v.string()),
  /** Useful records in the last good dump: a sudden large drop marks a broken source. */
  last_count: v.number(),
});
type State = v.InferOutput<typeof StateSchema>;

const emptyState = (): State => ({ source: '', last_success_ms: null, last_attempt_ms: null, last_error: null, failures: 0, backoff_until_ms: null, etag: null, last_modified: null, last_count: 0 });

export interface TransmittersRefreshDeps {
  /** DATA_DIR/catalog: the state file and the persisted dump live here. */
  dir: string;
  clock: Clock;
  settings: () => CatalogSources;
  isOffline: () => boolean;
  /** NORAD ids the catalog tracks: their transmitters are kept whatever the band. */
  inCatalog: (norad: number) => boolean;
  consumer: TransmittersConsumer;
}

/** The data in use. */
interface InUse {
  origin: 'bundled' | 'persisted' | 'refreshed';
  source: string | null;
  date: string;
  records: number | null;
  total: number | null;
  profiles: number | null;
  receive_only: number | null;
}

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

export class TransmittersRefresh {
  private readonly store: JsonStore<typeof StateSchema>;
  private readonly dumpPath: string;
  private inUse: InUse;
  private running: Promise<TransmittersSummary> | null = null;
  private booted: Promise<unknown> = Promise.resolve();
  private readonly stopping = new LazyAbort();

  constructor(private readonly d: TransmittersRefreshDeps) {
    this.dumpPath = join(d.dir, PERSISTED_DUMP_FILE);
    removeStaleTemps(this.dumpPath); // a persist a kill interrupted
    this.store = new JsonStore({ dir: d.dir, name: 'transmitters-state', schema: StateSchema, defaults: emptyState, now: () => d.clock.now() });
    this.inUse = { origin: 'bundled', source: null, date: d.consumer.bundledDate, records: null, total: null, profiles: null, receive_only: null };
  }

  /** Boot: apply the persisted dump when it was taken after the bundled snapshot. Resolves when done (refreshes wait for it). */
  loadPersisted(): Promise<void> {
    const p = this.readPersisted().then((dump) => {
      if (!dump) return;
      if (Date.parse(dump.date) <= Date.parse(this.d.consumer.bundledDate)) {
        log.info(`persisted transmitters of ${dump.date} are not newer than the bundled ${this.d.consumer.bundledDate}: bundled data in use`);
        return;
      }
      const applied = this.applyDump(dump, 'persisted');
      if (applied instanceof Error) log.warn(`persisted transmitters of ${dump.date} not applied: ${applied.message}`);
      else log.info(`transmitters of ${dump.date} from ${dump.source}: ${applied.profiles} profiles (${applied.receive_only} receive-only)`);
    });
    this.booted = p.catch(() => {});
    return p;
  }

  /**
   * One refresh at a time: a second caller shares the one in flight. `force`: the operator asked
   * (past the daily guard). `after`: a fetched dump is reduced once it settles (a catalog refresh in
   * flight, whose satellites it keeps).
   */
  refresh(trigger: string, opts: { force?: boolean; after?: Promise<unknown> } = {}): Promise<TransmittersSummary> {
    if (!this.running) {
      this.running = this.booted.then(() => this.run(trigger, opts.force ?? false, opts.after)).finally(() => (this.running = null));
    }
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    await this.running?.catch(() => {});
    await this.store.flush();
  }

  /** What GET /api/v1/datasets shows: the data in use and the source's fetch state. */
  view() {
    const st = this.store.get();
    return {
      source: this.d.settings().transmitters_source,
      origin: this.inUse.origin,
      date: this.inUse.date,
      data_source: this.inUse.source,
      records: this.inUse.records,
      records_total: this.inUse.total,
      profiles: this.inUse.profiles,
      receive_only: this.inUse.receive_only,
      last_success: iso(st.last_success_ms),
      last_attempt: iso(st.last_attempt_ms),
      last_error: st.last_error,
      backoff_until: st.backoff_until_ms !== null && st.backoff_until_ms > this.d.clock.now() ? iso(st.backoff_until_ms) : null,
    };
  }

  private summary(partial: { refreshed?: boolean; kept?: KeptTransmitterProfile[]; error?: string | null; message: string }): TransmittersSummary {
    const u = this.inUse;
    return { refreshed: false, date: u.date, profiles: u.profiles, receive_only: u.receive_only, kept: [], error: null, ...partial };
  }

  private async run(trigger: string, force: boolean, after?: Promise<unknown>): Promise<TransmittersSummary> {
    const s = this.d.settings();
    const source = s.transmitters_source;
    const now = this.d.clock.now();
    if (!source) return this.summary({ message: 'transmitters source disabled (transmitters_source is empty)' });
    if (this.stopping.aborted) return this.summary({ error: 'stopping', message: 'stopping' });
    // State of another source (the setting changed) says nothing about this one.
    const st = this.store.get().source === source ? this.store.get() : { ...emptyState(), source };
    if (st.backoff_until_ms !== null && now < st.backoff_until_ms) {
      return this.summary({ message: `not contacted until ${iso(st.backoff_until_ms)}: backing off after ${st.last_error ?? 'a refusal'}` });
    }
    if (!force && st.last_success_ms !== null && now >= st.last_success_ms && now - st.last_success_ms < TRANSMITTERS_GUARD_MS) {
      return this.summary({ message: `transmitters fetched at ${iso(st.last_success_ms)}; not contacted again until ${iso(st.last_success_ms + TRANSMITTERS_GUARD_MS)} unless asked` });
    }
    if (this.d.isOffline()) return this.summary({ message: 'offline switch is on: transmitters not refreshed' });

    const held = this.inUse.origin !== 'bundled' && this.inUse.source === source;
    const res = await fetchSource(source, {
      timeoutMs: s.fetch_timeout_ms,
      maxBytes: Math.min(s.max_bytes, MAX_TRANSMITTERS_BYTES),
      etag: held ? st.etag : null,
      lastModified: held ? st.last_modified : null,
      nowMs: now,
      signal: this.stopping.signal,
    });
    await after;
    const fail = async (why: string, backoffMs: number | null = null) => {
      const error = `transmitters refresh failed: ${why}`;
      log.warn(`${trigger}: ${error}`);
      await this.store.set({ ...st, last_attempt_ms: now, last_error: error, failures: st.failures + 1, backoff_until_ms: backoffMs === null ? null : now + backoffMs }).catch(() => {});
      return this.summary({ error, message: `${error}; profiles unchanged (data of ${this.inUse.date})` });
    };
    const succeeded = (extra: Partial<State>) => this.store.set({ ...st, last_attempt_ms: now, last_success_ms: now, last_error: null, failures: 0, backoff_until_ms: null, ...extra });

    if (res.kind === 'error') {
      const refused = res.status === 403 || res.status === 429;
      return fail(res.message, refused ? (res.retryAfterMs ?? REFUSED_BACKOFF_MS) : null);
    }
    if (res.kind === 'not-modified') {
      if (!held) return fail('HTTP 304 but no dump from this source is held');
      await succeeded({}).catch(() => {});
      return this.summary({ message: `not modified (HTTP 304): the data of ${this.inUse.date} is current` });
    }
    const reduced = reduceDump(res.body.toString('utf8'), this.d.inCatalog);
    if (reduced.kind === 'unusable') return fail(reduced.reason);
    if (shrunkTooMuch(reduced.records.length, st.last_count)) {
      return fail(`${reduced.records.length} useful records where the last good dump had ${st.last_count}: treated as broken`);
    }
    const dump: PersistedDump = { source, date: new Date(now).toISOString(), total: reduced.total, records: reduced.records };
    try {
      // On disk first: a dump that cannot be kept is not used either, so a restart serves what now is.
      await this.persist(dump);
    } catch (err) {
      return fail(`cannot persist the dump: ${errorMessage(err)}`);
    }
    const applied = this.applyDump(dump, 'refreshed');
    if (applied instanceof Error) return fail(`rebuilding profiles failed: ${applied.message}`);
    await succeeded({ source, etag: res.etag, last_modified: res.lastModified, last_count: reduced.records.length }).catch(() => {});
    const message = `${reduced.total} transmitters fetched (${Math.round(res.bytes / 1024)} KiB), ${reduced.records.length} kept for guidance: ${applied.profiles} profiles (${applied.receive_only} receive-only)${applied.kept.length ? `, ${applied.kept.length} kept from the previous data` : ''}`;
    log.info(`${trigger}: ${message}`);
    return this.summary({ refreshed: true, kept: [...applied.kept], message });
  }

  private applyDump(dump: PersistedDump, origin: InUse['origin']): TransmittersApplied | Error {
    try {
      const applied = this.d.consumer.apply(dump.records, dump.date);
      this.inUse = { origin, source: dump.source, date: dump.date, records: dump.records.length, total: dump.total, profiles: applied.profiles, receive_only: applied.receive_only };
      return applied;
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  private async persist(dump: PersistedDump): Promise<void> {
    const { records, ...head } = dump;
    await writeFileAtomic(this.dumpPath, await drainSliced(jsonTextWithArrayPartsSteps(JSON.stringify(head), 'records', records)));
  }

  private async readPersisted(): Promise<PersistedDump | null> {
    const res = await fetchSource(this.dumpPath, { timeoutMs: PERSISTED_READ_TIMEOUT_MS, maxBytes: MAX_TRANSMITTERS_BYTES, nowMs: 0 });
    if (res.kind !== 'data') return null; // none yet (or unreadable: the next refresh writes it again)
    const dump = readPersistedDump(res.body.toString('utf8'));
    if (!dump) log.warn(`${this.dumpPath} is damaged: ignored until the next refresh replaces it`);
    return dump;
  }
}
