import { VALUE_MEANINGS } from '../util/choice.js';

// Valibot → JSON Schema (2020-12, as OpenAPI 3.1 uses) for the live /docs. It covers the schema
// kinds this service uses; anything else documents as an open schema rather than failing.
type Json = Record<string, unknown>;
interface Node {
  type: string;
  kind?: string;
  pipe?: Node[];
  entries?: Record<string, Node>;
  item?: Node;
  items?: Node[];
  wrapped?: Node;
  options?: unknown[];
  literal?: unknown;
  key?: Node;
  value?: Node;
  requirement?: unknown;
  description?: string;
  metadata?: Record<string, unknown>;
  default?: unknown;
  rest?: Node;
}

export function toJsonSchema(schema: unknown): Json {
  return convert(schema as Node);
}

function convert(node: Node): Json {
  if (!node || typeof node !== 'object') return {};
  const out = base(node);
  if (node.pipe) {
    for (const action of node.pipe.slice(1)) applyAction(out, action);
  }
  return out;
}

function applyAction(out: Json, a: Node): void {
  const req = a.requirement as number | RegExp;
  switch (a.type) {
    case 'min_value':
      out.minimum = req;
      break;
    case 'max_value':
      out.maximum = req;
      break;
    case 'min_length':
      out[out.type === 'array' ? 'minItems' : 'minLength'] = req;
      break;
    case 'max_length':
      out[out.type === 'array' ? 'maxItems' : 'maxLength'] = req;
      break;
    case 'integer':
      out.type = 'integer';
      break;
    case 'regex':
      out.pattern = (req as RegExp).source;
      break;
    case 'description':
      out.description = a.description;
      break;
    case 'metadata':
      // What each enum value means (util/choice.ts), in the extension Redoc and others show.
      if (a.metadata?.[VALUE_MEANINGS]) out['x-enumDescriptions'] = a.metadata[VALUE_MEANINGS];
      break;
    case 'email':
      out.format = 'email';
      break;
    case 'url':
      out.format = 'uri';
      break;
    case 'iso_timestamp':
      out.format = 'date-time';
      break;
  }
}

function base(n: Node): Json {
  switch (n.type) {
    case 'string':
      return { type: 'string' };
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'null':
      return { type: 'null' };
    case 'literal':
      return { const: n.literal };
    case 'picklist':
    case 'enum':
      return { enum: n.options };
    case 'array':
      return { type: 'array', items: convert(n.item!) };
    case 'tuple':
    case 'strict_tuple':
      return { type: 'array', prefixItems: (n.items ?? []).map(convert) };
    case 'record':
      return { type: 'object', additionalProperties: convert(n.value!) };
    case 'object':
    case 'loose_object':
    case 'strict_object':
    case 'object_with_rest': {
      const properties: Json = {};
      const required: string[] = [];
      for (const [k, child] of Object.entries(n.entries ?? {})) {
        properties[k] = convert(child);
        if (!isOptional(child)) required.push(k);
      }
      const o: Json = { type: 'object', properties };
      if (required.length) o.required = required;
      if (n.type === 'strict_object') o.additionalProperties = false;
      return o;
    }
    case 'optional':
    case 'exact_optional':
    case 'undefinedable': {
      const inner = convert(n.wrapped!);
      if (n.default !== undefined && typeof n.default !== 'function') inner.default = n.default;
      return inner;
    }
    case 'nullable':
    case 'nullish':
      return { anyOf: [convert(n.wrapped!), { type: 'null' }] };
    case 'union':
    case 'variant':
      return { anyOf: (n.options as Node[]).map(convert) };
    case 'lazy':
      return {};
    default:
      return {};
  }
}

function isOptional(n: Node): boolean {
  return n.type === 'optional' || n.type === 'exact_optional' || n.type === 'nullish' || n.type === 'undefinedable';
}
