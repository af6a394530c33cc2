import * as v from 'valibot';
import type { Services } from '../../services.js';
import { route, type RouteDef } from '../route.js';
import { stateRoutes } from '../state-routes.js';
import { SnapshotRefSchema, snapshotRef } from './snapshots.js';

const SourceReportSchema = v.object({
  source: v.string(),
  status: v.picklist(['fetched', 'not-modified', 'held', 'failed']),
  count: v.number(),
  skipped: v.number(),
  message: v.string(),
});

const RefreshResponse = v.object({
  ok: v.boolean(),
  meta: v.object({
    count: v.number(),
    /** Spec: strings. One line per source: "<source>: <status>, <n> objects: <message>". */
    sources: v.array(v.string()),
    reports: v.array(SourceReportSchema),
    version: v.string(),
    refreshed: v.boolean(),
    replaced: v.boolean(),
    error: v.nullable(v.string()),
  }),
  ephemeris: v.object({ ok: v.boolean() }),
  snapshot: SnapshotRefSchema,
  status: v.object({ refreshed: v.boolean(), matched: v.number(), message: v.string(), error: v.nullable(v.string()) }),
  /** Issue 27: the transmitter data guidance profiles are built from; null when nothing consumes it. */
  transmitters: v.nullable(
    v.object({
      refreshed: v.boolean(),
      date: v.string(),
      profiles: v.nullable(v.number()),
      receive_only: v.nullable(v.number()),
      kept: v.array(v.object({ norad_id: v.number(), name: v.string(), reason: v.string() })),
      error: v.nullable(v.string()),
      message: v.string(),
    }),
  ),
});

// /api/v1/datasets/*
export function datasetsRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'POST',
      path: '/api/v1/datasets/refresh',
      tag: 'datasets',
      summary:
        'Refresh the catalog from its sources (2-hour politeness per source, HTTP caching honoured), merge by NORAD id ' +
        '(newest epoch wins), replace atomically and record a snapshot; then the AMSAT status (at most every 12 h). ' +
        'Failures leave the catalog as it was and are reported per source. Then the SatNOGS transmitters (asked for ' +
        'here, so past their daily guard) rebuild the guidance profiles; a failing source changes nothing and says why. ' +
        'Clears the lite snapshot cache.',
      response: RefreshResponse,
      clearsLiteCache: true,
      handler: async () => {
        const { catalog, status, transmitters } = await s.datasets.refresh('datasets/refresh', { forceTransmitters: true });
        const { snapshot } = await s.datasets.snapshots.record('datasets/refresh', { dedupe: true });
        return {
          ok: catalog.ok,
          meta: {
            count: catalog.count,
            sources: catalog.sources.map((r) => `${r.source}: ${r.status}, ${r.count} objects: ${r.message}`),
            reports: catalog.sources,
            version: catalog.version,
            refreshed: catalog.fetched,
            replaced: catalog.replaced,
            error: catalog.error,
          },
          ephemeris: catalog.ephemeris,
          snapshot: snapshotRef(snapshot),
          status,
          transmitters,
        };
      },
    }),
    route({
      method: 'GET',
      path: '/api/v1/datasets',
      tag: 'datasets',
      summary: 'Catalog in use, configured sources with their fetch state, status enrichment, transmitter data in use and scheduled jobs',
      handler: () => {
        const cat = s.catalog.current();
        const info = s.catalog.refreshInfo();
        const lastStatus = s.datasets.status.lastSuccessMs();
        return {
          catalog: { version: cat.version, origin: cat.origin, count: cat.satellites.length, refreshed_at: info.refreshed_at, sources: info.sources },
          sources: s.datasets.refresher.sources().map((source) => ({ source, ...s.datasets.refresher.state.get(source) })),
          status: { last_success: lastStatus === null ? null : new Date(lastStatus).toISOString(), url: s.stores.catalogSources.get().status_url },
          transmitters: s.datasets.transmitters?.view() ?? null,
          jobs: s.scheduler.list(),
        };
      },
    }),
    ...stateRoutes({
      path: '/api/v1/datasets/sources',
      tag: 'datasets',
      what: 'catalog sources (URLs or file paths; CATALOG_SOURCES overrides), schedules, status URL, transmitters source and fetch limits',
      store: s.stores.catalogSources,
    }),
  ];
}
