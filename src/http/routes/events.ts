import type { Services } from '../../services.js';
import { EVENTS_PATH, LIMITS, TOPICS } from '../../events/protocol.js';
import { AppError } from '../../util/errors.js';
import { route, type RouteDef } from '../route.js';

// /api/v1/events: the live-events WebSocket (issue 35). The socket itself is served by the HTTP
// server's upgrade (src/http/events-socket.ts); this route answers a GET that does not upgrade,
// and lists the socket on /docs, where the protocol is described beside the route list.

export function eventsRoutes(_s: Services): RouteDef[] {
  return [
    route({
      method: 'GET',
      path: EVENTS_PATH,
      tag: 'events',
      summary:
        `Live events over one WebSocket (send Upgrade: websocket; a plain GET is 426): topics ${TOPICS.join(', ')}; ` +
        `JSON text frames, hello first, then subscribe/unsubscribe/ping; at most ${LIMITS.maxSockets} sockets. The protocol is described below the route list`,
      handler: () => {
        throw new AppError(426, 'upgrade_required', `${EVENTS_PATH} is a WebSocket: open it with Upgrade: websocket (new WebSocket('ws://<station>${EVENTS_PATH}'))`, null, { Upgrade: 'websocket' });
      },
    }),
  ];
}
