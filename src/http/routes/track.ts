import * as v from 'valibot';
import type { Services } from '../../services.js';
import { GroundPathPointSchema } from '../../orbit/schemas.js';
import { badRequest, notFound } from '../../util/errors.js';
import { route, type RouteDef } from '../route.js';
import { qInt, qNumber } from '../validate.js';

export const MAX_PATH_POINTS = 2000;
export const DEFAULT_PATH_MINUTES = 90;
export const DEFAULT_PATH_STEP_S = 30;

/** How far back a path may start: a pass that began up to an hour ago can still be drawn whole. */
export const PATH_START_LOOKBACK_MS = 3600_000;

const PathResponse = v.object({
  sat_id: v.string(),
  start: v.string(),
  minutes: v.number(),
  step_seconds: v.number(),
  count: v.number(),
  items: v.array(GroundPathPointSchema),
});

// /api/v1/track/*
export function trackRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/track/path',
      tag: 'tracking',
      summary:
        `Sampled path of one satellite from \`start\` (an ISO 8601 UTC time, default now; whole second, at most 1 h ago) for ` +
        `\`minutes\` (default ${DEFAULT_PATH_MINUTES}) every \`step_seconds\` (default ${DEFAULT_PATH_STEP_S}), both ends ` +
        'included, each point with its sub-satellite point (lat_deg, lon_deg, alt_km). More than ' +
        `${MAX_PATH_POINTS} points, or a window reaching past the pass table horizon, is a 400; an unknown sat_id a 404.`,
      query: v.object({
        sat_id: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'must be a sat_id')),
        minutes: v.optional(qNumber(0.1, 4320), String(DEFAULT_PATH_MINUTES)),
        step_seconds: v.optional(qInt(1, 3600), String(DEFAULT_PATH_STEP_S)),
        start: v.optional(
          v.pipe(
            v.string(),
            v.regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/, 'must be an ISO 8601 time with a zone, e.g. 2026-08-22T12:00:00Z'),
            v.transform(Date.parse),
            v.number('must be a valid time'),
            v.check((t) => Number.isFinite(t), 'must be a valid time'),
          ),
        ),
      }),
      response: PathResponse,
      handler: ({ query }) => {
        const { sat_id, minutes, step_seconds, start } = query;
        if (!s.catalog.current().byId.has(sat_id)) throw notFound(`unknown sat_id ${sat_id}`, { sat_id });
        const points = Math.floor((minutes * 60) / step_seconds + 1e-9) + 1;
        if (points > MAX_PATH_POINTS) {
          throw badRequest(`${points} points asked; at most ${MAX_PATH_POINTS} (raise step_seconds or lower minutes)`, { points, max_points: MAX_PATH_POINTS }, 'too_many_points');
        }
        const now = s.clock.now();
        const from = Math.floor((start ?? now) / 1000) * 1000;
        if (from < now - PATH_START_LOOKBACK_MS) {
          throw badRequest('start is more than 1 h in the past', { start: new Date(from).toISOString(), earliest: new Date(now - PATH_START_LOOKBACK_MS).toISOString() }, 'start_too_early');
        }
        const end = s.orbit.horizonEnd(now);
        if (from + minutes * 60_000 > end) {
          throw badRequest(`the window ends past the pass table horizon (${new Date(end).toISOString()})`, { horizon_end: new Date(end).toISOString() }, 'beyond_horizon');
        }
        const items = s.orbit.groundPath(sat_id, from, minutes, step_seconds);
        return { sat_id, start: new Date(from).toISOString(), minutes, step_seconds, count: items.length, items };
      },
    }),
  ];
}
