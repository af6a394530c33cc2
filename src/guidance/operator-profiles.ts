import * as v from 'valibot';
import { JsonStore } from '../store/json-store.js';
import { AppError } from '../util/errors.js';
import { issuePath } from '../store/json-store.js';
import { ChannelColumnSchema, CorrectionSideSchema, GUIDANCE_MODES, guidanceMode, ProfileEntrySchema, TONE_RANGE, type ProfileEntry } from './schemas.js';

// Operator profiles: what POST /frequency-guides/profiles takes (by sat_id, Hz like the profile
// file), checked field by field, and the file they persist in (<dataDir>/guidance-profiles.json,
// atomic writes through JsonStore). They win over the data and survive refreshes and restarts.

const stepField = () => v.pipe(v.number('must be a step in Hz'), v.minValue(0, 'must be 0 Hz or more'), v.maxValue(1_000_000, 'must be at most 1 MHz'));

/** What the operator sends; norad_id and name come from the catalog. */
export const OperatorProfileInputSchema = v.object({
  sat_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  mode: guidanceMode(`must be one of ${GUIDANCE_MODES.join(', ')}`),
  /** Each column a pair in Hz; uplink_hz null = receive-only (fm with one column). */
  columns: v.pipe(v.array(ChannelColumnSchema), v.minLength(1), v.maxLength(16)),
  default_column_index: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  correction_side: v.optional(CorrectionSideSchema),
  uplink_step_hz: stepField(),
  downlink_step_hz: stepField(),
  uplink_mode: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(8))),
  downlink_mode: v.pipe(v.string(), v.minLength(1), v.maxLength(8)),
  ctcss_hz: v.optional(v.nullable(v.pipe(v.number('must be a tone in Hz, or null for none'), v.minValue(60, TONE_RANGE), v.maxValue(260, TONE_RANGE)))),
  inverting: v.optional(v.boolean()),
  note: v.optional(v.pipe(v.string(), v.maxLength(200))),
});
export type OperatorProfileInput = v.InferOutput<typeof OperatorProfileInputSchema>;

/** A 400 naming every bad field (the shape src/http/validate.ts gives body errors). */
function fieldsError(issues: readonly v.BaseIssue<unknown>[]): AppError {
  const fields = issues.slice(0, 10).map((i) => ({ field: issuePath(i) || '(root)', message: i.message }));
  return new AppError(400, 'validation_failed', `invalid profile: ${fields[0].field}: ${fields[0].message}`, { fields });
}

/** Input → profile entry for a catalog satellite, or a 400 that names the field. */
export function operatorEntry(raw: unknown, sat: { norad_id: number; name: string }): ProfileEntry {
  const parsed = v.safeParse(OperatorProfileInputSchema, raw, { abortEarly: false });
  if (!parsed.success) throw fieldsError(parsed.issues);
  const i = parsed.output;
  const receiveOnly = i.mode === 'fm' && i.columns[0].uplink_hz === null;
  const entry = {
    norad_id: sat.norad_id,
    name: sat.name,
    mode: i.mode,
    correction_side: i.correction_side ?? (receiveOnly ? 'downlink_only' : 'uhf_only'),
    columns: i.columns,
    ...(i.default_column_index !== undefined ? { default_column_index: i.default_column_index } : {}),
    uplink_step_hz: i.uplink_step_hz,
    downlink_step_hz: i.downlink_step_hz,
    uplink_mode: i.uplink_mode ?? i.downlink_mode,
    downlink_mode: i.downlink_mode,
    ...(i.ctcss_hz != null ? { ctcss_hz: i.ctcss_hz } : {}),
    ...(i.inverting !== undefined ? { inverting: i.inverting } : {}),
    ...(receiveOnly ? { receive_only: true } : {}),
    source: 'operator',
    ...(i.note ? { note: i.note } : {}),
  };
  const checked = v.safeParse(ProfileEntrySchema, entry, { abortEarly: false });
  if (!checked.success) throw fieldsError(checked.issues);
  return checked.output;
}

const StoredSchema = v.object({ entry: ProfileEntrySchema, saved_at: v.pipe(v.string(), v.isoTimestamp()) });
export type StoredOperatorProfile = v.InferOutput<typeof StoredSchema>;
const FileSchema = v.object({ version: v.literal(1), profiles: v.array(StoredSchema) });

/** The persisted operator profiles, keyed by norad_id (a catalog rename cannot orphan one). */
export class OperatorProfileStore {
  private readonly store: JsonStore<typeof FileSchema>;

  constructor(dir: string) {
    this.store = new JsonStore({ dir, name: 'guidance-profiles', schema: FileSchema, defaults: () => ({ version: 1 as const, profiles: [] }) });
  }

  all(): readonly StoredOperatorProfile[] {
    return this.store.get().profiles;
  }

  async put(entry: ProfileEntry, saved_at: string): Promise<void> {
    const rest = this.all().filter((p) => p.entry.norad_id !== entry.norad_id);
    await this.store.set({ version: 1, profiles: [...rest, { entry, saved_at }] });
  }

  /** False when there was none. */
  async remove(norad_id: number): Promise<boolean> {
    const rest = this.all().filter((p) => p.entry.norad_id !== norad_id);
    if (rest.length === this.all().length) return false;
    await this.store.set({ version: 1, profiles: rest });
    return true;
  }
}
