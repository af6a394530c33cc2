import * as v from 'valibot';
import type { Services } from '../../services.js';
import { route, type RouteDef } from '../route.js';
import { badRequest } from '../../util/errors.js';
import {
  ApplyBodySchema,
  ApplyResponseSchema,
  AutoTrackBodySchema,
  AutoTrackResponseSchema,
  FrequencyBodySchema,
  FrequencyResponseSchema,
  HamlibModelsSchema,
  PairBodySchema,
  PairResponseSchema,
  PortsSchema,
  RadioRuntimeSchema,
  RadioSessionSchema,
  RadioStateSchema,
  RestoreResponseSchema,
  SessionRuntimeSchema,
  SessionSelectBodySchema,
  TestPairBodySchema,
  TestPairSchema,
} from '../../radio/schemas.js';
import { RadioSettingsSchema } from '../../radio/settings.js';

// /api/v1/radio/*: validate, call the radio service, shape the answer (spec part 4 "Radio").
export function radioRoutes(s: Services): RouteDef[] {
  const r = s.radio;
  const sessionAndRuntime = () => ({ session: r.session(), runtime: r.runtime() });
  const post = <B extends v.GenericSchema | undefined>(
    path: string,
    summary: string,
    response: v.GenericSchema,
    handler: RouteDef<undefined, B>['handler'],
    o: { body?: B; clearsLiteCache?: boolean } = {},
  ) => route<undefined, B>({ method: 'POST', path: `/api/v1/radio${path}`, tag: 'radio', summary, response, handler, body: o.body, clearsLiteCache: o.clearsLiteCache });

  return [
    route({
      method: 'GET',
      path: '/api/v1/radio/state',
      tag: 'radio',
      summary: 'Radio settings, runtime (connection, targets, raw readback, capabilities, auto-track) and the pass-pinned session',
      response: RadioStateSchema,
      handler: () => r.state(),
    }),
    route({
      method: 'GET',
      path: '/api/v1/radio/ports',
      tag: 'radio',
      summary: 'Serial ports found on this machine (best effort: an empty list does not prove control cannot work)',
      response: PortsSchema,
      handler: async () => ({ items: await r.listPorts() }),
    }),
    route({
      method: 'GET',
      path: '/api/v1/radio/hamlib-models',
      tag: 'radio',
      summary: "Radio models Hamlib drives on this station (rigctl -l), satellite radios first: the radio settings' hamlib_model; available false, with a note, when Hamlib is not installed",
      response: HamlibModelsSchema,
      handler: async () => {
        const list = await r.listRigModels();
        if (list.kind !== 'ok') return { available: false, note: list.note, items: [] };
        return { available: true, note: null, items: list.items.map(({ model, manufacturer, name, status, satellite }) => ({ model, manufacturer, name, status, satellite })) };
      },
    }),
    post('/connect', 'Open the rig on the configured serial device and select VFO A', RadioStateSchema, async () => {
      await r.connect();
      return r.state();
    }, { clearsLiteCache: true }),
    post('/disconnect', 'Close the rig; auto-track stops, runtime goes idle', v.object({ runtime: RadioRuntimeSchema }), async () => {
      await r.disconnect();
      return { runtime: r.runtime() };
    }, { clearsLiteCache: true }),
    post('/poll', 'Read the rig back now (targets, raw state); success proves usable state came back', v.object({ settings: RadioSettingsSchema, runtime: RadioRuntimeSchema }), async () => {
      await r.poll();
      return { settings: r.publicSettings(), runtime: r.runtime() };
    }),
    post('/frequency', 'Direct VFO write, not pass-aware; VFO A is the working VFO afterwards', FrequencyResponseSchema, async ({ body }) => {
      const result = await r.writeFrequency(body.vfo, body.freq_hz);
      return { runtime: r.runtime(), result };
    }, { body: FrequencyBodySchema }),
    post('/pair', 'Manual pair in the rig write order (split off, A, B, split on); 400 when neither side is in the VHF/UHF ranges', PairResponseSchema, async ({ body }) => {
      const out = await r.writePair(body);
      return { runtime: r.runtime(), ...out };
    }, { body: PairBodySchema }),
    post('/apply', "Resolve the satellite's current shared recommendation and apply it at once (squelch open, scope centred, 1 MHz span)", ApplyResponseSchema, async ({ body }) => {
      const out = await r.apply(body);
      return { runtime: r.runtime(), ...out };
    }, { body: ApplyBodySchema }),
    post('/auto-track/start', 'Start periodic Doppler reapplication outside the session model (knob-follow on linear transponders)', AutoTrackResponseSchema, async ({ body }) => {
      const auto_track = await r.startAutoTrack(body.sat_id, body.interval_ms, body.selected_column_index);
      return { runtime: r.runtime(), auto_track };
    }, { body: AutoTrackBodySchema }),
    post('/auto-track/stop', 'Stop the auto-track loop; runtime returns to idle', AutoTrackResponseSchema, () => {
      r.stopAutoTrack();
      return { runtime: r.runtime(), auto_track: null };
    }),
    post('/restore', 'Put the rig back as it was before the first manual apply, pair or auto-track since connect (squelch, scope, split, VFOs, modes, tone); 409 no_snapshot when there is none', RestoreResponseSchema, async () => {
      const restored = await r.restore();
      return { runtime: r.runtime(), restored };
    }), // like /pair and /apply, not on the spec's lite-cache clearing list
    route({
      method: 'GET',
      path: '/api/v1/radio/session',
      tag: 'radio',
      summary: 'The pass-pinned session (always present) and the runtime',
      response: SessionRuntimeSchema,
      handler: sessionAndRuntime,
    }),
    post('/session/select', 'Pin a satellite pass: eligibility computed at once, default test pair from the frequency guide', v.object({ session: RadioSessionSchema }), async ({ body }) => ({
      session: await r.selectSession(body),
    }), { body: SessionSelectBodySchema, clearsLiteCache: true }),
    post('/session/test-pair', "Set the session's test pair ({uplink_hz, downlink_hz, modes}) or, with an empty body, resolve the default from the frequency guide", v.object({ session: RadioSessionSchema, test_pair: v.nullable(TestPairSchema) }), async ({ body }) => {
      let manual = null;
      if (body.downlink_hz !== undefined) manual = { uplink_hz: body.uplink_hz ?? null, downlink_hz: body.downlink_hz, uplink_mode: body.uplink_mode, downlink_mode: body.downlink_mode };
      else if (body.uplink_hz != null) throw badRequest('a test pair needs downlink_hz', { field: 'downlink_hz' });
      const session = await r.setTestPair(manual);
      return { session, test_pair: session.test_pair };
    }, { body: TestPairBodySchema, clearsLiteCache: true }),
    post('/session/test', 'Apply the test pair (rig snapshot captured first); control mode manual_applied', v.object({ session: RadioSessionSchema, runtime: RadioRuntimeSchema, recommendation: v.nullable(TestPairSchema) }), async () => {
      const session = await r.testSession();
      return { session, runtime: r.runtime(), recommendation: session.test_pair };
    }, { clearsLiteCache: true }),
    post('/session/test/confirm', 'Release control after a test; the rig snapshot is restored when possible', SessionRuntimeSchema, async () => {
      await r.confirmTest();
      return sessionAndRuntime();
    }, { clearsLiteCache: true }),
    post('/session/start', 'Arm until AOS, or track at once when the pass is under way', SessionRuntimeSchema, async () => {
      await r.startSession();
      return sessionAndRuntime();
    }, { clearsLiteCache: true }),
    post('/session/stop', 'Stop an armed or tracking session; the rig snapshot is restored when possible', SessionRuntimeSchema, async () => {
      await r.stopSession();
      return sessionAndRuntime();
    }, { clearsLiteCache: true }),
    post('/session/clear', 'Clear the selected session (control released first); the normal rotator flow returns', SessionRuntimeSchema, async () => {
      await r.clearSession();
      return sessionAndRuntime();
    }, { clearsLiteCache: true }),
  ];
}
