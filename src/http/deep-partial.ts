import * as v from 'valibot';

// A settings POST carries only what changes, at any depth: `{"digipeater":{"enabled":true}}`
// changes one field of a nested object. valibot's `partial` makes only the top level optional, so
// the body schema is built here: every entry optional, nested objects made partial the same way,
// arrays and scalars kept whole (a list is replaced, never merged item by item). Field rules stay
// on the leaves, so a bad value is refused naming its path; rules on a whole object (a check on
// two of its fields) are left to the full schema, which validates the merged result.

type AnySchema = v.GenericSchema<unknown, unknown>;

/** The output a deep-partial body parses to: objects at any depth with every key optional. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

type ObjectLike = v.ObjectSchema<v.ObjectEntries, any> | v.StrictObjectSchema<v.ObjectEntries, any> | v.LooseObjectSchema<v.ObjectEntries, any>;

interface SchemaNode {
  type: string;
  entries?: v.ObjectEntries;
  wrapped?: AnySchema;
}

const OPTIONAL_WRAPPERS = new Set(['optional', 'exact_optional', 'undefinedable']);

function isObjectLike(s: SchemaNode): s is SchemaNode & { entries: v.ObjectEntries } {
  return (s.type === 'object' || s.type === 'strict_object' || s.type === 'loose_object') && !!s.entries;
}

/** One entry of a partial body: optional with no default (absent means "leave as it is"). */
function partialEntry(schema: AnySchema): AnySchema {
  let inner = schema as unknown as SchemaNode;
  // An existing default would write itself into every patch that leaves the field out.
  if (OPTIONAL_WRAPPERS.has(inner.type) && inner.wrapped) inner = inner.wrapped as unknown as SchemaNode;
  let out: AnySchema = inner as unknown as AnySchema;
  if (isObjectLike(inner)) out = partialObject(inner);
  else if ((inner.type === 'nullable' || inner.type === 'nullish') && inner.wrapped && isObjectLike(inner.wrapped as unknown as SchemaNode)) {
    out = v.nullable(partialObject(inner.wrapped as unknown as SchemaNode & { entries: v.ObjectEntries }));
  }
  return v.optional(out);
}

function partialObject(schema: SchemaNode & { entries: v.ObjectEntries }): AnySchema {
  const entries: Record<string, AnySchema> = {};
  for (const [key, entry] of Object.entries(schema.entries)) entries[key] = partialEntry(entry as AnySchema);
  // Same strictness as the resource: a strict object still refuses unknown keys in a patch.
  if (schema.type === 'strict_object') return v.strictObject(entries);
  if (schema.type === 'loose_object') return v.looseObject(entries);
  return v.object(entries);
}

/** The body schema of a partial update of `schema` (an object schema), recursively. */
export function deepPartial<S extends ObjectLike>(schema: S): v.GenericSchema<unknown, DeepPartial<v.InferOutput<S>>> {
  return partialObject(schema as unknown as SchemaNode & { entries: v.ObjectEntries }) as v.GenericSchema<unknown, DeepPartial<v.InferOutput<S>>>;
}
