import * as v from 'valibot';
import type { Services } from '../../services.js';
import { LiteSettingsSchema } from '../../station/lite-settings.js';
import { DEFAULT_MIN_EL_DEG } from '../../station/pass-filter.js';
import { route, type RouteDef } from '../route.js';
import { stateRoutes } from '../state-routes.js';
import { checkRotatorSettings } from '../../rotator/settings.js';
import { checkHamlibSettings } from '../../hamlib/settings.js';
import { checkRadioSettings } from '../../radio/settings.js';
import { checkHamlibModels } from '../../radio/rigctld/hamlib-model-check.js';

const AvailableSchema = v.array(v.object({ sat_id: v.string(), name: v.string() }));

// /api/v1/settings/*
export function settingsRoutes(s: Services): RouteDef[] {
  return [
    ...stateRoutes({
      path: '/api/v1/settings/developer-overrides',
      tag: 'settings',
      what: 'developer overrides (kiosk rotator)',
      store: s.stores.developerOverrides,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/gps',
      tag: 'settings',
      what: 'GPS connection settings',
      store: s.stores.gps,
      clearsLiteCache: true,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/iss-display-mode',
      tag: 'settings',
      what: 'ISS display mode (auto, video, track) and the Earth-view stream URL',
      store: s.stores.issDisplay,
      clearsLiteCache: true,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/timezone',
      tag: 'settings',
      what: 'display timezone (an IANA zone of the runtime, or UTC)',
      store: s.stores.timezone,
      clearsLiteCache: true,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/pass-filter',
      tag: 'settings',
      what:
        'pass filter profile (All, IssOnly, Favorites with its satellites) and the operator\'s minimum elevation min_el_deg ' +
        `(0–90°, default ${DEFAULT_MIN_EL_DEG}): passes peaking below it are not listed or followed by default (/passes, system state, lite, kiosk, the frequency recommendation)`,
      store: s.stores.passFilter,
      clearsLiteCache: true,
      // Same rule as the lite tracked set: favorites the catalog does not know, and repeats, are dropped.
      refine: (next) => {
        const byId = s.catalog.current().byId;
        return { ...next, favorites: [...new Set(next.favorites)].filter((id) => byId.has(id)) };
      },
    }),
    ...stateRoutes({
      path: '/api/v1/settings/radio',
      tag: 'settings',
      what:
        'radio settings (rig model: the Icoms over CI-V, the FT-817/818/857/897 natively, any other through Hamlib; serial device, baud, CI-V address, ' +
        'Hamlib model or rigctld address; uplink_rig, a second radio that transmits while the main one receives (null: one radio); timings, guard). ' +
        'Setting uplink_rig from null takes the whole object; later bodies may be partial. A connected rig follows a changed link at once',
      store: s.stores.radio,
      refine: (next) => checkHamlibModels(checkRadioSettings(next), () => s.radio.listRigModels()),
    }),
    ...stateRoutes({
      path: '/api/v1/settings/rotator',
      tag: 'settings',
      what:
        'rotator settings (protocol, serial device or rotctld address, limits and end stop, flip, deadband, lead, update interval, ' +
        'preposition, park, following the radio session); a connected controller reopens when its own fields change',
      store: s.stores.rotator,
      refine: (next) => checkRotatorSettings(next),
      // The lite rotator line shows whether the rotator is enabled (issue 32).
      clearsLiteCache: true,
    }),
    ...stateRoutes({
      path: '/api/v1/settings/hamlib',
      tag: 'settings',
      what:
        'Hamlib network servers: rigctld (rig, TCP 4532) and rotctld (rotator, TCP 4533), both off by default, bound to bind_host (127.0.0.1 keeps them on this machine: ' +
        'Hamlib has no authentication), and allow_ptt for PTT from a client; changes take effect without a restart',
      store: s.stores.hamlib,
      refine: (next) => checkHamlibSettings(next, s.stores.rotator.get()),
    }),
    ...stateRoutes({
      path: '/api/v1/settings/aprs',
      tag: 'settings',
      what: 'APRS settings (callsign, mode, transport, PTT, paths, comments, log, digipeater, iGate); a connected transport restarts when its own fields change',
      store: s.stores.aprs,
    }),
    route({
      method: 'GET',
      path: '/api/v1/settings/lite',
      tag: 'settings',
      summary: 'Lite settings and the satellites a client may track',
      response: v.object({ state: LiteSettingsSchema, availableSatellites: AvailableSchema }),
      handler: () => s.liteSettings.view(),
    }),
    route({
      method: 'POST',
      path: '/api/v1/settings/lite',
      tag: 'settings',
      summary:
        'Change lite settings. More than 8 tracked ids is a 400; unknown ids and repeats are dropped; ' +
        'with nothing valid left the ISS is tracked.',
      body: v.partial(LiteSettingsSchema),
      response: v.object({ state: LiteSettingsSchema, dropped: v.array(v.string()), fell_back_to_iss: v.boolean() }),
      clearsLiteCache: true,
      handler: ({ body }) => s.liteSettings.update(body),
    }),
  ];
}
