// CelesTrak OMM/GP JSON records (pure). CelesTrak writes numbers, Space-Track writes numeric
// strings: both are accepted. This schema checks shape and types; the ranges SGP4 can use are
// checked for every format alike in validate.ts.
import * as v from 'valibot';
import { describeIssues } from '../store/json-store.js';
import type { RecordFailure } from './tle.js';
import type { OmmElements } from './types.js';

const NUMERIC_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const toNumber = (x: unknown): number =>
  typeof x === 'number' ? x : typeof x === 'string' && NUMERIC_TEXT.test(x.trim()) ? Number(x) : NaN;
// One transform and one check instead of a union: this runs 17 times per record, 16k records.
const num = () => v.pipe(v.unknown(), v.transform(toNumber), v.check((n: number) => Number.isFinite(n), 'must be a finite number (or numeric text)'));

export const OmmRecordSchema = v.pipe(
  v.looseObject({
    OBJECT_NAME: v.pipe(v.string(), v.trim()),
    OBJECT_ID: v.optional(v.string()),
    EPOCH: v.pipe(
      v.string(),
      v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z?$/, 'EPOCH is not an ISO 8601 UTC time'),
    ),
    MEAN_MOTION: num(),
    ECCENTRICITY: num(),
    INCLINATION: num(),
    RA_OF_ASC_NODE: num(),
    ARG_OF_PERICENTER: num(),
    MEAN_ANOMALY: num(),
    EPHEMERIS_TYPE: v.optional(v.pipe(num(), v.integer())),
    CLASSIFICATION_TYPE: v.optional(v.string()),
    NORAD_CAT_ID: v.pipe(num(), v.integer(), v.minValue(1, 'must be at least 1'), v.maxValue(999_999_999)),
    ELEMENT_SET_NO: v.optional(v.pipe(num(), v.integer())),
    REV_AT_EPOCH: v.optional(v.pipe(num(), v.integer())),
    BSTAR: num(),
    MEAN_MOTION_DOT: num(),
    MEAN_MOTION_DDOT: v.optional(num(), 0),
    DECAY_DATE: v.optional(v.nullable(v.string())),
  }),
  v.transform((r): OmmElements & { DECAY_DATE?: string | null } => {
    const out: OmmElements & { DECAY_DATE?: string | null } = {
      OBJECT_NAME: r.OBJECT_NAME || String(r.NORAD_CAT_ID),
      EPOCH: r.EPOCH.endsWith('Z') ? r.EPOCH.slice(0, -1) : r.EPOCH,
      MEAN_MOTION: r.MEAN_MOTION,
      ECCENTRICITY: r.ECCENTRICITY,
      INCLINATION: r.INCLINATION,
      RA_OF_ASC_NODE: r.RA_OF_ASC_NODE,
      ARG_OF_PERICENTER: r.ARG_OF_PERICENTER,
      MEAN_ANOMALY: r.MEAN_ANOMALY,
      NORAD_CAT_ID: r.NORAD_CAT_ID,
      BSTAR: r.BSTAR,
      MEAN_MOTION_DOT: r.MEAN_MOTION_DOT,
      MEAN_MOTION_DDOT: r.MEAN_MOTION_DDOT,
    };
    if (r.OBJECT_ID !== undefined) out.OBJECT_ID = r.OBJECT_ID;
    if (r.EPHEMERIS_TYPE !== undefined) out.EPHEMERIS_TYPE = r.EPHEMERIS_TYPE;
    if (r.CLASSIFICATION_TYPE !== undefined) out.CLASSIFICATION_TYPE = r.CLASSIFICATION_TYPE;
    if (r.ELEMENT_SET_NO !== undefined) out.ELEMENT_SET_NO = r.ELEMENT_SET_NO;
    if (r.REV_AT_EPOCH !== undefined) out.REV_AT_EPOCH = r.REV_AT_EPOCH;
    if (r.DECAY_DATE) out.DECAY_DATE = r.DECAY_DATE;
    return out;
  }),
);

const BRIEF = { abortEarly: true } as const;

/**
 * Validate one record of a GP JSON array. `brief`: only the first problem is found and named (the
 * caller keeps no more reasons): a hostile source of 30k junk objects otherwise builds a dozen
 * issues per object, garbage that makes the collector pause inside every parse slice.
 */
export function ommRecord(raw: unknown, brief = false): (OmmElements & { DECAY_DATE?: string | null }) | RecordFailure {
  const res = v.safeParse(OmmRecordSchema, raw, brief ? BRIEF : undefined);
  if (res.success) return res.output;
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const id = Number(o.NORAD_CAT_ID);
  return {
    norad_id: Number.isInteger(id) && id > 0 ? id : null,
    name: typeof o.OBJECT_NAME === 'string' ? o.OBJECT_NAME : '',
    reason: `invalid OMM record: ${describeIssues(res.issues)}`,
  };
}
