import { json2satrec, type SatRec } from 'satellite.js';
import type { OmmElements } from '../catalog/types.js';
import { EARTH_ROTATION_RAD_S, VX, VY, VZ, X, Y, Z } from './frames.js';
import { SGP4_OK, SGP4_WORDS, packSatrec, sgp4Packed } from './sgp4-packed.js';

// The SGP4 record cache: records initialised once per catalog version and packed into one
// Float64Array (sgp4-packed.ts: no per-satellite objects for the collector to walk, nothing
// allocated per call), plus per-satellite bounds the pass search needs. Satellites are addressed
// by a dense index; state goes into caller scratch.

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
 * Records held at once (SGP4_WORDS × 8 bytes each: ~1.4 MiB). Every satellite of the amateur and
 * stations groups stays built; a 16k catalogue swept whole (the pass table, /live of every
 * satellite) rebuilds them as it goes.
 */
export const MAX_SATRECS = 2048;

/**
 * Whole-catalogue work (the pass search, /live of every satellite) on a catalogue this big runs on
 * a worker thread (util/worker-job.ts): beyond the cap nothing stays built between sweeps anyway,
 * and smaller catalogues keep their records for live() and would pay a worker's start.
 */
export const OFF_THREAD_FROM_SATELLITES = MAX_SATRECS + 1;

export interface PropagatorOptions {
  /** At most this many records are kept; the oldest built is dropped first (default MAX_SATRECS). */
  maxSatrecs?: number;
}

/** A kept record's words (orbit/satrec-file.ts): the packed SGP4 record, then its epoch ms, r max km and rate max. */
export const RECORD_WORDS = SGP4_WORDS + 3;

/** Every satellite's record as a propagator holds it, for another propagator of the same satellites to take. */
export interface PackedRecords {
  /** The satellite index of each record. */
  indexes: Int32Array;
  /** RECORD_WORDS per record, in the order of `indexes`. */
  words: Float64Array;
  /** The satellites SGP4 refused, by index, with why. */
  refused: { index: number; reason: string }[];
}

/** slotOf's marks for a satellite without a slot. */
const UNBUILT = -1;
const REFUSED = -2;

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
  // Records are built on first use: a 16k catalogue costs its ~0.3 s of json2satrec inside the
  // pass table's time slices instead of one blocking burst, and live() for 8 satellites builds 8.
  /** Each satellite's slot in the slab, or UNBUILT / REFUSED. */
  private readonly slotOf: Int32Array;
  /** The satellite each slot holds (−1: free); slots are taken in turn, a ring. */
  private readonly built: Int32Array;
  /** The packed records, slot k at k × SGP4_WORDS; grown as records are built (slabFor). */
  private slab: Float64Array | null = null;
  private nextSlot = 0;
  private held = 0;
  /** Satellites SGP4 initialised here (json2satrec; refusals included), as against taken with adoptRecords. */
  initialisedCount = 0;

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
    const cap = Math.max(1, opts.maxSatrecs ?? MAX_SATRECS);
    this.slotOf = new Int32Array(n).fill(UNBUILT);
    this.built = new Int32Array(Math.min(Math.max(1, n), cap)).fill(-1);
    this.epochMs = new Float64Array(n);
    this.rMaxKm = new Float64Array(n);
    this.rateMax = new Float64Array(n);
  }

  /** Records built and held now (at most maxSatrecs). */
  get satrecsHeld(): number {
    return this.held;
  }

  /** Whether every satellite has been built or refused, and every built record is still held. */
  get complete(): boolean {
    return this.held + this.skipped.length === this.inputs.length;
  }

  /** Every satellite's record and every refusal, when complete (else null): what adoptRecords takes. */
  exportRecords(): PackedRecords | null {
    if (!this.complete) return null;
    const indexes = new Int32Array(this.held);
    const words = new Float64Array(this.held * RECORD_WORDS);
    let k = 0;
    for (let i = 0; i < this.inputs.length; i++) {
      const slot = this.slotOf[i];
      if (slot < 0) continue;
      indexes[k] = i;
      const at = k * RECORD_WORDS;
      words.set(this.slab!.subarray(slot * SGP4_WORDS, (slot + 1) * SGP4_WORDS), at);
      words[at + SGP4_WORDS] = this.epochMs[i];
      words[at + SGP4_WORDS + 1] = this.rMaxKm[i];
      words[at + SGP4_WORDS + 2] = this.rateMax[i];
      k++;
    }
    return { indexes, words, refused: this.skipped.map((s) => ({ index: this.index.get(s.sat_id)!, reason: s.reason })) };
  }

  /**
   * Takes records another propagator of these same satellites (the same elements) exported, into
   * this one before it has built any: SGP4's initialisation (~0.1 ms a satellite, cold code at
   * first) skipped. False, and nothing changed, when they do not fit (indexes out of range or
   * repeated, more records than the cap, a record for a satellite also refused).
   */
  adoptRecords(r: PackedRecords): boolean {
    const n = this.inputs.length;
    const count = r.indexes.length;
    if (this.held > 0 || this.skipped.length > 0 || count > this.built.length || r.words.length !== count * RECORD_WORDS) return false;
    const seen = new Uint8Array(n);
    for (let k = 0; k < count; k++) {
      const i = r.indexes[k];
      if (!(i >= 0 && i < n) || seen[i]) return false;
      seen[i] = 1;
    }
    for (const { index } of r.refused) {
      if (!(index >= 0 && index < n) || seen[index]) return false;
      seen[index] = 1;
    }
    const slab = new Float64Array(Math.max(1, count) * SGP4_WORDS);
    for (let k = 0; k < count; k++) {
      const i = r.indexes[k];
      const at = k * RECORD_WORDS;
      slab.set(r.words.subarray(at, at + SGP4_WORDS), k * SGP4_WORDS);
      this.epochMs[i] = r.words[at + SGP4_WORDS];
      this.rMaxKm[i] = r.words[at + SGP4_WORDS + 1];
      this.rateMax[i] = r.words[at + SGP4_WORDS + 2];
      this.slotOf[i] = k;
      this.built[k] = i;
    }
    for (const { index, reason } of r.refused) {
      this.slotOf[index] = REFUSED;
      this.skipped.push({ sat_id: this.inputs[index].sat_id, reason });
    }
    this.slab = slab;
    this.held = count;
    this.nextSlot = count % this.built.length;
    return true;
  }

  get size(): number {
    return this.inputs.length;
  }

  /** Builds satellite i's record on first use (kept while among the last maxSatrecs built); false when SGP4 refuses its elements. */
  usable(i: number): boolean {
    const slot = this.slotOf[i];
    return slot >= 0 || (slot === UNBUILT && this.build(i) >= 0);
  }

  /** The elements satellite i was given (undefined for a ready satrec). */
  elementsOf(i: number): OmmElements | undefined {
    return this.inputs[i].elements;
  }

  /** Satellite i's satellite.js record (made anew from elements; the one given, if any): baselines, comparisons; null when refused. */
  satrecOf(i: number): SatRec | null {
    try {
      return this.initialised(i);
    } catch {
      return null;
    }
  }

  /** satellite.js's initialised record of satellite i; throws why SGP4 refuses it. */
  private initialised(i: number): SatRec {
    const s = this.inputs[i];
    const rec = s.satrec ?? (s.elements ? json2satrec(s.elements as never) : null);
    if (!rec) throw new Error('no elements');
    if (rec.error !== 0 || !(rec.a > 0) || !(rec.no > 0)) throw new Error(`SGP4 init error ${rec.error}`);
    return rec;
  }

  /**
   * Drops satellite i's record (rebuilt on next use): the ring's slot it held is taken. A sweep of
   * a catalogue beyond the cap evicts as it goes; nothing else needs to drop a record, since the
   * slab's size is fixed by the cap, not by the records held.
   */
  private evict(i: number): void {
    const slot = this.slotOf[i];
    if (slot < 0) return;
    this.slotOf[i] = UNBUILT;
    this.built[slot] = -1;
    this.held--;
  }

  /** Initialises satellite i's record into the slot the ring is at (dropping its holder); its slot, or REFUSED. */
  private build(i: number): number {
    this.initialisedCount++;
    let rec: SatRec;
    try {
      rec = this.initialised(i);
    } catch (err) {
      this.skipped.push({ sat_id: this.inputs[i].sat_id, reason: (err as Error).message });
      this.slotOf[i] = REFUSED;
      return REFUSED;
    }
    const slot = this.nextSlot;
    this.nextSlot = (slot + 1) % this.built.length;
    const old = this.built[slot];
    if (old >= 0) this.evict(old);
    const slab = this.slabFor(slot);
    packSatrec(rec, slab, slot * SGP4_WORDS);
    this.built[slot] = i;
    this.slotOf[i] = slot;
    this.held++;
    this.epochMs[i] = (rec.jdsatepoch - 2440587.5) * 86_400_000;
    const e = Math.min(rec.ecco, 0.999);
    this.rMaxKm[i] = rec.a * SGP4_EARTH_RADIUS_KM * (1 + e) * RADIUS_MARGIN;
    // Fastest angular motion is at perigee: h / r_p² = n·sqrt((1+e)/(1−e)³); no is rad/min.
    this.rateMax[i] = (rec.no / 60) * Math.sqrt((1 + e) / ((1 - e) * (1 - e) * (1 - e))) * RATE_MARGIN + EARTH_ROTATION_RAD_S;
    return slot;
  }

  /**
   * The slab, grown to hold `slot`: slots are taken in order from 0, so it grows with the records
   * built (doubling, at most the ring's length), and live() of 8 satellites of a 16k catalogue
   * holds 8 records' words, not the cap's 1.4 MiB.
   */
  private slabFor(slot: number): Float64Array {
    const have = this.slab;
    if (have && have.length > slot * SGP4_WORDS) return have;
    const slots = Math.min(this.built.length, Math.max(16, slot + 1, 2 * (have ? have.length / SGP4_WORDS : 0)));
    const grown = new Float64Array(slots * SGP4_WORDS);
    if (have) grown.set(have);
    this.slab = grown;
    return grown;
  }

  /**
   * SGP4 state (TEME ≈ ECI, km and km/s) of satellite i at t_ms into out[0..5]. False when the
   * elements are unusable, SGP4 reports an error, or the community decay check flags the object.
   */
  propagate(i: number, t_ms: number, out: Float64Array): boolean {
    let slot = this.slotOf[i];
    if (slot < 0) {
      if (slot === REFUSED) return false;
      slot = this.build(i);
      if (slot < 0) return false;
    }
    const code = sgp4Packed(this.slab!, slot * SGP4_WORDS, (t_ms - this.epochMs[i]) / 60_000, out, 0);
    return code === SGP4_OK && Number.isFinite(out[X]);
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
