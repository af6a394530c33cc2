import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { CLOSE, LIMITS, TOPICS } from '../../src/events/protocol.js';

// /docs describes the live-events socket beside the OpenAPI document: in the JSON (x-events) and on
// the page, from the protocol's own constants.

describe('live events on /docs', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(async () => {
    await s?.stop();
  });

  it('the OpenAPI document carries x-events: every topic with what its data is, the frames, the gate and the limits', async () => {
    const doc = (await s.get('/docs?format=json')).body;
    const x = doc['x-events'];
    assert.equal(x.path, '/api/v1/events');
    assert.equal(x.version, 1);
    assert.deepEqual(Object.keys(x.topics), [...TOPICS]);
    assert.equal(x.topics.radio, 'the body of GET /api/v1/radio/state');
    assert.match(x.topics['aprs.packets'], /\/api\/v1\/aprs\/log/);
    assert.match(x.topics.passes, /generated_at, count/);
    assert.deepEqual(x.client_frames.map((f: { type: string }) => f.type), ['subscribe', 'unsubscribe', 'ping']);
    assert.match(x.limits.sockets, new RegExp(`^${LIMITS.maxSockets}; .*${CLOSE.tryAgainLater}`));
    assert.match(x.limits.client_frame_bytes, new RegExp(`^${LIMITS.maxFrameBytes}; .*${CLOSE.tooBig}`));
    assert.match(x.limits.slow_client, /1008.*256 KiB.*10 s.*30 s/);
    assert.match(x.gate, /Origin.*Host.*403.*operator lock/);
    assert.ok(doc.paths['/api/v1/events'].get, 'the socket\'s path is listed among the routes');
  });

  it('the page shows the protocol after the routes, every topic in its table', async () => {
    const r = await s.get('/docs', { accept: 'text/html' });
    const html = String(r.body);
    const at = html.indexOf('id="events"');
    assert.ok(at > 0, 'a live-events section');
    assert.ok(at > html.lastIndexOf('<details>'), 'after the route list');
    for (const t of TOPICS) assert.ok(html.includes(`<td><code>${t}</code></td>`), t);
    assert.ok(html.slice(at).includes('{&quot;id&quot;:1,&quot;type&quot;:&quot;subscribe&quot;'));
  });
});
