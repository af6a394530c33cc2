import { satelliteItem } from '../catalog/catalog-build.js';
import type { Satellite } from '../catalog/types.js';
import type { LiveSample, PassEvent, PathPoint } from '../orbit/types.js';
import { iso } from '../util/clock.js';
import type { StationService } from './station-service.js';

// What a lite snapshot shows whatever its focus (the tracked set's tracks, passes and metadata),
// and the focus parts asked for so far (path, guidance), computed once per whole second and
// shared by the snapshots built in it (issue 36). Each requested focus is its own cache key
// (spec part 4), so a screen or a client walking foci misses every time; the focus only picks
// among the same tracks and passes, and a focus outside the tracked set shows what the default
// does. At a tenth of a core the first misses after boot run cold code: computing these parts
// once a second instead of once a request is most of a miss.

export const LITE_PASS_HOURS = 24;
export const LITE_PASSES_PER_SAT = 3;
export const LITE_PASSES_MAX = 24;
export const LITE_PATH_POINTS = 40;
/** Without a focus pass, the path shows the next 90 minutes (about one LEO orbit). */
export const LITE_PATH_MINUTES = 90;
const META_LIST_MAX = 4;
/** Foci kept per second: a client varying sat_id freely must not grow it. */
export const FOCI_MAX = 32;
/**
 * Pass paths kept across seconds: a screen cycling through the tracked set's foci (at most 8 and
 * the ISS) finds its paths kept; each is a few hundred heap objects the collector walks while kept.
 */
export const PASS_PATHS_MAX = 12;

const r1 = (x: number) => Math.round(x * 10) / 10;

function thinPath(points: readonly PathPoint[]) {
  return points.map((p) => ({ sat_id: p.sat_id, timestamp: p.timestamp, az_deg: r1(p.az_deg), el_deg: r1(p.el_deg), range_km: r1(p.range_km), sunlit: p.sunlit }));
}

export function passItem(p: PassEvent) {
  return { sat_id: p.sat_id, name: p.name, aos: p.aos, tca: p.tca, los: p.los, max_el_deg: r1(p.max_el_deg) };
}

function satMeta(s: Satellite, now: number) {
  return {
    ...satelliteItem(s),
    transponders: s.transponders.slice(0, META_LIST_MAX),
    repeaters: s.repeaters.slice(0, META_LIST_MAX),
    epoch: iso(s.epoch_ms),
    epoch_age_h: r1((now - s.epoch_ms) / 3_600_000),
  };
}

/** Passes of the tracked set, ordered by AOS, at most LITE_PASSES_PER_SAT each and LITE_PASSES_MAX in all. */
function limitPasses(all: readonly PassEvent[]): PassEvent[] {
  const perSat = new Map<string, number>();
  const out: PassEvent[] = [];
  for (const p of all) {
    const n = perSat.get(p.sat_id) ?? 0;
    if (n >= LITE_PASSES_PER_SAT) continue;
    perSat.set(p.sat_id, n + 1);
    out.push(p);
    if (out.length >= LITE_PASSES_MAX) break;
  }
  return out;
}

/** A focus's path (at most LITE_PATH_POINTS) and the same as the screen draws it. */
export interface LitePath {
  path: PathPoint[];
  focusPath: ReturnType<typeof thinPath>;
}

/** A focus's path and its guidance. */
export interface LiteFocusParts extends LitePath {
  guidance: { frequencyRecommendation: unknown; frequencyMatrix: unknown };
}

/**
 * Paths of focus passes, by satellite, AOS and LOS: a pass's path depends on the pass, the
 * observer and the satellite's elements only, not on the second it is asked in, so it is kept
 * from one base to the next while those stay (LiteBaseMemo empties it when they change).
 */
export class PassPaths {
  private readonly kept = new Map<string, LitePath>();
  /** Paths computed (tests). */
  made = 0;

  get size(): number {
    return this.kept.size;
  }

  get(station: StationService, pass: PassEvent): LitePath {
    const key = passKey(pass);
    const kept = this.kept.get(key);
    if (kept) return kept;
    const span_s = Math.max(1, (pass.los_ms - pass.aos_ms) / 1000);
    const made = drawn(station.deps.orbit.path(pass.sat_id, pass.aos_ms, span_s / 60, Math.max(1, Math.ceil(span_s / (LITE_PATH_POINTS - 1)))));
    this.made++;
    if (this.kept.size >= PASS_PATHS_MAX) this.kept.delete(this.kept.keys().next().value!); // the oldest
    this.kept.set(key, made);
    return made;
  }

  clear(): void {
    this.kept.clear();
  }
}

/** A pass by satellite, AOS and LOS: what its path and guidance are kept under. */
const passKey = (pass: PassEvent) => `${pass.sat_id}@${pass.aos_ms}-${pass.los_ms}`;

function drawn(points: PathPoint[]): LitePath {
  const path = points.length > LITE_PATH_POINTS ? points.slice(0, LITE_PATH_POINTS) : points;
  return { path, focusPath: thinPath(path) };
}

/** The tracked set's part of a snapshot at `now`. */
export class LiteBase {
  readonly ids: string[];
  readonly tracks: LiveSample[];
  readonly passes: PassEvent[];
  readonly passItems: ReturnType<typeof passItem>[];
  readonly satellites: ReturnType<typeof satMeta>[] = [];
  readonly oldestEpoch: number = Infinity;
  private readonly foci = new Map<string, LiteFocusParts>();

  constructor(
    private readonly station: StationService,
    readonly now: number,
    private readonly passPaths = new PassPaths(),
  ) {
    const d = station.deps;
    this.ids = station.tracked().ids;
    this.tracks = this.ids.length ? d.orbit.live(now, this.ids) : [];
    this.passes = this.ids.length ? limitPasses(this.passesOf(this.ids)) : [];
    this.passItems = this.passes.map(passItem);
    const byId = d.catalog.current().byId;
    for (const id of this.ids) {
      const s = byId.get(id);
      if (!s) continue;
      this.satellites.push(satMeta(s, now));
      if (s.epoch_ms < this.oldestEpoch) this.oldestEpoch = s.epoch_ms;
    }
  }

  /** Passes of the next LITE_PASS_HOURS reaching the operator's minimum elevation, under way included. */
  passesOf(sat_ids: string[], limit?: number, now = this.now): PassEvent[] {
    const d = this.station.deps;
    const minEl = d.settings.passFilter.get().min_el_deg;
    return d.orbit.passes({ from_ms: now, hours: LITE_PASS_HOURS, min_max_el_deg: minEl, sat_ids, include_ongoing: true, limit });
  }

  /** Foci kept (tests: at most FOCI_MAX). */
  get fociKept(): number {
    return this.foci.size;
  }

  /**
   * The path follows the focus pass (the cue is read from it); without one, the focus satellite's
   * next orbit from `now`. Guidance: for the focus pass, or with no workable pass the live range
   * rate, never a graze the screen does not show.
   */
  focus(satId: string, pass: PassEvent | null, now: number): LiteFocusParts {
    const key = pass ? passKey(pass) : satId;
    const kept = this.foci.get(key);
    if (kept) return kept;
    const d = this.station.deps;
    const path = pass
      ? this.passPaths.get(this.station, pass)
      : drawn(d.orbit.path(satId, now, LITE_PATH_MINUTES, Math.ceil((LITE_PATH_MINUTES * 60) / (LITE_PATH_POINTS - 1))));
    const parts: LiteFocusParts = { ...path, guidance: d.guidance.embed(pass?.sat_id ?? satId, now, pass) };
    if (this.foci.size < FOCI_MAX) this.foci.set(key, parts);
    return parts;
  }
}

/**
 * The LiteBase of the current whole second, made anew when the second, the tracked set, the
 * location, the pass filter, the catalog, the pass table or the guidance basis changes, and at
 * clear() (every route that clears the lite cache clears it too). What else a snapshot shows
 * (the areas' lines, the ISS state, the location and network lines) is read at each build.
 */
export class LiteBaseMemo {
  private base: LiteBase | null = null;
  private key: unknown[] = [];
  readonly passPaths = new PassPaths();
  /** Bases made (tests). */
  made = 0;

  constructor(private readonly station: StationService) {}

  get(now: number): LiteBase {
    const d = this.station.deps;
    const key = [
      Math.floor(now / 1000),
      d.liteSettings.tracked(),
      d.location.key,
      d.settings.passFilter.get().min_el_deg,
      d.catalog.current(),
      d.orbit.passSource(),
      d.guidance.basis(),
    ];
    if (this.base && key.every((k, i) => k === this.key[i])) return this.base;
    // Only a new second keeps the pass paths (index 0: the second).
    if (!key.every((k, i) => i === 0 || k === this.key[i])) this.passPaths.clear();
    this.key = key;
    this.made++;
    return (this.base = new LiteBase(this.station, now, this.passPaths));
  }

  clear(): void {
    this.base = null;
    this.key = [];
    this.passPaths.clear();
  }
}
