import * as v from 'valibot';
import type { Services } from '../../services.js';
import { route, type RouteDef } from '../route.js';
import { GotoBodySchema, RotatorStateSchema, TrackStartBodySchema } from '../../rotator/schemas.js';

// /api/v1/rotator/*: validate, call the rotator, shape the answer (issue 25). Every POST answers
// the whole state, so a page redraws from one reply, and clears the lite cache as the spec's list
// does for the radio and APRS routes (issue 32), so the snapshot's rotator line is current at once.
// Changes no route makes (LOS, a fault, a Hamlib client) clear it through RotatorArea.onChange.

const NoBody = v.optional(v.strictObject({}));

export function rotatorRoutes(s: Services): RouteDef[] {
  const r = s.rotator;
  const base = '/api/v1/rotator';
  const post = <B extends v.GenericSchema | undefined>(
    path: string,
    summary: string,
    act: (body: B extends v.GenericSchema ? v.InferOutput<B> : undefined) => void | Promise<void>,
    o: { body?: B; open?: boolean } = {},
  ) =>
    route<undefined, B>({
      method: 'POST',
      path: `${base}${path}`,
      tag: 'rotator',
      summary,
      // The stop takes any body, like the APRS emergency stop: a stray body must never keep it from stopping.
      body: (o.open ? undefined : (o.body ?? NoBody)) as B,
      response: RotatorStateSchema,
      open: o.open,
      allowCrossSite: o.open,
      clearsLiteCache: true,
      handler: async ({ body }) => {
        await act(body as never);
        return r.state();
      },
    });

  return [
    route({
      method: 'GET',
      path: `${base}/state`,
      tag: 'rotator',
      summary: 'Rotator settings, runtime (position read back, target, mode, fault) and the pass plan (null unless tracking)',
      response: RotatorStateSchema,
      handler: () => r.state(),
    }),
    post('/connect', 'Open the controller the settings name and prove it answers (409 rotator_disabled, 502/504 when it does not)', () => r.connect()),
    post('/disconnect', 'Close the controller; tracking ends', () => r.disconnect()),
    post('/goto', 'Point the antenna at {az_deg, el_deg}: 400 outside the limits, 409 rotator_tracking while tracking, 409 rotator_not_connected', (b) => r.goto(b.az_deg, b.el_deg), { body: GotoBodySchema }),
    post('/stop', 'Halt motion now and end tracking; always answers, needs no operator token even when locked', () => r.halt(), { open: true }),
    post('/park', 'Go to the park position (park_az_deg, park_el_deg); tracking ends', () => r.park()),
    post('/track/start', 'Track {sat_id} through its current or next pass: preposition before AOS, follow with lead, park after LOS', (b) => r.startTracking(b.sat_id), { body: TrackStartBodySchema }),
    post('/track/stop', 'Stop tracking; the antenna stays where it is', () => r.stopTracking()),
  ];
}
