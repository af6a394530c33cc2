import * as v from 'valibot';
import { RotatorSettingsSchema } from './settings.js';

// The rotator's API shapes (issue 25): runtime, plan, state and the POST bodies. Azimuths in the
// runtime and the plan are controller coordinates (coordinates.ts): 0…az_max with a north stop,
// centred on north (−span/2…+span/2) with a south stop; compass = azimuth mod 360.

export const ROTATOR_CONTROL_MODES = ['idle', 'manual', 'tracking', 'parking', 'stopped'] as const;

const deg = v.nullable(v.number());

export const RotatorRuntimeSchema = v.object({
  connected: v.boolean(),
  control_mode: v.picklist(ROTATOR_CONTROL_MODES),
  az_deg: deg,
  el_deg: deg,
  target_az_deg: deg,
  target_el_deg: deg,
  moving: v.boolean(),
  active_sat_id: v.nullable(v.string()),
  last_poll_at: v.nullable(v.string()),
  last_error: v.nullable(v.string()),
});
export type RotatorRuntime = v.InferOutput<typeof RotatorRuntimeSchema>;

export const RotatorPlanSchema = v.object({
  sat_id: v.string(),
  aos: v.string(),
  los: v.string(),
  flip: v.boolean(),
  az_wrap: v.picklist(['none', 'overlap']),
  preposition_az_deg: v.number(),
  preposition_el_deg: v.number(),
});
export type RotatorPlanView = v.InferOutput<typeof RotatorPlanSchema>;

export const RotatorStateSchema = v.object({
  settings: RotatorSettingsSchema,
  runtime: RotatorRuntimeSchema,
  plan: v.nullable(RotatorPlanSchema),
});

export const GotoBodySchema = v.strictObject({
  az_deg: v.pipe(v.number(), v.finite()),
  el_deg: v.pipe(v.number(), v.finite()),
});
export const TrackStartBodySchema = v.strictObject({ sat_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

export const restingRotatorRuntime = (): RotatorRuntime => ({
  connected: false,
  control_mode: 'idle',
  az_deg: null,
  el_deg: null,
  target_az_deg: null,
  target_el_deg: null,
  moving: false,
  active_sat_id: null,
  last_poll_at: null,
  last_error: null,
});

/** The rotator one-liner the lite snapshot carries for its focus satellite: the runtime, less the poll time. */
export const RotatorSummarySchema = v.object({
  enabled: v.boolean(),
  ...v.omit(RotatorRuntimeSchema, ['last_poll_at']).entries,
  /** True when the rotator is tracking the snapshot's focus satellite. */
  focused: v.boolean(),
});

export function rotatorSummary(enabled: boolean, rt: RotatorRuntime, focusSatId: string | null): v.InferOutput<typeof RotatorSummarySchema> {
  const { last_poll_at: _, ...shown } = rt;
  return { enabled, ...shown, focused: focusSatId !== null && rt.active_sat_id === focusSatId };
}
