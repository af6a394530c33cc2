import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { WsClient, portOf } from '../helpers/ws-client.js';
import type { FixedClock } from '../../src/util/clock.js';
import type { Config } from '../../src/config.js';

// What the live-events tests share: the real server on a fixed clock for a describe block (its
// pass table ready), and a socket subscribed to some topics.

export interface EventsEnv {
  s: TestServer;
  clock: FixedClock;
}

/** Starts the server before the block's tests and stops it after them. */
export function eventsServer(o: { config?: Partial<Config> } = {}): EventsEnv {
  const env = {} as EventsEnv;
  before(async () => {
    env.s = await startServer(o);
    env.clock = env.s.clock as FixedClock;
    await env.s.app.services.orbit.table.ready();
  });
  after(async () => {
    await env.s?.stop();
  });
  return env;
}

/** A socket past its hello, subscribed to `topics` (the result checked). */
export async function subscribed(server: { base: string }, topics: string[], min_period_ms?: number): Promise<WsClient> {
  const c = await WsClient.connect(portOf(server));
  await c.next();
  const r = await c.request({ id: 1, type: 'subscribe', topics, ...(min_period_ms ? { min_period_ms } : {}) });
  assert.equal(r.ok, true, JSON.stringify(r));
  return c;
}
