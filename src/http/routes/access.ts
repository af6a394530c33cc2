import type { Services } from '../../services.js';
import { RawReply, route, type RouteDef } from '../route.js';
import { AccessChangeSchema, AccessStateSchema, LoginSchema } from '../../access/schemas.js';
import type { AccessOutcome } from '../../access/access-service.js';

// /api/v1/access/*: the operator lock (not in the spec: docs/decisions/access.md).
export function accessRoutes(s: Services): RouteDef[] {
  const a = s.access;
  /** The state as JSON, with the session cookie the change set or cleared. */
  const withCookie = (o: AccessOutcome) => new RawReply(JSON.stringify(o.state), undefined, 200, o.setCookie ? { 'Set-Cookie': o.setCookie } : {});
  const noCredentials = { bearer: null, cookie: null, ip: '' };
  return [
    route({
      method: 'GET',
      path: '/api/v1/access',
      tag: 'access',
      summary: 'Is the station locked (every POST but emergency stop and login needs the operator token), by what, and is this caller signed in',
      response: AccessStateSchema,
      credentials: true,
      handler: (ctx) => a.state(ctx.credentials ?? noCredentials),
    }),
    route({
      method: 'POST',
      path: '/api/v1/access',
      tag: 'access',
      summary: 'Lock with a new operator token (or change it), or unlock. While locked this needs the current token like every other POST; 409 when OPERATOR_TOKEN sets the lock',
      body: AccessChangeSchema,
      response: AccessStateSchema,
      handler: async (ctx) => withCookie(await a.change(ctx.body)),
    }),
    route({
      method: 'POST',
      path: '/api/v1/access/login',
      tag: 'access',
      summary: 'Sign this browser in: the operator token in, an HttpOnly session cookie out; wrong tokens are rate-limited per address (429)',
      body: LoginSchema,
      response: AccessStateSchema,
      open: true,
      handler: async (ctx) => withCookie(await a.login(ctx.body.token, ctx.credentials ?? noCredentials)),
    }),
    route({
      method: 'POST',
      path: '/api/v1/access/logout',
      tag: 'access',
      summary: 'Sign this browser out (clears the session cookie)',
      response: AccessStateSchema,
      open: true,
      handler: () => withCookie(a.logout()),
    }),
  ];
}
