// The logbook: logs a QSO with what the station knows (qso-fill.ts), keeps it in the journal
// file, lists, deletes and exports it, and pushes it to Cloudlog/Wavelog through the queue. It
// reads the station only through the functions it is handed (StationReader): the app composes
// them from the radio, the APRS identity, the location, the lite focus and the frequency guide,
// so this area loads none of those modules and they load none of it.
import { conflict, badRequest, notFound } from '../util/errors.js';
import type { Clock } from '../util/clock.js';
import type { Logger } from '../util/logger.js';
import { adifChunks, adifPushString } from './adif.js';
import { pushToCloudlog, type PushResult, type PushTarget } from './cloudlog-client.js';
import { LogbookJournal } from './journal.js';
import type { JournalEvent } from './journal-events.js';
import { PushQueue, type Backoff, type PushQueueStatus } from './push-queue.js';
import { fillQso, qsoMode, qsoRadio, subjectSatellite, type PassWindow, type QsoRadio, type Recommendation, type RigView } from './qso-fill.js';
import type { SatelliteIdentity } from './lotw-names.js';
import { OPERATOR_MODE_NAMES } from './operator-modes.js';
import type { LogbookSettings, PushState, QsoRecord, QsoRequest } from './schemas.js';
import { nodeCrypto } from '../util/lazy-builtins.js';

/** What the logbook reads from the rest of the station (composed by the app). */
export interface StationReader {
  /** The APRS identity's callsign without its SSID when it is valid; null otherwise. */
  identityCallsign(): string | null;
  /** The resolved location's locator, 6 characters. */
  gridsquare(): string | null;
  /** The radio session's pass (a satellite selected) and the lite focus's pass, at now_ms. */
  passes(now_ms: number): { session: PassWindow | null; focus: PassWindow | null };
  /** The catalog's satellite: its id, NORAD number and names; null when the catalog does not know it. */
  satellite(sat_id: string): (SatelliteIdentity & { sat_id: string }) | null;
  /** The frequency guide's recommendation now; null without a profile. */
  recommend(sat_id: string, now_ms: number): Recommendation | null;
  rig(): RigView;
  /** The pass recording under way at that instant (its id and the offset into it); null when none. */
  recording(at_ms: number): { recording_id: string; recording_offset_s: number } | null;
  /** A QSO was logged (the recording's journal lists it). */
  logged(q: QsoRecord): void;
}

/** Pushes one ADIF record to the target; the Cloudlog driver by default (tests of the queue alone may pass another). */
export type PushFn = (target: PushTarget, adif: string, o: { timeoutMs: number; signal?: AbortSignal; nowMs?: number }) => Promise<PushResult>;

export interface LogbookServiceDeps {
  clock: Clock;
  /** The journal file (<DATA_DIR>/logbook.jsonl). */
  path: string;
  maxRecords: number;
  settings: () => LogbookSettings;
  station: StationReader;
  log: Logger;
  push?: PushFn;
  backoff?: Backoff;
  /** One push's answer timeout. */
  pushTimeoutMs?: number;
  programVersion: string;
  /** The logbook changed (a QSO logged or deleted, a push state): LogbookArea.onChange. */
  changed?: () => void;
}

export interface LogbookStatus {
  records: number;
  /** Whether the Cloudlog/Wavelog push is on. */
  push_enabled: boolean;
  /** Waiting for the logger, the push on. */
  pending: number;
  /** Not pushed because the push is off (they go out when it is turned on); 0 while it is on. */
  not_pushed: number;
  failed: number;
  last_error: string | null;
  queue: PushQueueStatus;
}

const PUSH_TIMEOUT_MS = 15_000;

const MODE_UNKNOWN = `the station cannot tell this QSO's mode (no rig reading, no frequency guide for a satellite): send mode, one of ${OPERATOR_MODE_NAMES.join(', ')}`;
/** Why a record an older version stored without a mode is not pushed (docs/decisions/logbook.md). */
export const NO_MODE_PUSH_ERROR = 'no mode: not sent (LoTW and the loggers refuse a QSO without MODE); log it again with its time and mode, then delete this one';

/** What the station knows of a QSO logged now: its satellite (none: a terrestrial QSO) and the radio. */
interface OnTheAir {
  sat: (SatelliteIdentity & { sat_id: string }) | null;
  radio: QsoRadio;
}

export class LogbookService {
  private readonly journal: LogbookJournal;
  readonly queue: PushQueue;
  private newestFirst: { version: number; items: QsoRecord[] } | null = null;

  private constructor(private readonly d: LogbookServiceDeps) {
    this.journal = new LogbookJournal({ path: d.path, maxRecords: d.maxRecords, log: d.log });
    const push = d.push ?? pushToCloudlog;
    this.queue = new PushQueue({
      clock: d.clock,
      enabled: () => d.settings().cloudlog_enabled,
      next: () => this.oldestPending(),
      push: (q, signal) => {
        const s = d.settings();
        const target = { url: s.cloudlog_url, apiKey: s.cloudlog_api_key, stationProfileId: s.cloudlog_station_profile_id };
        return push(target, adifPushString(q), { timeoutMs: d.pushTimeoutMs ?? PUSH_TIMEOUT_MS, signal, nowMs: d.clock.now() });
      },
      mark: (id, state, error) => this.mark(id, state, error),
      backoff: d.backoff,
      log: d.log,
    });
  }

  /** Loads the journal and resumes pushing what a previous run left pending. */
  static async open(d: LogbookServiceDeps): Promise<LogbookService> {
    const s = new LogbookService(d);
    await s.journal.load();
    await s.failModeless();
    s.queue.kick();
    return s;
  }

  /** Logs a QSO: filled from the station, written to the file, then answered and queued for the push. */
  async log(req: QsoRequest): Promise<QsoRecord> {
    const st = this.d.station;
    const now_ms = this.d.clock.now();
    const station_callsign = this.d.settings().station_callsign || st.identityCallsign();
    if (!station_callsign) {
      throw conflict('no station callsign: set station_callsign in the logbook settings or a valid callsign in the APRS settings', { field: 'station_callsign' });
    }
    const { sat, radio } = this.onTheAir(req.sat_id, now_ms);
    const mode = qsoMode(req.mode, radio);
    if (!mode) throw badRequest(`invalid body: mode: ${MODE_UNKNOWN}`, { fields: [{ field: 'mode', message: MODE_UNKNOWN }] }, 'validation_failed');
    const time_on_ms = req.time_on ? Date.parse(req.time_on) : now_ms;
    const q = fillQso(req, { id: newId(now_ms), now_ms, station_callsign, my_gridsquare: st.gridsquare(), sat, radio, mode, recording: st.recording(time_on_ms) });
    await this.change({ t: 'qso', q });
    st.logged(q);
    this.queue.kick();
    return q;
  }

  /** The satellite and mode a QSO logged now would get from the station; mode null: the request must say it. */
  stationMode(sat_id?: string): { sat_id: string | null; mode: string | null; submode: string | null } {
    const { sat, radio } = this.onTheAir(sat_id, this.d.clock.now());
    const mode = qsoMode(undefined, radio);
    return { sat_id: sat?.sat_id ?? null, mode: mode?.mode ?? null, submode: mode?.submode ?? null };
  }

  /** The request's satellite, else the radio session's or the lite focus pass's under way; the rig's or guide's frequencies. */
  private onTheAir(requested: string | null | undefined, now_ms: number): OnTheAir {
    const st = this.d.station;
    // null is the operator's "no satellite" (a terrestrial QSO): no guess then.
    let sat_id = requested ?? null;
    if (requested === undefined) {
      const p = st.passes(now_ms);
      sat_id = subjectSatellite(p.session, p.focus, now_ms);
    }
    const sat = sat_id === null ? null : st.satellite(sat_id);
    if (sat_id !== null && !sat) throw badRequest(`sat_id: unknown satellite ${sat_id}`, { field: 'sat_id' }, 'unknown_satellite');
    return { sat, radio: qsoRadio(sat_id, st.rig(), sat_id === null ? null : st.recommend(sat_id, now_ms)) };
  }

  /** Newest first (by time_on, then by when they were logged); sorted once per change, not per request. */
  list(limit?: number): QsoRecord[] {
    if (this.newestFirst?.version !== this.journal.version) {
      const all = [...this.journal.records.values()].reverse();
      all.sort((a, b) => (a.time_on < b.time_on ? 1 : a.time_on > b.time_on ? -1 : 0)); // stable: equal times keep newest-logged first
      this.newestFirst = { version: this.journal.version, items: all };
    }
    const all = this.newestFirst.items;
    return limit === undefined ? all.slice() : all.slice(0, limit);
  }

  async remove(id: string): Promise<QsoRecord> {
    const q = this.journal.records.get(id);
    if (!q) throw notFound(`no QSO ${id} in the logbook`, { field: 'id' });
    await this.change({ t: 'del', id });
    return q;
  }

  /** The ADIF file in chunks, oldest QSO first (what loggers import in order); a record without a mode is left out and counted in the header. */
  exportChunks(programVersion = this.d.programVersion): Generator<string> {
    const oldestFirst = this.list().reverse();
    const withMode = oldestFirst.filter(hasMode);
    return adifChunks(withMode, { programVersion, createdMs: this.d.clock.now(), leftOutWithoutMode: oldestFirst.length - withMode.length });
  }

  /**
   * The logbook settings changed. A new target (URL, key or station) gets another chance at
   * what the old one refused; turning the push on starts the queue, turning it off stops it
   * from arming anything.
   */
  async settingsChanged(prev: LogbookSettings, next: LogbookSettings): Promise<void> {
    const targetChanged = prev.cloudlog_url !== next.cloudlog_url || prev.cloudlog_api_key !== next.cloudlog_api_key || prev.cloudlog_station_profile_id !== next.cloudlog_station_profile_id;
    if (!next.cloudlog_enabled) return;
    if (targetChanged) {
      for (const q of [...this.journal.records.values()]) if (q.push_state === 'failed' && hasMode(q)) await this.mark(q.id, 'pending', null);
    }
    if (targetChanged || !prev.cloudlog_enabled) this.queue.retryNow();
    else this.queue.kick();
  }

  /** Whether QSOs are pushed to Cloudlog/Wavelog: a 'pending' one with the push off is only "not pushed". */
  pushEnabled(): boolean {
    return this.d.settings().cloudlog_enabled;
  }

  status(): LogbookStatus {
    let waiting = 0;
    let failed = 0;
    for (const q of this.journal.records.values()) {
      if (q.push_state === 'pending') waiting++;
      else if (q.push_state === 'failed') failed++;
    }
    const on = this.pushEnabled();
    return {
      records: this.journal.records.size,
      push_enabled: on,
      pending: on ? waiting : 0,
      not_pushed: on ? 0 : waiting,
      failed,
      last_error: this.journal.lastError,
      queue: this.queue.status,
    };
  }

  async stop(): Promise<void> {
    await this.queue.stop();
    await this.journal.close();
  }

  private oldestPending(): QsoRecord | null {
    for (const q of this.journal.records.values()) if (q.push_state === 'pending' && hasMode(q)) return q;
    return null;
  }

  /** Pending records an older version stored without a mode are failed with the reason, so the operator sees why they stay. */
  private async failModeless(): Promise<void> {
    try {
      for (const q of [...this.journal.records.values()]) if (q.push_state === 'pending' && !hasMode(q)) await this.mark(q.id, 'failed', NO_MODE_PUSH_ERROR);
    } catch (err) {
      // Not pushed either way (oldestPending skips them); the logbook still loads.
      this.d.log.warn('marking the QSOs without a mode failed', err);
    }
  }

  /** Every change of the records goes through here, so each is announced once it is in the file. */
  private async change(e: JournalEvent): Promise<void> {
    await this.journal.change(e);
    this.d.changed?.();
  }

  private async mark(id: string, state: PushState, error: string | null): Promise<void> {
    const q = this.journal.records.get(id);
    if (!q || (q.push_state === state && q.push_error === error)) return; // deleted meanwhile, or nothing new
    await this.change({ t: 'push', id, state, error: error?.slice(0, 500) ?? null });
  }
}

/** Whether a record can go to LoTW or a logger: QSOs logged since issue 32 always can. */
const hasMode = (q: QsoRecord): boolean => q.mode !== null;

/** Time-ordered and unique across restarts: base-36 ms and 32 random bits. */
// crypto is read at the first QSO logged, not when the logbook loads (its events topic loads it
// for every page that subscribes): with it come Node's stream modules, ~2 MiB of RSS together.
const newId = (now_ms: number): string => `${now_ms.toString(36)}-${nodeCrypto().randomBytes(4).toString('hex')}`;
