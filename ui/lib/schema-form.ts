// Form fields from a resource's JSON Schema, as /docs publishes it from the server's valibot
// schemas: the form cannot drift from what the API accepts. Pure; tested against the live /docs.

export interface JsonSchema {
  type?: string;
  enum?: Array<string | number | boolean | null>;
  const?: unknown;
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export type FieldKind = 'boolean' | 'enum' | 'number' | 'integer' | 'text' | 'list' | 'group';

export interface Field {
  /** Dotted path in the resource ("igate.server_port"), as the API names it in details.fields. */
  path: string;
  name: string;
  kind: FieldKind;
  label: string;
  unit: string | null;
  /** May be null: enums and booleans then offer a "not set" choice. */
  nullable: boolean;
  /** enum values (booleans as a tri-state enum when nullable). */
  options?: Array<string | number | boolean>;
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  children?: Field[];
  help?: string;
  /** Text of the null choice of a nullable enum ("not forced"). */
  nullLabel?: string;
  /** Lists: one item per line (a textarea) instead of comma-separated. */
  multiline?: boolean;
  /** Masked input (passcodes, Wi-Fi passwords). */
  secret?: boolean;
  /** What an enum option reads as (the API value stays the value): {rigA: 'Icom IC-705'}. */
  optionLabels?: Readonly<Record<string, string>>;
  /** Shown only while this holds for the form's values (a transport's own settings). */
  when?: (values: unknown) => boolean;
  /** A nullable group offered as a choice: null, or an object the operator fills in. */
  presence?: Presence;
}

/** "Only while `path` is one of `is`": e.g. the Wi-Fi login only while transport is wifi. */
export interface ShowWhen {
  path: string;
  is: ReadonlyArray<string | number | boolean>;
}

/**
 * How a nullable group is chosen: "none" (null) or "set" (an object, its fields shown in a block
 * of their own). Two radios instead of one: uplink_rig null or the uplink radio's link.
 */
export interface Presence {
  /** The choice's label ("Radios"); the group's own label names the block ("Uplink radio"). */
  label: string;
  /** What null reads as ("One radio"). */
  none: string;
  /** What an object reads as ("Two radios"). */
  set: string;
  /** The object a "set" choice starts from when none is saved: whole, as the API takes it from null. */
  initial: Readonly<Record<string, unknown>>;
}

/**
 * What a form may say about a field beyond its schema: label, unit, help and how to show it; for
 * a group, its fields (dotted paths from the form's root, with their own overrides).
 */
export type FieldSpec = { name: string; fields?: ReadonlyArray<string | FieldSpec> } & Partial<
  Pick<Field, 'label' | 'unit' | 'help' | 'nullLabel' | 'multiline' | 'secret' | 'optionLabels' | 'when' | 'presence'>
>;

/**
 * `fields` shown only while `when` holds (besides any condition of their own): a group of fields
 * that belongs to one choice. `when` is a field's values ({path, is}) or any test of the values.
 */
export function onlyWhen(when: ShowWhen | ((values: unknown) => boolean), fields: readonly FieldSpec[]): FieldSpec[] {
  const holds = typeof when === 'function' ? when : (values: unknown) => when.is.some((x) => x === getAt(values, when.path));
  return fields.map((f) => {
    const own = f.when;
    return { ...f, when: own ? (values: unknown) => holds(values) && own(values) : holds };
  });
}

/** The fields that apply to `values` (the form's draft): a field whose `when` does not hold is left out. */
export function applicableFields(fields: Field[], values: unknown): Field[] {
  return fields.filter((f) => !f.when || f.when(values));
}

/** The text an enum option is shown as. */
export function optionText(f: Pick<Field, 'optionLabels'>, o: string | number | boolean): string {
  return f.optionLabels?.[String(o)] ?? (typeof o === 'boolean' ? (o ? 'yes' : 'no') : String(o));
}

const UNITS: Array<[RegExp, string]> = [
  [/_deg$/, '°'],
  [/_ms$/, 'ms'],
  [/_hz$/, 'Hz'],
  [/_km$/, 'km'],
  [/_m$/, 'm'],
  [/_s$/, 's'],
];
/** Words a label should not title-case ("Stream URL", not "Stream url"). */
const ACRONYMS = new Set(['iss', 'url', 'id', 'gps', 'aprs', 'ssid', 'kiss', 'ctcss', 'tcp', 'udp', 'tle', 'omm', 'igate', 'civ', 'ptt', 'cw', 'fm', 'ssb']);

/** "fetch_timeout_ms" → label "Fetch timeout", unit "ms"; "stream_url" → "Stream URL". */
export function labelOf(name: string): { label: string; unit: string | null } {
  const hit = UNITS.find(([re]) => re.test(name));
  const words = (hit ? name.replace(hit[0], '') : name).split('_').map((w) => (ACRONYMS.has(w) ? (w === 'igate' ? 'iGate' : w.toUpperCase()) : w));
  const text = words.join(' ');
  return { label: text.charAt(0).toUpperCase() + text.slice(1), unit: hit ? hit[1] : null };
}

/** The request-body schema of `POST path` in an OpenAPI document, or null. */
export function requestSchema(openapi: unknown, path: string): JsonSchema | null {
  const op = (openapi as { paths?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } }> }).paths?.[path]?.post;
  return op?.requestBody?.content?.['application/json']?.schema ?? null;
}

function fieldOf(name: string, path: string, schema: JsonSchema): Field | null {
  const nullable = !!schema.anyOf?.some((s) => s.type === 'null');
  // anyOf [{const: ""}, {type: string}] ("empty disables") is a plain text field.
  const s = schema.anyOf?.find((x) => x.type !== 'null' && x.const === undefined) ?? schema;
  const base = { path, name, nullable, ...labelOf(name) };
  if (s.type === 'boolean') return { ...base, kind: nullable ? 'enum' : 'boolean', options: nullable ? [true, false] : undefined };
  if (s.enum) return { ...base, kind: 'enum', options: s.enum.filter((v): v is string | number | boolean => v !== null) };
  if (s.type === 'integer' || s.type === 'number') return { ...base, kind: s.type, min: s.minimum, max: s.maximum };
  if (s.type === 'string') return { ...base, kind: 'text', maxLength: s.maxLength, pattern: s.pattern };
  if (s.type === 'array' && ['string', 'integer', 'number'].includes(s.items?.type ?? '')) return { ...base, kind: 'list' };
  if (s.type === 'object' && s.properties) return { ...base, kind: 'group', children: fieldsOf(s, path + '.') };
  return null;
}

/** One field per property the form can edit, in schema order. */
export function fieldsOf(schema: JsonSchema, prefix = ''): Field[] {
  return Object.entries(schema.properties ?? {}).flatMap(([name, s]) => {
    const f = fieldOf(name, prefix + name, s);
    return f ? [f] : [];
  });
}

/**
 * The fields a form shows: `specs` (dotted paths, in order, with their overrides) or every
 * field, minus `hidden`. A spec naming no schema field is dropped (the schema decides).
 */
export function pickFields(all: Field[], specs?: ReadonlyArray<string | FieldSpec>, hidden: readonly string[] = []): Field[] {
  const flat = (fs: Field[]): Field[] => fs.flatMap((f) => [f, ...flat(f.children ?? [])]);
  const known = new Map(flat(all).map((f) => [f.path, f]));
  const list: FieldSpec[] = specs ? specs.map((s) => (typeof s === 'string' ? { name: s } : s)) : all.map((f) => ({ name: f.path }));
  const prune = (f: Field): Field => ({ ...f, children: f.children?.filter((c) => !hidden.includes(c.path)).map(prune) });
  return list.flatMap(({ fields: childSpecs, ...spec }) => {
    const f = known.get(spec.name);
    if (!f || hidden.includes(f.path)) return [];
    const own = prune(f);
    const children = childSpecs && f.children ? pickFields(f.children, childSpecs, hidden) : own.children;
    return [{ ...own, ...spec, children, name: f.name }];
  });
}

export function getAt(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), obj);
}

/** A copy of `obj` with `path` set to `value` (nested objects copied along the way). */
export function setAt<T>(obj: T, path: string, value: unknown): T {
  const [head, ...rest] = path.split('.');
  const o = { ...(obj as Record<string, unknown>) };
  o[head] = rest.length ? setAt(o[head] ?? {}, rest.join('.'), value) : value;
  return o as T;
}

/** What an input shows for a value. */
export function toInput(f: Field, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (f.kind === 'list') return (v as unknown[]).join(f.multiline ? '\n' : ', ');
  return String(v);
}

/**
 * The value an input's text stands for. A number that does not parse is passed on as text, so
 * the API's own message says what is wrong; "" is null where null is allowed.
 */
export function fromInput(f: Field, raw: string): unknown {
  if (f.kind === 'enum') {
    if (raw === '') return null;
    return f.options?.find((o) => String(o) === raw) ?? raw;
  }
  if (f.kind === 'number' || f.kind === 'integer') {
    if (raw.trim() === '') return f.nullable ? null : raw;
    const n = Number(raw);
    return Number.isFinite(n) ? n : raw;
  }
  if (f.kind === 'list') return raw.split(/[\n,]/).map((s) => s.trim()).filter(Boolean);
  return f.nullable && raw === '' ? null : raw;
}

/** False when a text value visibly breaks the field's pattern (a hint; the API decides). */
export function fitsPattern(f: Field, v: unknown): boolean {
  if (!f.pattern || typeof v !== 'string') return true;
  try {
    return new RegExp(f.pattern, 'u').test(v);
  } catch {
    return true;
  }
}

/**
 * The top-level fields of `current` that differ from `original`. A changed nested object is
 * sent whole: the API validates the body with a shallow partial of the resource's schema.
 */
export function changes(original: unknown, current: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const o = (original ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries((current ?? {}) as Record<string, unknown>)) {
    if (JSON.stringify(v) !== JSON.stringify(o[k])) out[k] = v;
  }
  return out;
}

/**
 * "Connection mode: serial · Serial device: /dev/ttyACM0": what the server now holds for `paths`,
 * as far as it applies to what it holds. A chosen group says the choice, then its fields in
 * brackets: "Radios: Two radios · Uplink radio (Rig: Yaesu FT-818, Baud rate: 9600)".
 */
export function summary(fields: Field[], state: unknown, paths: string[]): string {
  const wanted = (f: Field) => paths.some((p) => f.path === p || f.path.startsWith(p + '.'));
  const entry = (f: Field): string => {
    const v = getAt(state, f.path);
    const shown = v === null ? f.nullLabel ?? 'not set' : f.secret ? '••••' : typeof v === 'boolean' || f.kind === 'enum' ? optionText(f, v as string | number | boolean) : toInput(f, v);
    return `${f.label}: ${shown === '' ? '(empty)' : shown}${f.unit && shown !== '' && v !== null ? ' ' + f.unit : ''}`;
  };
  const entries = (fs: Field[]): string[] =>
    applicableFields(fs, state).flatMap((f) => {
      if (!f.children) return wanted(f) ? [entry(f)] : [];
      if (!f.presence) return entries(f.children);
      if (!wanted(f)) return [];
      const v = getAt(state, f.path);
      const choice = `${f.presence.label}: ${v == null ? f.presence.none : f.presence.set}`;
      const inner = v == null ? [] : entries(f.children);
      return inner.length ? [choice, `${f.label} (${inner.join(', ')})`] : [choice];
    });
  return entries(fields).join(' · ');
}
