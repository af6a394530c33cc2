import * as v from 'valibot';
import type { Services } from '../../services.js';
import { StreamReply, route, type RouteDef } from '../route.js';
import { stateRoutes } from '../state-routes.js';
import { LOGBOOK_MAX_RECORDS, QsoRecordSchema, QsoRequestSchema, satIdField } from '../../logbook/schemas.js';
import { OPERATOR_MODE_NAMES } from '../../logbook/operator-modes.js';

// /api/v1/logbook/* and /api/v1/settings/logbook (issue 28): validate, call the logbook, shape
// the answer. The logbook loads on the first of these calls (src/logbook/logbook-area.ts).

const QsoIdSchema = v.pipe(v.string('must be a string'), v.regex(/^[A-Za-z0-9_-]{1,40}$/, 'must be a QSO id'));

/** Whether the push is on: a QSO 'pending' while it is off is "not pushed (push off)", not waiting for the logger. */
const PushEnabled = v.pipe(v.boolean(), v.description('the Cloudlog/Wavelog push is on (cloudlog_enabled)'));

const LogbookStatusSchema = v.object({
  records: v.number(),
  push_enabled: PushEnabled,
  pending: v.pipe(v.number(), v.description('QSOs waiting for the logger while the push is on')),
  not_pushed: v.pipe(v.number(), v.description('QSOs not pushed because the push is off (they go out when it is turned on)')),
  failed: v.number(),
  last_error: v.nullable(v.string()),
  queue: v.object({ running: v.boolean(), retry_at: v.nullable(v.string()), failures: v.number() }),
});

export function logbookRoutes(s: Services): RouteDef[] {
  const base = '/api/v1/logbook';
  const book = () => s.logbook.engine();
  return [
    route({
      method: 'POST',
      path: `${base}/qso`,
      tag: 'logbook',
      summary:
        'Log a QSO {call, their_grid?, rst_sent?, rst_rcvd?, comment?, sat_id?, time_on?, mode?}. The station fills the rest: the satellite (sat_id, else the radio session\'s, else the lite focus pass under way; sat_id null or neither: a plain QSO on the rig\'s frequencies), ' +
        'sat_name in LoTW\'s naming, sat_mode, prop_mode SAT, freq_mhz (uplink) and freq_rx_mhz (downlink) from the rig when it tracks that satellite or else the frequency guide, band/band_rx, ' +
        `mode/submode (the body's mode, one of ${OPERATOR_MODE_NAMES.join(', ')}, else the rig's or the guide's; when none of them tells it, a 400 naming mode: LoTW and the loggers refuse a QSO without one), ` +
        'station_callsign (logbook setting, else the APRS callsign), my_gridsquare (6 characters), time_on (now when absent), id; push_state pending (and push_enabled: while the push is off it is only "not pushed"). Answered once the QSO is in the file. 409 without a station callsign',
      body: QsoRequestSchema,
      response: v.object({ qso: QsoRecordSchema, push_enabled: PushEnabled }),
      handler: async ({ body }) => {
        const l = await book();
        return { qso: await l.log(body), push_enabled: l.pushEnabled() };
      },
    }),
    route({
      method: 'GET',
      path: `${base}/qso/mode`,
      tag: 'logbook',
      summary:
        'The satellite and ADIF mode/submode a QSO logged now would get without a mode in the body (sat_id: the satellite the page logs against, else the station\'s choice as for POST /qso). ' +
        'mode null: the station cannot tell it (no rig reading, no frequency guide for the satellite), and POST /qso needs mode (the Log sheet asks for it)',
      query: v.object({ sat_id: v.optional(satIdField()) }),
      response: v.object({ sat_id: v.nullable(v.string()), mode: v.nullable(v.string()), submode: v.nullable(v.string()) }),
      handler: async ({ query }) => (await book()).stationMode(query.sat_id),
    }),
    route({
      method: 'GET',
      path: base,
      tag: 'logbook',
      summary: `The logged QSOs, newest first (time_on), each with its push_state (pending, pushed, failed) and push_error, and push_enabled (a pending QSO is "not pushed" while the push is off); at most ${LOGBOOK_MAX_RECORDS} are kept`,
      query: v.object({ limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(1), v.maxValue(LOGBOOK_MAX_RECORDS))) }),
      response: v.object({ items: v.array(QsoRecordSchema), push_enabled: PushEnabled }),
      handler: async ({ query }) => {
        const l = await book();
        return { items: l.list(query.limit), push_enabled: l.pushEnabled() };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/qso/delete`,
      tag: 'logbook',
      summary: 'Delete a QSO {id} from the logbook (not from a logger it was pushed to); answers the deleted QSO, 404 for an unknown id',
      body: v.object({ id: QsoIdSchema }),
      response: v.object({ deleted: QsoRecordSchema }),
      handler: async ({ body }) => ({ deleted: await (await book()).remove(body.id) }),
    }),
    route({
      method: 'GET',
      path: `${base}/status`,
      tag: 'logbook',
      summary:
        'Logbook counts (records; pending: waiting for the logger with the push on; not_pushed: held while the push is off; failed), push_enabled, ' +
        'the last file error and the push queue (running, retry_at after a transient failure)',
      response: LogbookStatusSchema,
      handler: async () => (await book()).status(),
    }),
    route({
      method: 'GET',
      path: `${base}/export.adi`,
      tag: 'logbook',
      summary:
        'The logbook as an ADIF 3.1 file (ASCII, oldest first; header ADIF_VER, PROGRAMID, PROGRAMVERSION, CREATED_TIMESTAMP; CALL, QSO_DATE, TIME_ON, BAND, BAND_RX, FREQ, FREQ_RX, MODE, SUBMODE, PROP_MODE, SAT_NAME, SAT_MODE, STATION_CALLSIGN, MY_GRIDSQUARE, GRIDSQUARE, RST_SENT, RST_RCVD, COMMENT)',
      handler: async () => {
        const l = await book();
        // Streamed a chunk of records at a time (ASCII: one byte a character): never the whole file in memory.
        const day = new Date(s.clock.now()).toISOString().slice(0, 10);
        return new StreamReply(l.exportChunks(), 'text/plain; charset=us-ascii', { 'Content-Disposition': `attachment; filename="satstation-logbook-${day}.adi"` });
      },
    }),
    ...stateRoutes({
      path: '/api/v1/settings/logbook',
      tag: 'settings',
      what:
        'logbook settings: the Cloudlog/Wavelog push (cloudlog_enabled, cloudlog_url, cloudlog_api_key (write-only: read back masked), cloudlog_station_profile_id) and station_callsign (empty: the APRS callsign); enabling the push needs the URL, the key and the station profile id',
      store: s.stores.logbook,
    }),
  ];
}
