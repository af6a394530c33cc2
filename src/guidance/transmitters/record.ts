import * as v from 'valibot';

// One SatNOGS DB transmitter record (GET /api/transmitters/?format=json), as much of it as the
// profile builder reads. Unknown keys are ignored; a record failing the schema is skipped with its
// reason so one malformed entry in a 2,900-record refresh cannot cost the others.

const hzOrNull = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)));

export const TransmitterSchema = v.object({
  uuid: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  // null or missing in some records: an empty description, never a reason to drop the record
  description: v.fallback(v.string(), ''),
  alive: v.boolean(),
  type: v.string(),
  uplink_low: hzOrNull,
  uplink_high: v.optional(hzOrNull, null),
  downlink_low: hzOrNull,
  downlink_high: v.optional(hzOrNull, null),
  mode: v.nullable(v.string()),
  uplink_mode: v.optional(v.nullable(v.string()), null),
  invert: v.optional(v.boolean(), false),
  baud: v.optional(v.nullable(v.number()), null),
  norad_cat_id: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))),
  status: v.string(),
  service: v.optional(v.nullable(v.string()), null),
});
export type Transmitter = v.InferOutput<typeof TransmitterSchema>;

export interface SkippedRecord {
  index: number;
  uuid: string | null;
  reason: string;
}

export interface ParsedTransmitters {
  records: Transmitter[];
  skipped: SkippedRecord[];
}

/** The dump must be an array; each record is checked on its own. */
export function parseTransmitters(raw: unknown): ParsedTransmitters {
  if (!Array.isArray(raw)) return { records: [], skipped: [{ index: -1, uuid: null, reason: 'transmitters data is not a JSON array' }] };
  const records: Transmitter[] = [];
  const skipped: SkippedRecord[] = [];
  for (let index = 0; index < raw.length; index++) {
    const item = raw[index];
    const r = v.safeParse(TransmitterSchema, item);
    if (r.success) {
      records.push(r.output);
      continue;
    }
    const uuid = typeof (item as { uuid?: unknown })?.uuid === 'string' ? (item as { uuid: string }).uuid : null;
    const i = r.issues[0];
    const path = i.path?.map((p) => String(p.key)).join('.');
    skipped.push({ index, uuid, reason: path ? `${path}: ${i.message}` : i.message });
  }
  return { records, skipped };
}
