import * as v from 'valibot';

// The Hamlib servers' runtime as system state shows it (issue 26).

export const HamlibConnectionSchema = v.object({
  server: v.picklist(['rigctld', 'rotctld']),
  remote: v.pipe(v.string(), v.description('the client\'s "address:port"')),
  connected_at: v.pipe(v.string(), v.description('UTC ISO 8601')),
});

export const HamlibRuntimeSchema = v.object({
  rigctld_listening: v.boolean(),
  rotctld_listening: v.boolean(),
  clients: v.pipe(v.number(), v.description('connected Hamlib clients, both servers together (at most 16 each)')),
  connections: v.array(HamlibConnectionSchema),
  last_error: v.nullable(v.string()),
});
export type HamlibRuntime = v.InferOutput<typeof HamlibRuntimeSchema>;
export type HamlibConnection = v.InferOutput<typeof HamlibConnectionSchema>;

export const restingHamlibRuntime = (): HamlibRuntime => ({
  rigctld_listening: false,
  rotctld_listening: false,
  clients: 0,
  connections: [],
  last_error: null,
});
