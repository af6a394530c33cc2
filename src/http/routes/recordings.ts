import * as v from 'valibot';
import type { Services } from '../../services.js';
import { AppError, notFound } from '../../util/errors.js';
import { parseByteRange } from '../byte-range.js';
import { FileReply, route, type RouteDef } from '../route.js';
import { stateRoutes } from '../state-routes.js';
import { parseOr400 } from '../validate.js';
import {
  RecordingDetailSchema,
  RecordingIdBodySchema,
  RecordingItemSchema,
  RecordingListSchema,
  RecordingRuntimeSchema,
  RecordingStartBodySchema,
  recordingId,
} from '../../recording/schemas.js';

// /api/v1/recordings/* and /api/v1/settings/recording (issue 37): validate, call the recorder,
// shape the answer. The recorder loads on the first of these calls, or when recording is enabled
// (src/recording/recording-area.ts); the stop and the runtime never load it.

const RuntimeReply = v.object({ runtime: RecordingRuntimeSchema });
const NoBody = v.optional(v.strictObject({}));

/** The `{id}` of the path, checked like the delete body's id: a 400 naming it, never a file name made of it. */
const PathId = v.object({ id: recordingId() });
const idOf = (params: Readonly<Record<string, string>>): string => parseOr400(PathId, params, 'path').id;
const noSuch = (id: string) => notFound(`no recording ${id}`, { id });

export function recordingsRoutes(s: Services): RouteDef[] {
  const r = s.recording;
  const base = '/api/v1/recordings';
  const rec = () => r.engine();
  return [
    ...stateRoutes({
      path: '/api/v1/settings/recording',
      tag: 'settings',
      what:
        'pass recording: enabled, source (auto: the IC-705 LAN audio on Wi-Fi, else ALSA; alsa; lan), alsa_device, sample_rate, min_elevation_deg and pre_roll_s (it records the satellite the radio session or auto-track ' +
        'follows from pre_roll_s before it rises above min_elevation_deg to pre_roll_s after it sets below it), keep_mb (MiB for all recordings; the oldest go first)',
      store: s.stores.recording,
      clearsLiteCache: true,
    }),
    route({
      method: 'GET',
      path: base,
      tag: 'recordings',
      summary: 'The recordings, newest first: sat, times, duration, size, format (ogg or wav), the highest elevation, the QSOs logged during it, status (recording, done, failed) and why it ended',
      response: RecordingListSchema,
      handler: async () => ({ items: (await rec()).list() }),
    }),
    route({
      method: 'GET',
      path: `${base}/runtime`,
      tag: 'recordings',
      summary: 'The recorder now: recording or not, which recording, the source, the level (dBFS) and the last fault; loads nothing',
      response: RuntimeReply,
      handler: () => ({ runtime: r.runtime() }),
    }),
    route({
      method: 'GET',
      path: `${base}/{id}`,
      tag: 'recordings',
      summary: 'One recording\'s journal: the item, the elements used, the station location and grid, the pass (AOS, TCA, LOS), a timeline point a second {t, az_deg, el_deg, range_rate_km_s, rx_hz, tx_hz, rotator_az_deg, rotator_el_deg} and the events (QSOs, APRS packets, notes) with recording_offset_s',
      response: RecordingDetailSchema,
      handler: async ({ params }) => {
        const id = idOf(params);
        return (await (await rec()).detail(id)) ?? Promise.reject(noSuch(id));
      },
    }),
    route({
      method: 'GET',
      path: `${base}/{id}/audio`,
      tag: 'recordings',
      summary: 'The audio (audio/ogg or audio/wav) with Accept-Ranges: bytes; a Range gets a 206 with Content-Range (416 past the end); HEAD sends the headers only. A recording under way is served as far as it has been written',
      handler: async ({ params, range }) => {
        const id = idOf(params);
        const a = await (await rec()).audio(id);
        if (!a) throw noSuch(id);
        const want = parseByteRange(range, a.size);
        if (want.kind === 'unsatisfiable') throw new AppError(416, 'range_not_satisfiable', `the range ${range} is outside the file's ${a.size} bytes`, { size: a.size }, { 'Content-Range': `bytes */${a.size}` });
        const disposition = { 'Content-Disposition': `inline; filename="${a.filename}"` };
        return new FileReply(a.path, a.contentType, a.size, want.kind === 'range' ? { start: want.start, end: want.end } : null, disposition);
      },
    }),
    route({
      method: 'POST',
      path: `${base}/start`,
      tag: 'recordings',
      summary: 'Record by hand {sat_id?} (default: the satellite the radio follows, else none) until POST /recordings/stop. 409 recording_disabled while recording is off, 409 recording_in_progress while one is under way, 502 recording_failed when the audio cannot be opened',
      body: RecordingStartBodySchema,
      response: RuntimeReply,
      clearsLiteCache: true,
      handler: async ({ body }) => ({ runtime: await r.startByHand(body?.sat_id) }),
    }),
    route({
      method: 'POST',
      path: `${base}/stop`,
      tag: 'recordings',
      summary: 'End the recording under way (a pass recording is not started again for this pass); answers the runtime whether or not one was under way',
      body: NoBody,
      response: RuntimeReply,
      clearsLiteCache: true,
      handler: async () => ({ runtime: await r.stopByHand() }),
    }),
    route({
      method: 'POST',
      path: `${base}/delete`,
      tag: 'recordings',
      summary: 'Delete a recording {id}: its audio and journal. 404 when there is none, 409 while it is being recorded',
      body: RecordingIdBodySchema,
      response: v.object({ deleted: v.string(), items: v.array(RecordingItemSchema) }),
      handler: async ({ body }) => {
        const svc = await rec();
        if (!(await svc.remove(body.id))) throw noSuch(body.id);
        return { deleted: body.id, items: svc.list() };
      },
    }),
  ];
}
