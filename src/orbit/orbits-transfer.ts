import type { OmmElements } from '../catalog/types.js';
import { Propagator, type OrbitInput } from './propagator.js';
import type { Observer } from './types.js';

// A propagator's satellites handed to a worker thread (pass-search-job.ts, live-all-job.ts): the
// numbers json2satrec reads in one Float64Array, the EPOCH text (and the ids and names, when the
// job answers with them) in one string each. A transfer, not a structured clone of 16k objects:
// nothing for either side to parse object by object, and the worker builds the same satrecs.

/** The numbers of one satellite's elements, in this order (json2satrec reads the same names). */
const FIELDS = ['NORAD_CAT_ID', 'MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;
const NF = FIELDS.length;
/** Satellites encoded between two yields (16k in one go was a 6 ms block here). */
const ENCODE_STEP = 1024;

export interface OrbitsTransfer {
  /** NF numbers per satellite, by the propagator's index. */
  fields: Float64Array;
  /** EPOCH texts, one line each. */
  epochs: string;
  /** Ids and names as JSON arrays (only when asked for; parsed by the worker). */
  ids?: string;
  names?: string;
}

/** What every whole-catalogue job starts from: the satellites and the observer. */
export interface OrbitJobInput {
  orbits: OrbitsTransfer;
  obs: Observer;
}

/** The observer as plain numbers (a frame's other fields are the worker's to build). */
export const plainObserver = (o: Observer): Observer => ({ lat_deg: o.lat_deg, lon_deg: o.lon_deg, alt_m: o.alt_m });

/** Run with drainSliced; null when a satellite has a satrec but no elements (tests and benches feeding TLE lines). */
export function* encodeOrbitsSteps(prop: Propagator, withNames: boolean): Generator<void, OrbitsTransfer | null, undefined> {
  const n = prop.size;
  const fields = new Float64Array(n * NF);
  const epochs: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const el = prop.elementsOf(i);
    if (!el) return null;
    for (let f = 0; f < NF; f++) fields[i * NF + f] = el[FIELDS[f]];
    epochs[i] = el.EPOCH;
    if (i % ENCODE_STEP === ENCODE_STEP - 1) yield;
  }
  const out: OrbitsTransfer = { fields, epochs: epochs.join('\n') };
  if (withNames) Object.assign(out, { ids: JSON.stringify(prop.ids), names: JSON.stringify(prop.names) });
  return out;
}

/**
 * One satellite of a transfer as the propagator's input: its elements are made when its satrec is
 * built (then dropped), so the worker never holds 16k element objects with their boxed numbers
 * (~8 MiB of a 16k job's heap).
 */
class TransferredOrbit implements OrbitInput {
  constructor(
    private readonly t: OrbitsTransfer,
    private readonly i: number,
    private readonly epoch: string,
    readonly sat_id: string,
    readonly name: string,
  ) {}

  get elements(): OmmElements {
    const el = { OBJECT_NAME: '', EPOCH: this.epoch } as Record<string, unknown>;
    for (let f = 0; f < NF; f++) el[FIELDS[f]] = this.t.fields[this.i * NF + f];
    return el as unknown as OmmElements;
  }
}

/** The worker's propagator: the same satellites at the same indexes (ids "0", "1", … when none were sent). */
export function decodeOrbits(t: OrbitsTransfer): Propagator {
  const ids = t.ids === undefined ? undefined : (JSON.parse(t.ids) as string[]);
  const names = t.names === undefined ? undefined : (JSON.parse(t.names) as string[]);
  return new Propagator(t.epochs.split('\n').map((epoch, i) => new TransferredOrbit(t, i, epoch, ids?.[i] ?? String(i), names?.[i] ?? '')));
}
