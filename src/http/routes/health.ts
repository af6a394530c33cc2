import * as v from 'valibot';
import type { Services } from '../../services.js';
import { iso } from '../../util/clock.js';
import { buildOpenApi, renderDocsHtml } from '../openapi.js';
import { RawReply, route, type RouteDef } from '../route.js';

// /health and /docs
export function healthRoutes(s: Services, allRoutes: () => readonly RouteDef[]): RouteDef[] {
  let docCache: { json: string; html: string } | null = null;
  const docs = () => {
    if (!docCache) {
      const doc = buildOpenApi(allRoutes(), s.version);
      docCache = { json: JSON.stringify(doc), html: renderDocsHtml(doc) };
    }
    return docCache;
  };
  return [
    route({
      method: 'GET',
      path: '/health',
      tag: 'health',
      summary: 'Process liveness',
      response: v.object({ ok: v.boolean(), timestamp: v.string() }),
      handler: () => ({ ok: true, timestamp: iso(s.clock.now()) }),
    }),
    route({
      method: 'GET',
      path: '/docs',
      tag: 'health',
      summary: 'Live OpenAPI 3.1 document (JSON with Accept: application/json, else an HTML page)',
      handler: ({ accept }) =>
        accept.includes('application/json')
          ? new RawReply(docs().json)
          : new RawReply(docs().html, 'text/html; charset=utf-8'),
    }),
  ];
}
