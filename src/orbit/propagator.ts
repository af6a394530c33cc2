import { checkForDecay, json2satrec, sgp4, type SatRec } from 'satellite.js';
import type { OmmElements } from '../catalog/types.js';
import { EARTH_ROTATION_RAD_S, VX, VY, VZ, X, Y, Z } from './frames.js';

// The satrec cache: SGP4 records built once per catalog version, plus per-satellite bounds the
// pass search needs. Satellites are addressed by a dense index; state goes into caller scratch.

/** SGP4's own Earth radius (WGS-72), which scales satrec.a. */
const SGP4_EARTH_RADIUS_KM = 6378.135;
/** Margins on the orbit bounds: drag, J2 short-period terms and mean-vs-osculating differences stay well inside. */
const RADIUS_MARGIN = 1.05;
const RATE_MARGIN = 1.1;

export interface OrbitInput {
  sat_id: string;
  name: string;
  /** OMM mean elements (the catalog's form) … */
  elements?: OmmElements;
  /** … or a ready satrec (tests and benches feeding raw TLE lines). */
  satrec?: SatRec;
}

export interface SkippedOrbit {
  sat_id: string;
  reason: string;
}

/**
 * Satrecs held at once (2.2 KB each: ~4.5 MiB). Every satellite of the amateur and stations groups
 * stays built; a 16k catalogue swept whole (the pass table, /live of every satellite) rebuilds
 * them as it goes instead of keeping 35 MiB of them in the old generation for good.
 */
export const MAX_SATRECS = 2048;

/**
 * Whole-catalogue work (the pass search, /live of every satellite) on a catalogue this big runs on
 * a worker thread (util/worker-job.ts): beyond the cap nothing stays built between sweeps anyway,
 * and smaller catalogues keep their satrecs for live() and would pay a worker's start.
 */
export const OFF_THREAD_FROM_SATELLITES = MAX_SATRECS + 1;

export interface PropagatorOptions {
  /** At most this many satrecs are kept; the oldest built is dropped first (default MAX_SATRECS). */
  maxSatrecs?: number;
}

export class Propagator {
  readonly ids: string[] = [];
  readonly names: string[] = [];
  readonly index = new Map<string, number>();
  /** Epoch of the elements, epoch ms (tsince = (t − epoch) / 60 000). */
  readonly epochMs: Float64Array;
  /** Upper bound of the geocentric distance over the search span (km). */
  readonly rMaxKm: Float64Array;
  /** Upper bound of the angular rate between the satellite's direction and any Earth-fixed direction (rad/s). */
  readonly rateMax: Float64Array;
  /** Satellites whose elements SGP4 refused (found on first use). */
  readonly skipped: SkippedOrbit[] = [];
  private readonly inputs: readonly OrbitInput[];
  // Satrecs are built on first use: a 16k catalogue costs its ~0.3 s of json2satrec inside the
  // pass table's time slices instead of one blocking burst, and live() for 8 satellites builds 8.
  private readonly recs: (SatRec | null | undefined)[];
  /** Indexes in build order, a ring of maxSatrecs slots: the slot a new satrec takes is the oldest's. */
  private readonly built: Int32Array;
  private nextSlot = 0;
  private held = 0;

  constructor(sats: readonly OrbitInput[], opts: PropagatorOptions = {}) {
    const inputs: OrbitInput[] = [];
    for (const s of sats) {
      if (this.index.has(s.sat_id)) continue;
      this.index.set(s.sat_id, inputs.length);
      this.ids.push(s.sat_id);
      this.names.push(s.name);
      inputs.push(s);
    }
    this.inputs = inputs;
    const n = inputs.length;
    this.recs = new Array(n);
    this.epochMs = new Float64Array(n);
    this.rMaxKm = new Float64Array(n);
    this.rateMax = new Float64Array(n);
    this.built = new Int32Array(Math.max(1, opts.maxSatrecs ?? MAX_SATRECS)).fill(-1);
  }

  /**
   * False when the catalogue is larger than the satrec cap: a sweep over every satellite then
   * releases each satrec right after its use, so it dies young in the new space instead of being
   * promoted and filling the old generation until a major GC (a 16k sweep: ~30 MiB of RSS).
   */
  get keepsAll(): boolean {
    return this.size <= this.built.length;
  }

  /** Satrecs built and held now (at most maxSatrecs). */
  get satrecsHeld(): number {
    return this.held;
  }

  get size(): number {
    return this.inputs.length;
  }

  /** The satrec of satellite i (built on first use, kept while among the last maxSatrecs built), or null when SGP4 refuses its elements. */
  rec(i: number): SatRec | null {
    const have = this.recs[i];
    if (have !== undefined) return have;
    const s = this.inputs[i];
    let rec: SatRec | null = null;
    try {
      rec = s.satrec ?? (s.elements ? json2satrec(s.elements as never) : null);
      if (!rec) throw new Error('no elements');
      if (rec.error !== 0 || !(rec.a > 0) || !(rec.no > 0)) throw new Error(`SGP4 init error ${rec.error}`);
    } catch (err) {
      this.skipped.push({ sat_id: s.sat_id, reason: (err as Error).message });
      rec = null;
    }
    if (rec) this.hold(i); // before it is stored: the slot it takes may be its own older one
    this.recs[i] = rec;
    if (rec) {
      this.epochMs[i] = (rec.jdsatepoch - 2440587.5) * 86_400_000;
      const e = Math.min(rec.ecco, 0.999);
      this.rMaxKm[i] = rec.a * SGP4_EARTH_RADIUS_KM * (1 + e) * RADIUS_MARGIN;
      // Fastest angular motion is at perigee: h / r_p² = n·sqrt((1+e)/(1−e)³); no is rad/min.
      this.rateMax[i] = (rec.no / 60) * Math.sqrt((1 + e) / ((1 - e) * (1 - e) * (1 - e))) * RATE_MARGIN + EARTH_ROTATION_RAD_S;
    }
    return rec;
  }

  /** The elements satellite i was given (undefined for a ready satrec). */
  elementsOf(i: number): OmmElements | undefined {
    return this.inputs[i].elements;
  }

  /** Drops satellite i's satrec (rebuilt on next use); big catalogues call it after the pass search. */
  release(i: number): void {
    if (this.recs[i]) {
      this.recs[i] = undefined;
      this.held--;
    }
  }

  /**
   * Records satellite i's new satrec in the ring, dropping the satrec whose slot it takes. Every
   * held satrec has its latest build in a slot, so at most maxSatrecs are held; a slot left by a
   * satrec released and rebuilt since only drops it early (rebuilt on next use).
   */
  private hold(i: number): void {
    const old = this.built[this.nextSlot];
    if (old >= 0) this.release(old);
    this.built[this.nextSlot] = i;
    this.nextSlot = (this.nextSlot + 1) % this.built.length;
    this.held++;
  }

  /**
   * SGP4 state (TEME ≈ ECI, km and km/s) of satellite i at t_ms into out[0..5]. False when the
   * elements are unusable, SGP4 reports an error, or the community decay check flags the object.
   */
  propagate(i: number, t_ms: number, out: Float64Array): boolean {
    const rec = this.recs[i] ?? this.rec(i);
    if (!rec) return false;
    const pv = sgp4(rec, (t_ms - this.epochMs[i]) / 60_000);
    if (!pv || checkForDecay(rec)) return false;
    const p = pv.position;
    const v = pv.velocity;
    out[X] = p.x;
    out[Y] = p.y;
    out[Z] = p.z;
    out[VX] = v.x;
    out[VY] = v.y;
    out[VZ] = v.z;
    return Number.isFinite(p.x);
  }
}

/** Angular rate (rad/s) of the satellite's direction in ECI, |r × v| / r², from a state vector. */
export function eciAngularRate(s: Float64Array): number {
  const cx = s[Y] * s[VZ] - s[Z] * s[VY];
  const cy = s[Z] * s[VX] - s[X] * s[VZ];
  const cz = s[X] * s[VY] - s[Y] * s[VX];
  const r2 = s[X] * s[X] + s[Y] * s[Y] + s[Z] * s[Z];
  return Math.sqrt(cx * cx + cy * cy + cz * cz) / r2;
}
