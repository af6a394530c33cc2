import * as v from 'valibot';
import type { Services } from '../../services.js';
import { FrequencyMatrixSchema, FrequencyRecommendationSchema, ProfileEntrySchema } from '../../guidance/schemas.js';
import { OperatorProfileInputSchema } from '../../guidance/operator-profiles.js';
import { TRANSMITTERS_ATTRIBUTION } from '../../guidance/transmitters/bundled.js';
import { PassItemSchema } from '../../orbit/schemas.js';
import type { PassEvent } from '../../orbit/types.js';
import { DEFAULT_MIN_EL_DEG } from '../../station/pass-filter.js';
import { iso } from '../../util/clock.js';
import { notFound } from '../../util/errors.js';
import { route, type RouteDef } from '../route.js';
import { qInt, qNumber } from '../validate.js';

/** The pass resource without the guidance it would embed (that is this response's recommendation/matrix). */
const PassSchema = v.omit(PassItemSchema, ['frequencyRecommendation', 'frequencyMatrix']);

const RecommendationResponse = v.object({
  timestamp: v.string(),
  sat_id: v.string(),
  min_max_el: v.pipe(v.number(), v.description('the lowest maximum elevation the chosen pass could have (the query value, else the operator\'s min_el_deg)')),
  pass: v.nullable(PassSchema),
  track: v.object({
    sat_id: v.string(),
    range_rate_km_s: v.pipe(v.number(), v.description('range rate the recommendation used (positive while the range grows)')),
    range_rate_source: v.pipe(v.picklist(['path', 'live', 'none']), v.description('pass path sample, live track, or zero (rule 4)')),
  }),
  recommendation: v.pipe(v.nullable(FrequencyRecommendationSchema), v.description('null when the satellite has no guidance profile')),
  matrix: v.pipe(v.nullable(FrequencyMatrixSchema), v.description('null unless the profile is linear')),
});

const ListedProfileSchema = v.object({
  sat_id: v.string(),
  norad_id: v.number(),
  name: v.string(),
  source: v.pipe(v.picklist(['bundled', 'transmitters', 'operator']), v.description('operator profiles win over the transmitter data, which wins over the bundled file')),
  date: v.pipe(v.string(), v.description('UTC ISO 8601: when the source\'s data was taken (operator: when saved)')),
  receive_only: v.boolean(),
  profile: ProfileEntrySchema,
});

const AttributionSchema = v.object({
  date: v.string(),
  title: v.string(),
  publisher: v.string(),
  url: v.string(),
  licence: v.string(),
  licence_url: v.string(),
  changes: v.string(),
});

const passJson = (p: PassEvent) => ({ sat_id: p.sat_id, name: p.name, aos: p.aos, tca: p.tca, los: p.los, max_el_deg: p.max_el_deg });

// /api/v1/frequency-guides/*
export function frequencyGuideRoutes(s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: '/api/v1/frequency-guides/recommendation',
      tag: 'frequency-guides',
      summary:
        'Doppler-corrected pair for the current or next pass of a satellite reaching at least `min_max_el` degrees; linear profiles add the phase matrix. ' +
        `Without \`min_max_el\` the operator's minimum elevation applies (\`min_el_deg\` of /api/v1/settings/pass-filter, default ${DEFAULT_MIN_EL_DEG}), ` +
        'the same passes /api/v1/passes lists by default; `min_max_el=0` takes any pass, a graze included. The answer\'s `min_max_el` is the value used.',
      query: v.object({
        sat_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
        selected_column_index: v.optional(qInt(0, 63)),
        // No default here: absent means the operator's own minimum, read per request.
        min_max_el: v.optional(qNumber(0, 90)),
      }),
      response: RecommendationResponse,
      handler: ({ query }) => {
        const now = s.clock.now();
        const min_max_el = query.min_max_el ?? s.stores.passFilter.get().min_el_deg;
        const g = s.guidance.recommend(query.sat_id, now, { selected_column_index: query.selected_column_index, min_max_el_deg: min_max_el });
        if (!g) throw notFound(`unknown satellite ${query.sat_id}`, { sat_id: query.sat_id });
        return {
          timestamp: iso(now),
          sat_id: query.sat_id,
          min_max_el,
          pass: g.pass ? passJson(g.pass) : null,
          track: g.track,
          recommendation: g.recommendation,
          matrix: g.matrix,
        };
      },
    }),
    route({
      method: 'GET',
      path: '/api/v1/frequency-guides/profiles',
      tag: 'frequency-guides',
      summary:
        'Every guidance profile with its source (bundled, transmitters: built from SatNOGS DB transmitter data, operator: edited here) and date. ' +
        `Transmitter data: ${TRANSMITTERS_ATTRIBUTION.publisher}, ${TRANSMITTERS_ATTRIBUTION.url}, ${TRANSMITTERS_ATTRIBUTION.licence} (${TRANSMITTERS_ATTRIBUTION.licence_url}).`,
      response: v.object({ items: v.array(ListedProfileSchema), attribution: AttributionSchema }),
      handler: () => ({ items: s.guidance.profilesList(), attribution: TRANSMITTERS_ATTRIBUTION }),
    }),
    route({
      method: 'POST',
      path: '/api/v1/frequency-guides/profiles',
      tag: 'frequency-guides',
      summary:
        'Add or replace the operator profile of a catalog satellite (Hz; mode fm with one column, uplink_hz null for receive-only, or linear with up to 16 columns). ' +
        'It wins over the data, persists atomically and survives refreshes; each bad field is named in the 400.',
      body: OperatorProfileInputSchema,
      response: v.object({ profile: ListedProfileSchema }),
      handler: async ({ body }) => {
        const profile = await s.guidance.setOperatorProfile(body, s.clock.now());
        s.invalidateLite(); // the lite screen's guidance shows the new profile now, not after its 15 s cache
        return { profile };
      },
    }),
    route({
      method: 'POST',
      path: '/api/v1/frequency-guides/profiles/delete',
      tag: 'frequency-guides',
      summary: 'Remove the operator profile of a satellite: it returns to the data\'s profile (answered, or null when the data has none). 404 when it had no operator profile.',
      body: v.object({ sat_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) }),
      response: v.object({ profile: v.nullable(ListedProfileSchema) }),
      handler: async ({ body }) => {
        const profile = await s.guidance.deleteOperatorProfile(body.sat_id);
        s.invalidateLite();
        return { profile };
      },
    }),
  ];
}
