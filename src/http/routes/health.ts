import * as v from 'valibot';
import type { Services } from '../../services.js';
import { iso } from '../../util/clock.js';
import { buildOpenApi, renderDocsBody, renderDocsPage } from '../openapi.js';
import { eventsDoc, renderEventsDoc } from '../events-doc.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { ICON_HREF, pageHtml, type UiBundle } from '../ui-pages.js';

// /health and /docs
export function healthRoutes(s: Services, allRoutes: () => readonly RouteDef[], ui: UiBundle | null = null): RouteDef[] {
  let docCache: { json: string; html: string } | null = null;
  const docs = () => {
    if (!docCache) {
      // The live-events socket's protocol beside the routes (OpenAPI describes no WebSocket).
      const events = eventsDoc();
      const doc = { ...buildOpenApi(allRoutes(), s.version), 'x-events': events };
      const after = renderEventsDoc(events);
      // The site's page (navigation, styles, night mode) around the server-rendered route list.
      const page = ui?.entries.get('docs');
      const html = page
        ? pageHtml('docs', page, { title: 'API', served: `<main class="docs" id="docs">${renderDocsBody(doc, after)}</main>` })
        : renderDocsPage(doc, ICON_HREF, after);
      docCache = { json: JSON.stringify(doc), html };
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
      summary: 'Live OpenAPI 3.1 document (JSON with Accept: application/json or format=json, else an HTML page)',
      query: v.object({ format: v.optional(v.picklist(['json', 'html'])) }),
      handler: ({ accept, query }) =>
        query.format === 'json' || (query.format === undefined && accept.includes('application/json'))
          ? new RawReply(docs().json)
          : new RawReply(docs().html, 'text/html; charset=utf-8'),
    }),
  ];
}
