// Element sets kept in columns (pure). A catalogue of element objects costs the collector 14 heap
// objects a satellite (the object and its 13 numbers, each boxed), 16k satellites ~230k objects
// that every marking step walks. Here the numbers of all records sit in one Float64Array and the
// texts in one array; a record is a small view (two fields) that reads them, so consumers keep the
// OmmElements shape (json2satrec reads it as it reads a plain object).
import type { JsonTexts } from '../util/json-bytes.js';
import { drain } from '../util/loop-slices.js';
import type { OmmElements } from './types.js';

/** A record's numbers in the table, in this order; NaN marks an optional that is absent. */
export const ELEMENT_NUMBERS = ['MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'EPHEMERIS_TYPE', 'NORAD_CAT_ID', 'ELEMENT_SET_NO', 'REV_AT_EPOCH', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;
/** A record's texts, in this order; undefined marks an optional that is absent. */
export const ELEMENT_STRINGS = ['OBJECT_NAME', 'OBJECT_ID', 'EPOCH', 'CLASSIFICATION_TYPE'] as const;
export const NN = ELEMENT_NUMBERS.length;
export const NS = ELEMENT_STRINGS.length;

const MEAN_MOTION = 0;
const ECCENTRICITY = 1;
const INCLINATION = 2;
const RA_OF_ASC_NODE = 3;
const ARG_OF_PERICENTER = 4;
const MEAN_ANOMALY = 5;
const EPHEMERIS_TYPE = 6;
const NORAD_CAT_ID = 7;
const ELEMENT_SET_NO = 8;
const REV_AT_EPOCH = 9;
const BSTAR = 10;
const MEAN_MOTION_DOT = 11;
const MEAN_MOTION_DDOT = 12;
const OBJECT_NAME = 0;
const OBJECT_ID = 1;
const EPOCH = 2;
const CLASSIFICATION_TYPE = 3;

/** Records packed between two yields of the *Steps generators. */
const STEP = 1024;

const optional = (n: number): number | undefined => (Number.isNaN(n) ? undefined : n);

/** An immutable set of element records in columns. */
export class ElementTable {
  constructor(
    readonly count: number,
    /** NN numbers a record, ELEMENT_NUMBERS order. */
    readonly nums: Float64Array,
    /** NS texts a record, ELEMENT_STRINGS order. */
    readonly strs: ReadonlyArray<string | undefined>,
  ) {
    if (nums.length !== count * NN || strs.length !== count * NS) throw new Error(`element table of ${count} records has ${nums.length} numbers and ${strs.length} texts`);
  }

  /** Record `i` as OmmElements (a view: reading it reads the table). */
  row(i: number): OmmElements {
    return new ElementRow(this, i);
  }

  /** Record `i` as a plain object, keys in the interface's (CelesTrak's) order, absent optionals left out. */
  plain(i: number): OmmElements {
    const n = this.nums;
    const s = this.strs;
    const b = i * NN;
    const t = i * NS;
    const out: Record<string, unknown> = { OBJECT_NAME: s[t + OBJECT_NAME] };
    if (s[t + OBJECT_ID] !== undefined) out.OBJECT_ID = s[t + OBJECT_ID];
    out.EPOCH = s[t + EPOCH];
    out.MEAN_MOTION = n[b + MEAN_MOTION];
    out.ECCENTRICITY = n[b + ECCENTRICITY];
    out.INCLINATION = n[b + INCLINATION];
    out.RA_OF_ASC_NODE = n[b + RA_OF_ASC_NODE];
    out.ARG_OF_PERICENTER = n[b + ARG_OF_PERICENTER];
    out.MEAN_ANOMALY = n[b + MEAN_ANOMALY];
    if (!Number.isNaN(n[b + EPHEMERIS_TYPE])) out.EPHEMERIS_TYPE = n[b + EPHEMERIS_TYPE];
    if (s[t + CLASSIFICATION_TYPE] !== undefined) out.CLASSIFICATION_TYPE = s[t + CLASSIFICATION_TYPE];
    out.NORAD_CAT_ID = n[b + NORAD_CAT_ID];
    if (!Number.isNaN(n[b + ELEMENT_SET_NO])) out.ELEMENT_SET_NO = n[b + ELEMENT_SET_NO];
    if (!Number.isNaN(n[b + REV_AT_EPOCH])) out.REV_AT_EPOCH = n[b + REV_AT_EPOCH];
    out.BSTAR = n[b + BSTAR];
    out.MEAN_MOTION_DOT = n[b + MEAN_MOTION_DOT];
    out.MEAN_MOTION_DDOT = n[b + MEAN_MOTION_DDOT];
    return out as unknown as OmmElements;
  }

  /**
   * Record `i` as JSON text: the bytes JSON.stringify(this.plain(i)) gives, without the object
   * (a finite number's JSON is its String(); a catalogue file of 16k records is written from here).
   */
  json(i: number): string {
    const n = this.nums;
    const s = this.strs;
    const b = i * NN;
    const t = i * NS;
    let out = `{"OBJECT_NAME":${JSON.stringify(s[t + OBJECT_NAME])}`;
    if (s[t + OBJECT_ID] !== undefined) out += `,"OBJECT_ID":${JSON.stringify(s[t + OBJECT_ID])}`;
    out += `,"EPOCH":${JSON.stringify(s[t + EPOCH])},"MEAN_MOTION":${num(n[b + MEAN_MOTION])},"ECCENTRICITY":${num(n[b + ECCENTRICITY])}`;
    out += `,"INCLINATION":${num(n[b + INCLINATION])},"RA_OF_ASC_NODE":${num(n[b + RA_OF_ASC_NODE])},"ARG_OF_PERICENTER":${num(n[b + ARG_OF_PERICENTER])}`;
    out += `,"MEAN_ANOMALY":${num(n[b + MEAN_ANOMALY])}`;
    if (!Number.isNaN(n[b + EPHEMERIS_TYPE])) out += `,"EPHEMERIS_TYPE":${num(n[b + EPHEMERIS_TYPE])}`;
    if (s[t + CLASSIFICATION_TYPE] !== undefined) out += `,"CLASSIFICATION_TYPE":${JSON.stringify(s[t + CLASSIFICATION_TYPE])}`;
    out += `,"NORAD_CAT_ID":${num(n[b + NORAD_CAT_ID])}`;
    if (!Number.isNaN(n[b + ELEMENT_SET_NO])) out += `,"ELEMENT_SET_NO":${num(n[b + ELEMENT_SET_NO])}`;
    if (!Number.isNaN(n[b + REV_AT_EPOCH])) out += `,"REV_AT_EPOCH":${num(n[b + REV_AT_EPOCH])}`;
    return out + `,"BSTAR":${num(n[b + BSTAR])},"MEAN_MOTION_DOT":${num(n[b + MEAN_MOTION_DOT])},"MEAN_MOTION_DDOT":${num(n[b + MEAN_MOTION_DDOT])}}`;
  }
}

/** JSON's text of a number (JSON.stringify writes a non-finite one as null; validated elements are finite). */
const num = (x: number): string => (Number.isFinite(x) ? String(x) : 'null');

/** The table and index behind a record that is a view, else null. */
export function rowPlace(el: OmmElements): { table: ElementTable; i: number } | null {
  return el instanceof ElementRow ? { table: el.table, i: el.i } : null;
}

/** Records (plain objects or views of other tables) packed into a new table, in the given order. */
export const packElements = (records: readonly OmmElements[]): ElementTable => drain(packElementsSteps(records));

export function* packElementsSteps(records: readonly OmmElements[]): Generator<void, ElementTable, undefined> {
  const count = records.length;
  const nums = new Float64Array(count * NN);
  const strs: (string | undefined)[] = new Array(count * NS);
  for (let i = 0; i < count; i++) {
    const el = records[i];
    if (el instanceof ElementRow) {
      // A view copies its record's columns: no getter per field.
      nums.set(el.table.nums.subarray(el.i * NN, el.i * NN + NN), i * NN);
      for (let k = 0; k < NS; k++) strs[i * NS + k] = el.table.strs[el.i * NS + k];
    } else {
      const r = el as unknown as Record<string, unknown>;
      for (let k = 0; k < NN; k++) {
        const x = r[ELEMENT_NUMBERS[k]];
        nums[i * NN + k] = x === undefined ? NaN : (x as number);
      }
      for (let k = 0; k < NS; k++) {
        const x = r[ELEMENT_STRINGS[k]];
        strs[i * NS + k] = x === undefined ? undefined : String(x);
      }
    }
    if (i % STEP === STEP - 1) yield;
  }
  return new ElementTable(count, nums, strs);
}

/** Records as JSON texts for a file write (util/json-bytes.ts): a view's from its table, no object made. */
export function elementTexts(records: readonly OmmElements[]): JsonTexts {
  return {
    length: records.length,
    text: (i) => {
      const el = records[i];
      return el instanceof ElementRow ? el.table.json(el.i) : JSON.stringify(plainElements(el));
    },
  };
}

/** The fields of OmmElements in the interface's (CelesTrak's) order: what a record is written with. */
const ELEMENT_KEYS = ['OBJECT_NAME', 'OBJECT_ID', 'EPOCH', 'MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'EPHEMERIS_TYPE', 'CLASSIFICATION_TYPE', 'NORAD_CAT_ID', 'ELEMENT_SET_NO', 'REV_AT_EPOCH', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT'] as const;

/**
 * A copy of a record as a plain object, its fields in the interface's order and absent optionals
 * left out, as `table.plain` makes it (a view's fields are getters: `{ ...view }` copies none).
 */
export function plainElements(el: OmmElements): OmmElements {
  if (el instanceof ElementRow) return el.table.plain(el.i);
  const r = el as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ELEMENT_KEYS) if (r[k] !== undefined) out[k] = r[k];
  return out as unknown as OmmElements;
}

/** Whether two records hold the same elements, field by field (an absent optional on both alike). */
export function sameElements(a: OmmElements, b: OmmElements): boolean {
  if (a === b) return true;
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  for (const k of ELEMENT_KEYS) if (!Object.is(ra[k], rb[k])) return false;
  return true;
}

/** One record of a table. Getters, not fields: the view holds two references, the table the values. */
class ElementRow implements OmmElements {
  constructor(
    readonly table: ElementTable,
    readonly i: number,
  ) {}

  get OBJECT_NAME(): string {
    return this.table.strs[this.i * NS + OBJECT_NAME]!;
  }
  get OBJECT_ID(): string | undefined {
    return this.table.strs[this.i * NS + OBJECT_ID];
  }
  get EPOCH(): string {
    return this.table.strs[this.i * NS + EPOCH]!;
  }
  get CLASSIFICATION_TYPE(): string | undefined {
    return this.table.strs[this.i * NS + CLASSIFICATION_TYPE];
  }
  get MEAN_MOTION(): number {
    return this.table.nums[this.i * NN + MEAN_MOTION];
  }
  get ECCENTRICITY(): number {
    return this.table.nums[this.i * NN + ECCENTRICITY];
  }
  get INCLINATION(): number {
    return this.table.nums[this.i * NN + INCLINATION];
  }
  get RA_OF_ASC_NODE(): number {
    return this.table.nums[this.i * NN + RA_OF_ASC_NODE];
  }
  get ARG_OF_PERICENTER(): number {
    return this.table.nums[this.i * NN + ARG_OF_PERICENTER];
  }
  get MEAN_ANOMALY(): number {
    return this.table.nums[this.i * NN + MEAN_ANOMALY];
  }
  get EPHEMERIS_TYPE(): number | undefined {
    return optional(this.table.nums[this.i * NN + EPHEMERIS_TYPE]);
  }
  get NORAD_CAT_ID(): number {
    return this.table.nums[this.i * NN + NORAD_CAT_ID];
  }
  get ELEMENT_SET_NO(): number | undefined {
    return optional(this.table.nums[this.i * NN + ELEMENT_SET_NO]);
  }
  get REV_AT_EPOCH(): number | undefined {
    return optional(this.table.nums[this.i * NN + REV_AT_EPOCH]);
  }
  get BSTAR(): number {
    return this.table.nums[this.i * NN + BSTAR];
  }
  get MEAN_MOTION_DOT(): number {
    return this.table.nums[this.i * NN + MEAN_MOTION_DOT];
  }
  get MEAN_MOTION_DDOT(): number {
    return this.table.nums[this.i * NN + MEAN_MOTION_DDOT];
  }

  /** JSON.stringify and structured logs see the record, not the table. */
  toJSON(): OmmElements {
    return this.table.plain(this.i);
  }
}
