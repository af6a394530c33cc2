import * as v from 'valibot';
import type { Services } from '../../services.js';
import { NetworkSchema } from '../../station/network.js';
import { route, type RouteDef } from '../route.js';

const NetworkViewSchema = v.object({
  state: NetworkSchema,
  online: v.boolean(),
  interfaces: v.array(v.string()),
  reason: v.string(),
});

// /api/v1/network
export function networkRoutes(s: Services): RouteDef[] {
  const view = () => {
    const n = s.network.state();
    return { state: s.stores.network.get(), online: n.online, interfaces: n.interfaces, reason: n.reason };
  };
  return [
    route({
      method: 'GET',
      path: '/api/v1/network',
      tag: 'network',
      summary: 'Online state and the offline switch (dataset refresh, status enrichment and the iGate respect it)',
      response: NetworkViewSchema,
      handler: view,
    }),
    route({
      method: 'POST',
      path: '/api/v1/network',
      tag: 'network',
      summary: 'Set the offline switch: {offline: true} stops every outside connection',
      body: v.partial(NetworkSchema),
      response: NetworkViewSchema,
      clearsLiteCache: true,
      handler: async ({ body }) => {
        await s.stores.network.update(body);
        return view();
      },
    }),
  ];
}
