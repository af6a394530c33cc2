import * as v from 'valibot';
import type { Services } from '../../services.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { AppError } from '../../util/errors.js';
import { AprsSettingsSchema } from '../../aprs/settings.js';
import {
  AprsRuntimeSchema,
  AprsTargetSchema,
  IdentityBodySchema,
  MessageBodySchema,
  NoBodySchema,
  PositionBodySchema,
  SelectTargetBodySchema,
  SendResponseSchema,
  SessionSelectBodySchema,
  StationIdentitySchema,
  StatusBodySchema,
  TncStatusSchema,
} from '../../aprs/schemas.js';
import { AprsLogEntrySchema } from '../../aprs/log/log-entry.js';
import { AgeBucketSchema, AGE_BUCKETS } from '../../aprs/log/age-bucket.js';
import { toCsv, toJsonExport } from '../../aprs/log/log-export.js';
import type { SendKind } from '../../aprs/send.js';

// /api/v1/aprs/*: validate, call the APRS service, shape the answer (spec part 4 "APRS").
export function aprsRoutes(s: Services): RouteDef[] {
  const a = s.aprs;
  const base = '/api/v1/aprs';
  const StateSchema = v.object({ settings: AprsSettingsSchema, runtime: AprsRuntimeSchema, previewTarget: AprsTargetSchema, identity: StationIdentitySchema });
  const selection = () => {
    const st = a.settings();
    return { operating_mode: st.operating_mode, selected_satellite_id: st.selected_satellite_id, selected_channel_id: st.selected_channel_id };
  };
  const send = (kind: SendKind, body: v.GenericSchema, summary: string) =>
    route({
      method: 'POST',
      path: `${base}/send/${kind}`,
      tag: 'aprs',
      summary,
      body: body as typeof MessageBodySchema,
      response: SendResponseSchema,
      handler: async ({ body }) => {
        const out = await a.send(kind, body as { to?: string; text?: string; comment?: string });
        return { ...out, runtime: a.runtime() };
      },
    });

  return [
    route({
      method: 'GET',
      path: `${base}/state`,
      tag: 'aprs',
      summary: 'APRS settings, runtime, the resolved target (previewTarget: before or during connect) and the station identity',
      response: StateSchema,
      handler: () => a.state(),
    }),
    route({
      method: 'GET',
      path: `${base}/targets`,
      tag: 'aprs',
      summary: 'Terrestrial target (regional or manual frequency) and every APRS satellite channel, resolved against location and pass window',
      response: v.object({ items: v.array(AprsTargetSchema) }),
      handler: () => ({ items: a.targets() }),
    }),
    route({
      method: 'POST',
      path: `${base}/select-target`,
      tag: 'aprs',
      summary: 'Save a satellite target (satellite mode) in the APRS settings; the transport is not started',
      body: SelectTargetBodySchema,
      response: v.object({ state: AprsSettingsSchema, previewTarget: AprsTargetSchema }),
      clearsLiteCache: true,
      handler: async ({ body }) => ({ state: await a.selectTarget(body.sat_id, body.channel_id), previewTarget: a.previewTarget() }),
    }),
    route({
      method: 'POST',
      path: `${base}/session/select`,
      tag: 'aprs',
      summary: 'Select the target ({operating_mode: terrestrial} or {sat_id, channel_id}); answers the transmit gate and corrected frequencies at once',
      body: SessionSelectBodySchema,
      response: v.object({
        state: v.object({ operating_mode: v.string(), selected_satellite_id: v.nullable(v.string()), selected_channel_id: v.nullable(v.string()) }),
        previewTarget: AprsTargetSchema,
      }),
      clearsLiteCache: true,
      handler: async ({ body }) => {
        if (body.operating_mode === 'terrestrial') await a.selectMode('terrestrial');
        else if (body.sat_id) await a.selectTarget(body.sat_id, body.channel_id);
        else if (body.operating_mode === 'satellite') throw new AppError(400, 'bad_request', 'satellite selection needs sat_id (and channel_id)', { field: 'sat_id' });
        return { state: selection(), previewTarget: a.previewTarget() };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/session/identity`,
      tag: 'aprs',
      summary: 'Set the station callsign and SSID (validated: a real callsign shape, SSID 0–15; 400 otherwise)',
      body: IdentityBodySchema,
      response: v.object({ identity: StationIdentitySchema, state: AprsSettingsSchema }),
      clearsLiteCache: true,
      handler: async ({ body }) => ({ identity: await a.setIdentity(body.callsign, body.ssid), state: a.publicSettings() }),
    }),
    route({
      method: 'POST',
      path: `${base}/connect`,
      tag: 'aprs',
      summary: 'Start the transport (Dire Wolf sidecar on a KISS pseudo-terminal, or the external KISS TNC); the target still gates transmit',
      body: NoBodySchema,
      response: v.object({ settings: AprsSettingsSchema, runtime: AprsRuntimeSchema, target: AprsTargetSchema }),
      clearsLiteCache: true,
      handler: async () => {
        await a.connect();
        return { settings: a.publicSettings(), runtime: a.runtime(), target: a.previewTarget() };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/disconnect`,
      tag: 'aprs',
      summary: 'Stop the transport, the iGate and the retune; the log stays',
      body: NoBodySchema,
      response: v.object({ runtime: v.object({ connected: v.boolean(), session_active: v.boolean(), last_error: v.nullable(v.string()) }) }),
      clearsLiteCache: true,
      handler: async () => {
        await a.disconnect();
        const r = a.runtime();
        return { runtime: { connected: r.connected, session_active: r.session_active, last_error: r.last_error } };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/emergency-stop`,
      tag: 'aprs',
      summary: "Stop transmit now: TNC killed (its PTT released), the rig's PTT dropped over CI-V when connected; sends blocked until the next connect. Needs no operator token even when locked",
      response: v.object({ ok: v.literal(true), rig_ptt_dropped: v.nullable(v.boolean()), runtime: AprsRuntimeSchema }),
      clearsLiteCache: true,
      open: true,
      allowCrossSite: true,
      handler: async () => ({ ...(await a.emergencyStop()), runtime: a.runtime() }),
    }),
    route({
      method: 'GET',
      path: `${base}/log`,
      tag: 'aprs',
      summary: 'The stored receive log (newest first), not the in-memory recent tail',
      query: v.object({ limit: v.optional(v.pipe(v.string(), v.transform(Number), v.integer(), v.minValue(1), v.maxValue(100000))) }),
      response: v.object({ items: v.array(AprsLogEntrySchema) }),
      handler: async ({ query }) => ({ items: await a.logEntries(query.limit) }),
    }),
    route({
      method: 'POST',
      path: `${base}/log/clear`,
      tag: 'aprs',
      summary: `Prune the stored log: remove entries older than age_bucket (${AGE_BUCKETS.join(', ')}; all removes everything)`,
      body: v.strictObject({ age_bucket: AgeBucketSchema }),
      response: v.object({ removed: v.number(), kept: v.number() }),
      handler: ({ body }) => a.clearLog(body.age_bucket),
    }),
    route({
      method: 'GET',
      path: `${base}/log/export.csv`,
      tag: 'aprs',
      summary: 'The stored log as CSV (id, received_at, source, destination, message, text)',
      handler: async () =>
        new RawReply(toCsv(await a.logEntries()), 'text/csv; charset=utf-8', 200, { 'Content-Disposition': 'attachment; filename="aprs-log.csv"' }),
    }),
    route({
      method: 'GET',
      path: `${base}/log/export.json`,
      tag: 'aprs',
      summary: 'The stored log as JSON {exported_at, count, items}',
      handler: async () =>
        new RawReply(JSON.stringify(toJsonExport(await a.logEntries(), s.clock.now())), 'application/json; charset=utf-8', 200, {
          'Content-Disposition': 'attachment; filename="aprs-log.json"',
        }),
    }),
    route({
      method: 'GET',
      path: `${base}/tnc/status`,
      tag: 'aprs',
      summary: 'Is the TNC binary (tnc_binary, Dire Wolf by default) installed, and where',
      response: TncStatusSchema,
      handler: () => a.tncStatus(),
    }),
    route({
      method: 'POST',
      path: `${base}/tnc/install`,
      tag: 'aprs',
      summary: "Install Debian's direwolf package through the privilege helper (sudo -n, never a prompt); 403 when no privilege is available",
      body: NoBodySchema,
      response: v.object({ ok: v.literal(true), output: v.array(v.string()), status: TncStatusSchema }),
      handler: async () => {
        const r = await a.installTnc();
        if (!r.ok) {
          const denied = /no privilege|helper .* is not installed/.test(r.error);
          throw new AppError(denied ? 403 : 502, denied ? 'install_not_permitted' : 'install_failed', r.error, { output: r.output });
        }
        return { ok: true as const, output: r.output, status: await a.tncStatus() };
      },
    }),
    route({
      method: 'POST',
      path: `${base}/tnc/install-terminal`,
      tag: 'aprs',
      summary: 'Open a terminal running the install (it may ask for a password there); 409 with the reason when no desktop is present',
      body: NoBodySchema,
      response: v.object({ ok: v.literal(true), terminal: v.string() }),
      handler: async () => {
        const r = await a.installTerminal();
        if (!r.ok) throw new AppError(409, 'no_desktop', r.error);
        return { ok: true as const, terminal: r.terminal };
      },
    }),
    send('message', MessageBodySchema, 'Send a message {to, text} (numbered for acks) through the transmit gate and flood guard; sent false with tx_block_reason when blocked'),
    send('status', StatusBodySchema, 'Send a status {text} through the transmit gate and flood guard'),
    send('position', PositionBodySchema, 'Send our position {comment?}: location resolved, position_fudge_* applied, then encoded'),
  ];
}
