import * as v from 'valibot';

// A setting chosen from a fixed list, with what each value means. The meanings travel with the
// schema that validates (valibot metadata) into /docs and the OpenAPI document
// (x-enumDescriptions, src/http/json-schema.ts), so no value is published without saying what it
// is (rigA is the Icom IC-705). Every value must have one: the type asks for them all.

/** What each value of a choice means. */
export type Meanings<T extends string> = { readonly [K in T]: string };

/** The metadata key json-schema.ts turns into x-enumDescriptions. */
export const VALUE_MEANINGS = 'value_meanings';

/** v.picklist(values) that documents each value's meaning. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T, meanings: Meanings<T[number]>, message?: string) =>
  v.pipe(v.picklist(values, message), v.metadata({ [VALUE_MEANINGS]: meanings }));
