import * as v from 'valibot';
import type { Services } from '../../services.js';
import { SNAPSHOT_MAX_BYTES, SNAPSHOT_RETENTION, type Snapshot } from '../../catalog/snapshots.js';
import { route, type RouteDef } from '../route.js';

/** Spec part 2 "Dataset and snapshot records": id, source, created_at, satellite_count. */
export const SnapshotRefSchema = v.object({ id: v.string(), source: v.string(), created_at: v.string(), satellite_count: v.number() });
export const snapshotRef = (s: Snapshot) => ({ id: s.id, source: s.source, created_at: s.created_at, satellite_count: s.satellite_count });

// /api/v1/snapshots/*
export function snapshotsRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'POST',
      path: '/api/v1/snapshots/record',
      tag: 'datasets',
      summary: `Record a snapshot of the catalog in use (kept: newest ${SNAPSHOT_RETENTION}, at most ${SNAPSHOT_MAX_BYTES / 1024 / 1024} MiB in total). Does not clear the lite cache.`,
      body: v.optional(v.object({ source: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(80))) }), {}),
      response: v.object({ snapshot: SnapshotRefSchema, total: v.number() }),
      handler: async ({ body }) => {
        const r = await s.datasets.snapshots.record(body?.source ?? 'manual');
        return { snapshot: snapshotRef(r.snapshot), total: r.total };
      },
    }),
    route({
      method: 'GET',
      path: '/api/v1/snapshots',
      tag: 'datasets',
      summary: 'Recorded snapshots, newest first',
      response: v.object({
        count: v.number(),
        retention: v.object({ max_count: v.number(), max_bytes: v.number() }),
        items: v.array(v.object({ ...SnapshotRefSchema.entries, catalog_version: v.string(), bytes: v.number() })),
      }),
      handler: () => {
        const items = s.datasets.snapshots.list();
        return { count: items.length, retention: { max_count: SNAPSHOT_RETENTION, max_bytes: SNAPSHOT_MAX_BYTES }, items };
      },
    }),
  ];
}
