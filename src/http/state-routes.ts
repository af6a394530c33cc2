import * as v from 'valibot';
import type { JsonStore } from '../store/json-store.js';
import { deepPartial } from './deep-partial.js';
import { route, type RouteDef } from './route.js';

type ObjSchema = v.ObjectSchema<any, any> | v.StrictObjectSchema<any, any>;

export interface StateRoutesOptions<S extends ObjSchema> {
  path: string;
  tag: string;
  /** What the resource is, for /docs. */
  what: string;
  store: JsonStore<S>;
  clearsLiteCache?: boolean;
  /** Extra checks on the merged state that a schema cannot express (catalog ids, zones). */
  refine?: (next: v.InferOutput<S>) => v.InferOutput<S> | Promise<v.InferOutput<S>>;
}

/**
 * GET → {state}; POST takes a partial object at any depth (nested objects merge field by field,
 * arrays replace whole), checks each given field with the resource's own rules, merges, validates
 * the merged state with the full schema, persists and answers {state}. One implementation for
 * every plain settings resource.
 */
export function stateRoutes<S extends ObjSchema>(o: StateRoutesOptions<S>): RouteDef[] {
  const stateSchema = v.object({ state: o.store.schema });
  return [
    route({
      method: 'GET',
      path: o.path,
      tag: o.tag,
      summary: `Read ${o.what}`,
      response: stateSchema,
      handler: () => ({ state: o.store.publicView() }),
    }),
    route({
      method: 'POST',
      path: o.path,
      tag: o.tag,
      summary: `Change ${o.what}. Send only the fields to change, at any depth: nested objects merge field by field, arrays replace the whole list; the merged result is validated and persisted (nothing is saved on a 400).`,
      body: deepPartial(o.store.schema),
      response: stateSchema,
      clearsLiteCache: o.clearsLiteCache,
      handler: async ({ body }) => {
        const merged = o.store.preview(o.store.unmaskPatch(body));
        const refined = o.refine ? await o.refine(merged) : merged;
        await o.store.set(refined);
        return { state: o.store.publicView() };
      },
    }),
  ];
}
