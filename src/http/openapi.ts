import type { RouteDef } from './route.js';
import { toJsonSchema } from './json-schema.js';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'details'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, details: {} },
    },
  },
};

/** The live OpenAPI 3.1 document, generated from the same valibot schemas that validate. */
export function buildOpenApi(routes: readonly RouteDef[], version: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const op: Record<string, unknown> = { tags: [r.tag], summary: r.summary, operationId: opId(r) };
    if (r.query) {
      const qs = toJsonSchema(r.query) as { properties?: Record<string, unknown>; required?: string[] };
      op.parameters = Object.entries(qs.properties ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: qs.required?.includes(name) ?? false,
        schema,
      }));
    }
    if (r.body) {
      op.requestBody = { required: true, content: { 'application/json': { schema: toJsonSchema(r.body) } } };
    }
    op.responses = {
      '200': {
        description: 'OK',
        content: { 'application/json': { schema: r.response ? toJsonSchema(r.response) : {} } },
      },
      '400': { description: 'Invalid input', content: { 'application/json': { schema: ERROR_SCHEMA } } },
      default: { description: 'Error', content: { 'application/json': { schema: ERROR_SCHEMA } } },
    };
    if (r.clearsLiteCache) op['x-clears-lite-cache'] = true;
    (paths[r.path] ??= {})[r.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'satstation', version, description: 'Satellite tracking and station-control appliance' },
    paths,
    components: { schemas: { Error: ERROR_SCHEMA } },
  };
}

function opId(r: RouteDef): string {
  return (r.method.toLowerCase() + r.path.replace(/[^a-zA-Z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')));
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A readable page of routes and schemas for a browser. */
export function renderDocsHtml(doc: Record<string, unknown>): string {
  const paths = doc.paths as Record<string, Record<string, any>>;
  const rows: string[] = [];
  for (const path of Object.keys(paths).sort()) {
    for (const [method, op] of Object.entries(paths[path])) {
      const parts: string[] = [];
      if (op.parameters?.length) parts.push(`<h4>Query</h4><pre>${esc(JSON.stringify(op.parameters, null, 2))}</pre>`);
      if (op.requestBody)
        parts.push(`<h4>Body</h4><pre>${esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre>`);
      const resp = op.responses['200'].content['application/json'].schema;
      if (resp && Object.keys(resp).length) parts.push(`<h4>Response</h4><pre>${esc(JSON.stringify(resp, null, 2))}</pre>`);
      rows.push(
        `<details><summary><code class="m">${method.toUpperCase()}</code> <code>${esc(path)}</code> ${esc(op.summary ?? '')}${
          op['x-clears-lite-cache'] ? ' <small>(clears lite cache)</small>' : ''
        }</summary>${parts.join('')}</details>`,
      );
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>satstation API</title><style>body{font:14px system-ui,sans-serif;margin:1rem;max-width:60rem}summary{cursor:pointer;padding:.25rem 0}
code.m{display:inline-block;width:3.5rem;font-weight:bold}pre{background:#f4f4f4;padding:.5rem;overflow:auto;font-size:12px}</style></head>
<body><h1>satstation API</h1><p>OpenAPI 3.1: request this page with <code>Accept: application/json</code>. Errors are always
<code>{"error":{"code","message","details"}}</code>.</p>${rows.join('\n')}</body></html>`;
}
