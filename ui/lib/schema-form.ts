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
  /** Dotted path in the resource ("igate.server_port"). */
  path: string;
  name: string;
  kind: FieldKind;
  label: string;
  unit: string | null;
  /** May be null: enums and booleans then offer "not set". */
  nullable: boolean;
  /** enum values (booleans as a tri-state enum when nullable). */
  options?: Array<string | number | boolean>;
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  children?: Field[];
}

const UNITS: Array<[RegExp, string]> = [
  [/_deg$/, '°'],
  [/_ms$/, 'ms'],
  [/_hz$/, 'Hz'],
  [/_m$/, 'm'],
  [/_km$/, 'km'],
  [/_s$/, 's'],
];

/** "fetch_timeout_ms" → label "Fetch timeout", unit "ms". */
export function labelOf(name: string): { label: string; unit: string | null } {
  const hit = UNITS.find(([re]) => re.test(name));
  const words = (hit ? name.replace(hit[0], '') : name).replace(/_/g, ' ');
  return { label: words.charAt(0).toUpperCase() + words.slice(1), unit: hit ? hit[1] : null };
}

/** The request-body schema of `POST path` in an OpenAPI document, or null. */
export function requestSchema(openapi: unknown, path: string): JsonSchema | null {
  const op = (openapi as { paths?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } }> }).paths?.[path]?.post;
  return op?.requestBody?.content?.['application/json']?.schema ?? null;
}

function fieldOf(name: string, path: string, schema: JsonSchema): Field | null {
  const nullable = !!schema.anyOf?.some((s) => s.type === 'null');
  const s = schema.anyOf?.find((x) => x.type !== 'null' && x.const === undefined) ?? schema;
  const base = { path, name, nullable, ...labelOf(name) };
  if (s.type === 'boolean') return { ...base, kind: nullable ? 'enum' : 'boolean', options: nullable ? [true, false] : undefined };
  if (s.enum) return { ...base, kind: 'enum', options: s.enum.filter((v): v is string | number | boolean => v !== null) };
  if (s.type === 'integer' || s.type === 'number') return { ...base, kind: s.type, min: s.minimum, max: s.maximum };
  if (s.type === 'string') return { ...base, kind: 'text', maxLength: s.maxLength, pattern: s.pattern };
  if (s.type === 'array' && (s.items?.type === 'string' || s.items?.type === 'integer' || s.items?.type === 'number')) return { ...base, kind: 'list' };
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
  if (f.kind === 'list') return (v as unknown[]).join(f.name === 'sources' ? '\n' : ', ');
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

/** The fields of `current` that differ from `original` (nested objects as partial objects). */
export function changes(original: unknown, current: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const o = (original ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries((current ?? {}) as Record<string, unknown>)) {
    if (v && typeof v === 'object' && !Array.isArray(v) && o[k] && typeof o[k] === 'object') {
      const inner = changes(o[k], v);
      if (Object.keys(inner).length) out[k] = inner;
    } else if (JSON.stringify(v) !== JSON.stringify(o[k])) out[k] = v;
  }
  return out;
}
