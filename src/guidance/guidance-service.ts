import type { Catalog, CatalogProvider } from '../catalog/types.js';
import type { OrbitService, PassEvent } from '../orbit/types.js';
import { currentOrNextWorkablePass } from '../orbit/workable-pass.js';
import { iso } from '../util/clock.js';
import { Hash64 } from '../util/hash64.js';
import { logger } from '../util/logger.js';
import bundledProfiles from './data/profiles.json';
import { NO_PASS_PHASE, passPhase, type PhaseInfo } from './phase.js';
import { chooseRates, nearestRates, phaseRatesAt, phaseTargets, type RangeRateSource } from './range-rate.js';
import { checkedProfileFile, indexProfiles, parseProfileFile, type ProfileIndex } from './profiles.js';
import { PassRateSlab } from './pass-rate-slab.js';
import { buildGuidance, phaseIndex, type PhaseRates } from './recommendation.js';
import { PHASES, type FrequencyMatrix, type FrequencyProfile, type FrequencyRecommendation, type GuidanceEmbed, type ProfileEntry } from './schemas.js';
import { errorMessage, notFound } from '../util/errors.js';
import { join } from 'node:path';
import { encodePassRates, encodePassRatesParts, PASS_RATES_FILE, readPassRates, writePassRates, type PassRateEntry } from './pass-rates-file.js';
import { operatorEntry, OperatorProfileStore } from './operator-profiles.js';
import { keepLostProfiles, mergeProfileSources, type KeptProfile, type ProfileSource } from './profile-set.js';
import { curatedCorrections } from './transmitters/bundled.js';
import { buildProfiles, type NotCovered } from './transmitters/build-profiles.js';
import { parseTransmitters, type SkippedRecord } from './transmitters/record.js';

const log = logger('guidance');

/**
 * Passes whose phase range rates are kept: the /passes warm-up's whole horizon (at most 1000
 * items) and the passes under way fit, and it never grows past this.
 */
const PASS_CACHE_MAX = 2048;

export interface GuidanceOptions {
  selected_column_index?: number | null;
  /** The pass to guide for; null = no pass; undefined = the current or next pass reaching min_max_el_deg. */
  pass?: PassEvent | null;
  /**
   * When no pass is named: the lowest maximum elevation a pass may have to be the one guided for
   * (the route passes the operator's min_el_deg); 0 or absent = any pass, grazes included.
   */
  min_max_el_deg?: number;
}

export interface GuidanceResult {
  pass: PassEvent | null;
  track: { sat_id: string; range_rate_km_s: number; range_rate_source: RangeRateSource };
  recommendation: FrequencyRecommendation | null;
  matrix: FrequencyMatrix | null;
}

export interface GuidanceDeps {
  catalog: CatalogProvider;
  orbit: OrbitService;
  /** The profile file's parsed JSON; the bundled file by default. */
  profileFile?: unknown;
  /** Date of the profile file (ISO UTC); the bundled file's by default. */
  profileFileDate?: string;
  /**
   * Transmitter records (a SatNOGS DB dump) to build profiles from at boot, e.g. the bundled
   * snapshot (bundled-records.ts, BUNDLED_TRANSMITTERS_DATE). Absent: the profile file only.
   */
  transmitters?: { records: unknown; date: string };
  /**
   * Or the profiles those records build, prebuilt (a profile file; bundledTransmitterProfiles):
   * what the app passes, so boot neither holds the raw snapshot nor runs the builder.
   */
  transmitterProfiles?: {
    file: unknown;
    date: string;
    /** The file is the bundle's own, tested to parse clean and unchanged: taken as it is (checkedProfileFile). */
    checked?: boolean;
  };
  /** Where operator profiles persist (<dataDir>/guidance-profiles.json); absent: kept in memory only. */
  dataDir?: string;
}

/** One served profile with where it came from (GET /frequency-guides/profiles items). */
export interface ListedProfile {
  sat_id: string;
  norad_id: number;
  name: string;
  source: ProfileSource;
  /** Date of the source's data (ISO UTC). */
  date: string;
  receive_only: boolean;
  profile: FrequencyProfile;
}

/** What a transmitters rebuild did. */
export interface TransmittersResult {
  date: string;
  profiles: number;
  receive_only: number;
  skipped_records: SkippedRecord[];
  not_covered: NotCovered[];
  /** Profiles the new data would have lost, kept from the previous set, each with why. */
  kept: KeptProfile[];
}

/** The bundled profile file's date (its data's day). */
const BUNDLED_PROFILES_DATE = '2026-08-08T00:00:00.000Z';

/**
 * Frequency guidance (spec part 4 rules 1–10) composed from the catalog and the orbit engine.
 * Every consumer (direct route, /passes, /system/state, lite snapshot, radio) goes through here.
 */
export class GuidanceService {
  private entries: ProfileEntry[] | null = null;
  private index: ProfileIndex | null = null;
  private indexedCatalog: Catalog | null = null;
  /** basisKey() of the current index (null: not computed yet). */
  private indexKey: string | null = null;
  /** Sources by norad_id for the served set. */
  private sources = new Map<number, { source: ProfileSource; date: string }>();
  private bundledEntries: ProfileEntry[] | null = null;
  private transmitterLayer: { date: string; entries: ProfileEntry[] } | null = null;
  private readonly operator: OperatorProfileStore | null;
  /** Operator profiles when no data dir is given (tests, tools). */
  private memoryOperator: { entry: ProfileEntry; saved_at: string }[] = [];
  /**
   * Phase range rates per pass, computed or read back from the last run's file (pass-rates-file.ts);
   * null: the path gave nothing, fall back to the live track.
   */
  private readonly passRates = new PassRateSlab(PASS_CACHE_MAX, PHASES.length);
  /** Whether passRates holds rates computed since the file was last written. */
  private ratesDirty = false;
  private ratesLoaded = false;
  /** The write under way, if any; after stop() nothing is written (the data dir may be gone). */
  private ratesWrite: Promise<void> | null = null;
  private stopped = false;

  readonly name = 'guidance';

  constructor(private readonly deps: GuidanceDeps) {
    this.operator = deps.dataDir ? new OperatorProfileStore(deps.dataDir) : null;
  }

  /**
   * Keeps the rates computed since the last write (a stop during the /passes warm-up keeps what it
   * got to), after a write under way; nothing is written once this returns.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    while (this.ratesWrite) await this.ratesWrite;
    await this.keepRates(Number.NEGATIVE_INFINITY);
  }

  /** Validates and indexes the profiles at boot, so a skipped entry is logged then rather than on the first request. */
  start(): void {
    const { bySatId, unresolved } = this.profiles();
    log.info(`${bySatId.size} guidance profiles${unresolved.length ? `, ${unresolved.length} without a catalog satellite` : ''}`);
  }

  private bundled(): ProfileEntry[] {
    if (!this.bundledEntries) {
      const parsed = this.deps.profileFile === undefined ? checkedProfileFile(bundledProfiles) : parseProfileFile(this.deps.profileFile);
      for (const s of parsed.skipped) log.warn(`profile entry ${s.index} (norad ${s.norad_id ?? '?'}) skipped: ${s.reason}`);
      this.bundledEntries = parsed.entries;
      if (this.deps.transmitters) this.transmitterLayer = this.rebuild(this.deps.transmitters.records, this.deps.transmitters.date, []).layer;
      else if (this.deps.transmitterProfiles) {
        const { file, checked } = this.deps.transmitterProfiles;
        const prebuilt = checked ? checkedProfileFile(file) : parseProfileFile(file);
        for (const s of prebuilt.skipped) log.warn(`prebuilt transmitter profile ${s.index} (norad ${s.norad_id ?? '?'}) skipped: ${s.reason}`);
        this.transmitterLayer = { date: this.deps.transmitterProfiles.date, entries: prebuilt.entries };
      }
    }
    return this.bundledEntries;
  }

  private operatorProfiles(): readonly { entry: ProfileEntry; saved_at: string }[] {
    return this.operator ? this.operator.all() : this.memoryOperator;
  }

  /** Profiles keyed by the current catalog's sat_ids; rebuilt (and the pass cache dropped) when the catalog or the set changes. */
  private profiles(): ProfileIndex {
    const catalog = this.deps.catalog.current();
    if (this.index && this.indexedCatalog === catalog && this.entries) return this.index;
    if (!this.entries) {
      const bundled = { source: 'bundled' as const, date: this.deps.profileFileDate ?? BUNDLED_PROFILES_DATE, entries: this.bundled() };
      const layer = this.transmitterLayer ? { source: 'transmitters' as const, ...this.transmitterLayer } : null;
      const merged = mergeProfileSources(bundled, layer, this.operatorProfiles());
      this.entries = merged.map((m) => m.entry);
      this.sources = new Map(merged.map((m) => [m.entry.norad_id, { source: m.source, date: m.date }]));
    }
    this.index = indexProfiles(this.entries, catalog);
    this.indexedCatalog = catalog;
    this.indexKey = null;
    this.passRates.clear();
    for (const e of this.index.unresolved) log.debug(() => `profile ${e.name} (norad ${e.norad_id}) has no satellite in the catalog`);
    return this.index;
  }

  /** The set changed: merge again on the next read. */
  private invalidate(): void {
    this.entries = null;
    this.index = null;
  }

  /** Builds profiles from transmitter records against the current catalog, keeping any the new data would lose. */
  private rebuild(raw: unknown, date: string, previous: readonly ProfileEntry[]): { layer: { date: string; entries: ProfileEntry[] }; result: TransmittersResult } {
    const parsed = parseTransmitters(raw);
    const built = buildProfiles(parsed.records, this.deps.catalog.current(), curatedCorrections());
    const why = new Map(built.not_covered.map((n) => [n.norad_id, n.reason]));
    const { entries, kept } = keepLostProfiles(previous, built.profiles, (n) => why.get(n) ?? 'the new data has no active transmitter for it');
    for (const k of kept) log.warn(`transmitters ${date}: ${k.name} (norad ${k.norad_id}) ${k.reason}`);
    if (parsed.skipped.length) log.info(`transmitters ${date}: ${parsed.skipped.length} records skipped (first: ${parsed.skipped[0].reason})`);
    const receive_only = entries.filter((e) => e.mode === 'fm' && e.receive_only).length;
    return {
      layer: { date, entries },
      result: { date, profiles: entries.length, receive_only, skipped_records: parsed.skipped, not_covered: built.not_covered, kept },
    };
  }

  /** Every served profile with its source and date, in norad order. */
  profilesList(): ListedProfile[] {
    const out: ListedProfile[] = [];
    for (const profile of this.profiles().bySatId.values()) {
      const src = this.sources.get(profile.norad_id)!;
      out.push({
        sat_id: profile.sat_id,
        norad_id: profile.norad_id,
        name: profile.name,
        source: src.source,
        date: src.date,
        receive_only: profile.mode === 'fm' && profile.receive_only === true,
        profile,
      });
    }
    return out;
  }

  /**
   * New transmitter data (a refresh): profiles rebuilt with the selection rules and curated
   * corrections. A satellite the previous data covered and the new data does not keeps its old
   * profile, listed in `kept` with the reason. Operator profiles are untouched and still win.
   */
  setTransmitters(records: unknown, date: string): TransmittersResult {
    this.bundled();
    const { layer, result } = this.rebuild(records, date, this.transmitterLayer?.entries ?? []);
    this.transmitterLayer = layer;
    this.invalidate();
    return result;
  }

  /** Adds or replaces the operator profile of a catalog satellite (400 naming each bad field, 404 unknown sat_id). */
  async setOperatorProfile(input: unknown, now_ms: number): Promise<ListedProfile> {
    const sat_id = typeof (input as { sat_id?: unknown })?.sat_id === 'string' ? (input as { sat_id: string }).sat_id : '';
    const sat = this.deps.catalog.current().byId.get(sat_id);
    const current = sat ? this.profile(sat.sat_id) : null;
    const entry = operatorEntry(input, { norad_id: sat?.norad_id ?? 1, name: current?.name ?? sat?.name.slice(0, 64) ?? sat_id });
    if (!sat) throw notFound(`no satellite ${sat_id} in the catalog`, { sat_id });
    const saved_at = iso(now_ms);
    if (this.operator) await this.operator.put(entry, saved_at);
    else this.memoryOperator = [...this.memoryOperator.filter((o) => o.entry.norad_id !== entry.norad_id), { entry, saved_at }];
    this.invalidate();
    return this.profilesList().find((p) => p.sat_id === sat.sat_id)!;
  }

  /** Removes the operator profile: the satellite returns to the data's profile (or none). 404 when there was none. */
  async deleteOperatorProfile(sat_id: string): Promise<ListedProfile | null> {
    const sat = this.deps.catalog.current().byId.get(sat_id);
    const has = sat && this.operatorProfiles().some((o) => o.entry.norad_id === sat.norad_id);
    if (!sat || !has) throw notFound(`no operator profile for ${sat_id}`, { sat_id });
    if (this.operator) await this.operator.remove(sat.norad_id);
    else this.memoryOperator = this.memoryOperator.filter((o) => o.entry.norad_id !== sat.norad_id);
    this.invalidate();
    return this.profilesList().find((p) => p.sat_id === sat_id) ?? null;
  }

  /**
   * What every pass's guidance depends on besides the pass itself: the profile index, a new object
   * whenever the catalog or the profile set changes (a transmitter refresh, an operator profile
   * added or removed). A cache of embedded guidance (the /passes item bytes) is kept against it.
   */
  basis(): object {
    return this.profiles();
  }

  /**
   * basis() as text that names it across restarts: the catalog version and a hash of the merged
   * profile set (what a file of embedded guidance is checked against).
   */
  basisKey(): string {
    this.profiles(); // a rebuilt index clears indexKey
    if (this.indexKey === null) this.indexKey = `${this.deps.catalog.current().version}|${new Hash64().update(JSON.stringify(this.entries)).hex()}`;
    return this.indexKey;
  }

  profile(sat_id: string): FrequencyProfile | null {
    return this.profiles().bySatId.get(sat_id) ?? null;
  }

  allProfiles(): FrequencyProfile[] {
    return [...this.profiles().bySatId.values()];
  }

  /** The direct route's model; null when the satellite is not in the catalog. */
  recommend(sat_id: string, now_ms: number, opts: GuidanceOptions = {}): GuidanceResult | null {
    const index = this.profiles();
    if (!this.indexedCatalog!.byId.has(sat_id)) return null;
    const pass = opts.pass === undefined ? currentOrNextWorkablePass(this.deps.orbit, sat_id, now_ms, opts.min_max_el_deg ?? 0) : opts.pass;
    const { at, rates, source } = this.situation(sat_id, now_ms, pass);
    const g = buildGuidance(index.bySatId.get(sat_id) ?? null, at, rates, opts.selected_column_index);
    return {
      pass,
      track: { sat_id, range_rate_km_s: rates.range_rate_km_s[phaseIndex(at.phase)], range_rate_source: source },
      recommendation: g.frequencyRecommendation,
      matrix: g.frequencyMatrix,
    };
  }

  /**
   * The same model for a profile that is not in the profile file (an APRS channel is one fixed
   * pair): same pass phases, same per-pass range rates, same correction and quantizing rules.
   */
  recommendFor(profile: FrequencyProfile, now_ms: number, pass: PassEvent | null): FrequencyRecommendation | null {
    if (!this.deps.catalog.current().byId.has(profile.sat_id)) return null;
    const { at, rates } = this.situation(profile.sat_id, now_ms, pass);
    return buildGuidance(profile, at, rates).frequencyRecommendation;
  }

  /**
   * What /passes items, /system/state and the lite snapshot embed for one satellite and pass
   * (pass undefined: the current or next pass; null: none). Satellites without a profile cost a map lookup.
   */
  embed(sat_id: string, now_ms: number, pass?: PassEvent | null, selected_column_index?: number | null): GuidanceEmbed {
    const profile = this.profile(sat_id);
    if (!profile) return { frequencyRecommendation: null, frequencyMatrix: null };
    const p = pass === undefined ? this.deps.orbit.currentOrNextPass(sat_id, now_ms) : pass;
    const { at, rates } = this.situation(sat_id, now_ms, p);
    return buildGuidance(profile, at, rates, selected_column_index);
  }

  /** Rule 2 and rule 4 together: where in the pass we are, and the range rate read for each phase. */
  private situation(sat_id: string, now_ms: number, pass: PassEvent | null): { at: PhaseInfo; rates: PhaseRates; source: RangeRateSource } {
    const at = pass ? passPhase(now_ms, pass.aos_ms, pass.los_ms) : NO_PASS_PHASE;
    return { at, ...this.ratesFor(sat_id, now_ms, pass) };
  }

  /** Rule 4 with the per-pass cache; the live track is read only when there is no path. */
  private ratesFor(sat_id: string, now_ms: number, pass: PassEvent | null): { rates: PhaseRates; source: RangeRateSource } {
    let fromPath: PhaseRates | null = null;
    if (pass) {
      const key = `${sat_id}|${pass.aos_ms}|${pass.los_ms}`;
      const targets = phaseTargets(pass.aos_ms, pass.los_ms);
      let rates = this.passRates.get(key);
      if (rates === undefined) {
        rates = this.pathRates(sat_id, pass, targets);
        this.passRates.set(key, rates);
        this.ratesDirty = true;
      }
      fromPath = rates && phaseRatesAt(rates, targets);
    }
    return chooseRates(fromPath, fromPath ? null : (this.deps.orbit.sample(sat_id, now_ms)?.range_rate_km_s ?? null));
  }

  /** Whether the rates the last run kept have been read (tests, diagnostics). */
  get passRatesRead(): boolean {
    return this.ratesLoaded;
  }

  /**
   * Reads the rates the last run kept (once; a no-op without a data dir): ~1000 passes' rates cost
   * a JSON parse instead of 5000 propagations. Called with the first /passes item built, and before
   * the rates are written (so the file keeps what this run has not needed yet).
   */
  loadPassRates(): void {
    if (this.ratesLoaded || !this.deps.dataDir) return;
    this.ratesLoaded = true;
    const version = this.deps.catalog.current().version;
    this.profiles(); // a later first call would clear what is read now
    const r = readPassRates(join(this.deps.dataDir, PASS_RATES_FILE), version);
    for (const [key, rates] of r.entries ?? []) if (!this.passRates.has(key)) this.passRates.set(key, rates);
    log.debug(() => `pass rates from the last run: ${r.note}`);
  }

  /**
   * Keeps the rates of passes that end after `now_ms` for the next start, when some were computed
   * since the last write. Never throws: a failed write leaves the next start to compute them.
   */
  async persistPassRates(now_ms: number, pause?: () => Promise<void>): Promise<void> {
    // One write at a time, none once stopping.
    while (this.ratesWrite) await this.ratesWrite;
    if (this.stopped) return;
    await (this.ratesWrite = this.keepRates(now_ms, pause).finally(() => (this.ratesWrite = null)));
  }

  /**
   * With `pause` (a running station's background), the read of the last run's file, and each
   * part of the text, wait for it: in one turn they were ~100 ms of loop block at a tenth of a
   * core. Without (the stop), all at once.
   */
  private async keepRates(now_ms: number, background?: () => Promise<void>): Promise<void> {
    if (!this.ratesDirty || !this.deps.dataDir) return;
    // A stop meanwhile waits for this write: it goes on without pauses.
    const pause = background && (() => (this.stopped ? Promise.resolve() : background()));
    // What the last run kept and this one has not needed yet stays in the file.
    if (pause && !this.ratesLoaded) {
      this.loadPassRates();
      await pause();
      // A stop meanwhile writes them itself.
      if (this.stopped) return;
    }
    this.loadPassRates();
    this.ratesDirty = false;
    const entries: PassRateEntry[] = [];
    const ends = (key: string) => Number(key.slice(key.lastIndexOf('|') + 1)) > now_ms;
    for (const [key, r] of this.passRates.entries()) if (ends(key)) entries.push([key, r]);
    const version = this.deps.catalog.current().version;
    try {
      let text = '';
      if (pause) {
        for (const part of encodePassRatesParts(version, entries)) {
          text += part;
          await pause();
        }
      } else text = encodePassRates(version, entries);
      await writePassRates(join(this.deps.dataDir, PASS_RATES_FILE), text);
    } catch (err) {
      this.ratesDirty = true;
      log.warn(`pass rates not kept: ${errorMessage(err)}`);
    }
  }

  /**
   * One path call sampled at the five band midpoints (10/30/50/70/90% of the pass): five
   * propagations per pass instead of a whole fine-stepped track. The nearest returned sample
   * is taken for each target, so a path that rounds its step differently still answers.
   */
  private pathRates(sat_id: string, pass: PassEvent, targets: readonly number[]): number[] | null {
    const span = pass.los_ms - pass.aos_ms;
    if (!(span > 0)) return null;
    const stepS = (span * 0.2) / 1000;
    // Half a step of slack so the last midpoint is inside however the engine counts its samples.
    const minutes = (targets[4] - targets[0] + stepS * 500) / 60_000;
    try {
      return nearestRates(this.deps.orbit.path(sat_id, targets[0], minutes, stepS), targets);
    } catch (err) {
      log.warn(`path for ${sat_id} pass ${iso(pass.aos_ms)} failed; using the live track`, err);
      return null;
    }
  }
}
