import { statSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import * as v from 'valibot';
import { readTextCapped } from '../store/atomic-file.js';
import { STATE_FILE_MAX_BYTES, type JsonStore } from '../store/json-store.js';
import type { Clock } from '../util/clock.js';
import { Listeners } from '../util/listeners.js';
import { logger } from '../util/logger.js';
import { fieldError } from './field-error.js';
import { GpsFixSchema, locatorOf, MAX_PROFILES, withLocator, type GpsFix, type LocationPatch, type LocationProfile, type LocationState, type LocationStateSchema, type WithLocator } from './location-state.js';
import type { LocationProvider, ResolvedLocation } from '../orbit/location-types.js';

const log = logger('location');

/** A fix older than this (or more than FIX_FUTURE_MS ahead of our clock) is stale. */
export const GPS_FIX_FRESH_MS = 10 * 60_000;
const FIX_FUTURE_MS = 60_000;
/** Backstop for file systems where fs.watch misses renames; one stat() per tick. */
export const FILE_CHECK_MS = 5_000;
/** GPS jitter below this does not move the resolved location (pass tables re-key on moves). */
export const GPS_MOVE_M = 100;
export const GPS_MOVE_ALT_M = 50;

export interface GpsStatus {
  fix: GpsFix | null;
  fresh: boolean;
  age_s: number | null;
}

export interface LocationView {
  state: Omit<LocationState, 'profiles'> & { profiles: Array<WithLocator<LocationProfile>> };
  resolved: WithLocator<ResolvedLocation>;
  gps: GpsStatus;
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;

function distanceM(a: ResolvedLocation, b: ResolvedLocation): number {
  const dLat = (a.lat - b.lat) * 111_320;
  const dLon = (a.lon - b.lon) * 111_320 * Math.cos((a.lat * Math.PI) / 180);
  return Math.hypot(dLat, dLon);
}

/**
 * The station's effective location. GPS mode uses the fix the GPS process writes into
 * location.json while it is fresh, else the selected manual profile; `resolved.source` says
 * which. Every change of the resolved location fires onChange (pass tables re-key, lite
 * cache clears).
 */
export class LocationService implements LocationProvider {
  readonly name = 'location';
  private current: ResolvedLocation;
  private fix: GpsFix | null;
  private fixMs = NaN;
  private readonly listeners = new Listeners<ResolvedLocation>(log, 'location');
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private lastMtimeMs = -1;
  private evaluating = false;
  /** What the last evaluation saw; equal inputs cannot change the result (resolved() is hot). */
  private seen: { state: LocationState | null; fix: GpsFix | null; fresh: boolean } = { state: null, fix: null, fresh: false };
  /** Rounded lat/lon/alt (about 100 m / 10 m), for cache keys. */
  key = '';

  /**
   * `watchAfter`: the directory watch starts once it has resolved (the server listening): setting
   * it up reads Node's watcher modules and inotify (~1–2 ms of a boot's CPU), and the periodic
   * check, armed at start(), sees a file changed before it by its modification time.
   */
  constructor(
    private readonly store: JsonStore<typeof LocationStateSchema>,
    private readonly clock: Clock,
    private readonly watchAfter: Promise<unknown> = Promise.resolve(),
  ) {
    this.fix = null;
    this.adoptFix(store.get().gps_fix ?? null);
    this.current = this.candidate();
    this.key = locationKey(this.current);
  }

  start(): void {
    this.lastMtimeMs = this.mtime();
    void this.watchAfter.then(() => {
      if (this.timer && !this.watcher) this.watchDir(); // started and not stopped since
    });
    this.timer = setInterval(() => {
      if (this.mtime() !== this.lastMtimeMs) this.checkFile();
      else this.evaluate();
    }, FILE_CHECK_MS);
    this.timer.unref();
  }

  private watchDir(): void {
    try {
      // Watch the directory: the GPS process replaces the file by rename, which a file watch loses.
      const name = basename(this.store.path);
      this.watcher = watch(dirname(this.store.path), { persistent: false }, (_e, f) => {
        if (f !== null && f !== name) return;
        if (this.debounce) return;
        this.debounce = setTimeout(() => {
          this.debounce = null;
          this.checkFile();
        }, 50);
        this.debounce.unref();
      });
      this.watcher.on('error', (err) => log.warn('location watch failed; relying on the periodic check', err));
    } catch (err) {
      log.warn('cannot watch the data directory; relying on the periodic check', err);
    }
    // A file written between start() and now is read now, not at the next periodic check.
    if (this.mtime() !== this.lastMtimeMs) this.checkFile();
  }

  stop(): void {
    this.watcher?.close();
    this.watcher = null;
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    this.timer = this.debounce = null;
  }

  resolved(): ResolvedLocation {
    this.evaluate();
    return this.current;
  }

  onChange(fn: (loc: ResolvedLocation) => void): () => void {
    return this.listeners.add(fn);
  }

  /** The stored state with the latest fix the GPS process wrote. */
  state(): LocationState {
    const s = this.store.get();
    return s.gps_fix === this.fix ? s : { ...s, gps_fix: this.fix };
  }

  gpsStatus(): GpsStatus {
    const now = this.clock.now();
    const fresh = this.fixFresh(now);
    return { fix: this.fix, fresh, age_s: this.fix ? Math.round((now - this.fixMs) / 1000) : null };
  }

  view(): LocationView {
    const state = this.state();
    return {
      state: { ...state, profiles: state.profiles.map((p) => ({ ...p, locator: locatorOf(p.point) })) },
      resolved: withLocator(this.resolved()),
      gps: this.gpsStatus(),
    };
  }

  /** The location one source would give now (the lite snapshot's location_source). */
  resolveFor(source: 'manual' | 'gps'): ResolvedLocation {
    if (source === 'gps' && this.fix && this.fixFresh(this.clock.now())) return this.gpsPoint(this.fix);
    return this.manualPoint(this.store.get());
  }

  /** POST /api/v1/location. Validates everything before anything is written. */
  async update(patch: LocationPatch): Promise<LocationView> {
    this.checkFile(); // never write back an older fix than the GPS process left
    const s = this.store.get();
    let profiles = s.profiles;
    let selected = patch.selected_profile_id ?? s.selected_profile_id;
    if (patch.remove_profile_id !== undefined) {
      const id = patch.remove_profile_id;
      if (!profiles.some((p) => p.id === id)) throw fieldError('remove_profile_id', `no profile with id ${id}`);
      if (selected === id) throw fieldError('remove_profile_id', 'cannot remove the selected profile; select another first');
      profiles = profiles.filter((p) => p.id !== id);
    }
    if (patch.add_profile) {
      const add = patch.add_profile;
      const i = profiles.findIndex((p) => p.id === add.id);
      if (i < 0 && profiles.length >= MAX_PROFILES) throw fieldError('add_profile', `at most ${MAX_PROFILES} profiles`);
      profiles = i < 0 ? [...profiles, add] : profiles.map((p, j) => (j === i ? add : p));
    }
    if (!profiles.some((p) => p.id === selected)) throw fieldError('selected_profile_id', `no profile with id ${selected}`);
    await this.store.set({ source_mode: patch.source_mode ?? s.source_mode, selected_profile_id: selected, profiles, gps_fix: this.fix });
    this.evaluate();
    return this.view();
  }

  /** Pick up a fix the GPS process wrote. A half-written or invalid file is ignored until the next change. */
  checkFile(): void {
    this.lastMtimeMs = this.mtime();
    const read = readTextCapped(this.store.path, STATE_FILE_MAX_BYTES);
    if (read.kind === 'too-large' || read.kind === 'not-a-file') log.warn(() => `ignoring ${this.store.path}: ${read.kind === 'too-large' ? `${read.bytes} bytes, over the limit` : 'not a regular file'}`);
    let parsed: unknown;
    try {
      if (read.kind !== 'text') return this.evaluate();
      parsed = JSON.parse(read.text);
    } catch {
      return this.evaluate();
    }
    const raw = (parsed as { gps_fix?: unknown } | null)?.gps_fix ?? null;
    const res = raw === null ? null : v.safeParse(GpsFixSchema, raw);
    if (res && !res.success) log.warn(() => `ignoring an invalid gps_fix in ${this.store.path}`);
    this.adoptFix(res?.success ? res.output : null);
    this.evaluate();
  }

  /** Re-resolve now (fix freshness depends on the clock). Fires onChange on a change. */
  evaluate(): void {
    if (this.evaluating) return;
    const state = this.store.get();
    const fresh = this.fixFresh(this.clock.now());
    const seen = this.seen;
    if (seen.state === state && seen.fix === this.fix && seen.fresh === fresh) return;
    seen.state = state;
    seen.fix = this.fix;
    seen.fresh = fresh;
    const next = this.candidate();
    const cur = this.current;
    const same =
      next.source === cur.source &&
      (next.source === 'gps'
        ? distanceM(next, cur) < GPS_MOVE_M && Math.abs(next.alt_m - cur.alt_m) < GPS_MOVE_ALT_M
        : next.lat === cur.lat && next.lon === cur.lon && next.alt_m === cur.alt_m);
    if (same) return;
    this.current = next;
    this.key = locationKey(next);
    this.evaluating = true;
    try {
      this.listeners.emit(next);
    } finally {
      this.evaluating = false;
    }
  }

  private candidate(): ResolvedLocation {
    const s = this.store.get();
    if (s.source_mode === 'gps' && this.fix && this.fixFresh(this.clock.now())) return this.gpsPoint(this.fix);
    return this.manualPoint(s);
  }

  private manualPoint(s: LocationState): ResolvedLocation {
    const p = (s.profiles.find((x) => x.id === s.selected_profile_id) ?? s.profiles[0]).point;
    return { source: 'manual', lat: p.lat, lon: p.lon, alt_m: p.alt_m };
  }

  private gpsPoint(f: GpsFix): ResolvedLocation {
    return { source: 'gps', lat: round6(f.lat), lon: round6(f.lon), alt_m: Math.round(f.alt_m * 10) / 10 };
  }

  private fixFresh(now: number): boolean {
    const age = now - this.fixMs;
    return this.fix !== null && age <= GPS_FIX_FRESH_MS && age >= -FIX_FUTURE_MS;
  }

  private adoptFix(f: GpsFix | null): void {
    const ms = f ? Date.parse(f.timestamp) : NaN;
    this.fix = f && Number.isFinite(ms) ? f : null;
    this.fixMs = this.fix ? ms : NaN;
  }

  private mtime(): number {
    try {
      return statSync(this.store.path).mtimeMs;
    } catch {
      return -1;
    }
  }
}

/** Rounded to about 100 m horizontally and 10 m vertically. */
export function locationKey(l: { lat: number; lon: number; alt_m: number }): string {
  return `${l.lat.toFixed(3)},${l.lon.toFixed(3)},${Math.round(l.alt_m / 10) * 10}`;
}
