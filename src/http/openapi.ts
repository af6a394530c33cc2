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
    // A resource id in the path (`/api/v1/recordings/{id}`): OpenAPI's own path-template syntax.
    const inPath = [...r.path.matchAll(/\{([a-z_]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
    if (inPath.length > 0) op.parameters = [...inPath, ...((op.parameters as unknown[]) ?? [])];
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
    if (r.allowCrossSite) op['x-allow-cross-site'] = true;
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

/**
 * The routes and their schemas as HTML, grouped by area (the page's main content). The page
 * around it is the site's (ui/pages/docs.tsx with the shared navigation and styles), or
 * renderDocsPage's plain one when the UI is not built.
 */
export function renderDocsBody(doc: Record<string, unknown>, after = ''): string {
  const paths = doc.paths as Record<string, Record<string, any>>;
  const byTag = new Map<string, string[]>();
  for (const path of Object.keys(paths).sort()) {
    for (const [method, op] of Object.entries(paths[path])) {
      const parts: string[] = [];
      if (op.parameters?.length) parts.push(`<h4>Query</h4><pre>${esc(JSON.stringify(op.parameters, null, 2))}</pre>`);
      if (op.requestBody)
        parts.push(`<h4>Body</h4><pre>${esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre>`);
      const resp = op.responses['200'].content['application/json'].schema;
      if (resp && Object.keys(resp).length) parts.push(`<h4>Response</h4><pre>${esc(JSON.stringify(resp, null, 2))}</pre>`);
      const notes = [op['x-clears-lite-cache'] ? 'clears lite cache' : '', op['x-allow-cross-site'] ? 'accepted from any origin' : ''].filter(Boolean);
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push(
        `<details><summary><code class="m m-${method}">${method.toUpperCase()}</code> <code class="p">${esc(path)}</code> <span class="s">${esc(op.summary ?? '')}${
          notes.length ? ` <small>(${notes.join('; ')})</small>` : ''
        }</span></summary>${parts.join('')}</details>`,
      );
    }
  }
  const sections = [...byTag].map(([tag, rows]) => `<section><h2>${esc(tagTitle(tag))}</h2>${rows.join('\n')}</section>`);
  return `<p class="intro">The live <a href="/docs?format=json">OpenAPI 3.1 document</a> (also <code>/docs</code> with <code>Accept: application/json</code>). Errors are always
<code>{"error":{"code","message","details"}}</code>. Changes from another site's pages are refused (403 <code>cross_origin_refused</code>); host names outside
<code>ALLOWED_HOSTS</code> get 403 <code>host_not_allowed</code>.</p>${sections.join('\n')}${after}`;
}

const ACRONYMS = new Set(['ui', 'aprs', 'iss', 'gps']);
/** "aprs" → "APRS", "radio" → "Radio". */
const tagTitle = (tag: string) => (ACRONYMS.has(tag) ? tag.toUpperCase() : tag[0].toUpperCase() + tag.slice(1));

/** The docs as a page of their own, for a station whose UI has not been built. */
export function renderDocsPage(doc: Record<string, unknown>, iconHref: string, after = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="${iconHref}"><title>satstation · API</title><style>body{font:15px system-ui,sans-serif;margin:0 auto;padding:.6rem .8rem;max-width:70rem;background:#0e1419;color:#e8eef2}
a{color:#6cc4ff}summary{cursor:pointer;padding:.4rem 0}code.m{display:inline-block;width:3.5rem;font-weight:bold}pre{background:#172129;padding:.5rem;overflow:auto;font-size:12px}</style></head>
<body><nav><a href="/">← Station</a></nav><h1>satstation API</h1>${renderDocsBody(doc, after)}</body></html>`;
}
