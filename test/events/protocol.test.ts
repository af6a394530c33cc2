import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WsClient, portOf } from '../helpers/ws-client.js';
import { TOPIC_GET } from '../../src/http/event-topics.js';
import { eventsServer } from './fixture.js';

// The live-events socket (issue 35) over a real socket against the real server: the hello, the
// client frames and their replies, and each topic's first event, whose data is its GET's body.

const TOPICS = ['system', 'lite', 'live', 'radio', 'rotator', 'aprs', 'aprs.packets', 'logbook', 'passes', 'recording'];
/** The issue's table: which GET each state topic's data equals (issue 35's, and the recorder's runtime for issue 37's dot and level). */
const ISSUE_TABLE =
  'system /api/v1/system/state, lite /api/v1/lite/snapshot, live /api/v1/live, radio /api/v1/radio/state, rotator /api/v1/rotator/state, aprs /api/v1/aprs/state, logbook /api/v1/logbook, ' +
  'recording /api/v1/recordings/runtime';
const GET_OF: Record<string, string> = TOPIC_GET;

describe('live events: the protocol', () => {
  const env = eventsServer();
  let c: WsClient;
  before(async () => {
    c = await WsClient.connect(portOf(env.s));
  });
  after(() => c?.destroy());

  it('each state topic is built from the GET the issue names', () => {
    assert.equal(Object.entries(TOPIC_GET).map(([t, path]) => `${t} ${path}`).join(', '), ISSUE_TABLE);
  });

  it('says hello first: version 1, a boot id, the server time and every topic', async () => {
    const hello = await c.next();
    assert.equal(c.messages.indexOf(hello), 0);
    assert.deepEqual(Object.keys(hello).sort(), ['boot_id', 'server_time', 'topics', 'type', 'version']);
    assert.equal(hello.type, 'hello');
    assert.equal(hello.version, 1);
    assert.match(hello.boot_id, /^[0-9a-f-]{36}$/);
    assert.equal(hello.server_time, '2026-08-22T12:00:00.000Z');
    assert.deepEqual(hello.topics, TOPICS);
    const other = await WsClient.connect(portOf(env.s));
    assert.equal((await other.next()).boot_id, hello.boot_id, 'one boot id for the whole boot');
    other.destroy();
  });

  it('answers a ping with a pong of the same id, and a ping without id with id null', async () => {
    assert.deepEqual(await c.request({ id: 3, type: 'ping' }), { id: 3, type: 'pong' });
    assert.deepEqual(await c.request({ id: 'p', type: 'ping' }), { id: 'p', type: 'pong' });
    const at = c.messages.length;
    c.send({ type: 'ping' });
    assert.deepEqual(await c.next((m) => m.type === 'pong', 5000, at), { id: null, type: 'pong' });
  });

  it('bad JSON gets a bad_request result with id null, and the socket stays open', async () => {
    const at = c.messages.length;
    c.sendText('{"id":7,"type":"subscribe"');
    const r = await c.next((m) => m.type === 'result', 5000, at);
    assert.equal(r.id, null);
    assert.equal(r.ok, false);
    assert.equal(r.error.code, 'bad_request');
    assert.equal(typeof r.error.message, 'string');
    assert.deepEqual(await c.request({ id: 8, type: 'ping' }), { id: 8, type: 'pong' });
    assert.equal(c.closed, null);
  });

  it('refuses what is not a subscribe, unsubscribe or ping (no command travels over the socket)', async () => {
    for (const [id, frame] of [
      [10, { id: 10, type: 'frequency', vfo: 'A', freq_hz: 145_800_000 }],
      [11, { id: 11, type: 'subscribe', topics: 'radio' }],
      [12, { id: 12, type: 'subscribe', topics: [] }],
      [13, { id: 13, type: 'subscribe', topics: [42] }],
    ] as const) {
      const r = await c.request(frame as never);
      assert.deepEqual([r.id, r.ok, r.error.code], [id, false, 'bad_request'], JSON.stringify(frame));
    }
    for (const text of ['[1,2]', '42', 'null', '"ping"']) {
      const at = c.messages.length;
      c.sendText(text);
      const r = await c.next((m) => m.type === 'result', 5000, at);
      assert.deepEqual([r.id, r.error.code], [null, 'bad_request'], text);
    }
  });

  it('min_period_ms outside 100–60000 (or not an integer) is a bad_request, and nothing is subscribed', async () => {
    for (const [id, p] of [[20, 99], [21, 60_001], [22, 250.5], [23, '250'], [24, -1]] as const) {
      const r = await c.request({ id, type: 'subscribe', topics: ['radio'], min_period_ms: p });
      assert.deepEqual([r.id, r.ok, r.error.code], [id, false, 'bad_request'], String(p));
      assert.match(r.error.message, /100.*60000/);
    }
    for (const [id, p] of [[25, 100], [26, 60_000]] as const) {
      assert.deepEqual(await c.request({ id, type: 'subscribe', topics: ['rotator'], min_period_ms: p }), { id, type: 'result', ok: true });
    }
    assert.equal(c.events('radio').length, 0);
    assert.deepEqual(await c.request({ id: 27, type: 'unsubscribe', topics: ['rotator'] }), { id: 27, type: 'result', ok: true });
  });

  it('an unknown topic is unknown_topic, and the known ones of that frame are not subscribed', async () => {
    const r = await c.request({ id: 30, type: 'subscribe', topics: ['radio', 'weather'] });
    assert.deepEqual([r.id, r.ok, r.error.code], [30, false, 'unknown_topic']);
    assert.match(r.error.message, /weather/);
    const u = await c.request({ id: 31, type: 'unsubscribe', topics: ['weather'] });
    assert.equal(u.error.code, 'unknown_topic');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(c.events('radio').length, 0);
  });

  it('a subscribe answers ok, then each state topic\'s current data: the body of its GET; aprs.packets sends nothing yet', async () => {
    const sub = await WsClient.connect(portOf(env.s));
    await sub.next();
    const r = await sub.request({ id: 1, type: 'subscribe', topics: TOPICS });
    assert.deepEqual(r, { id: 1, type: 'result', ok: true });
    const resultAt = sub.messages.indexOf(r);
    for (const topic of Object.keys(GET_OF)) {
      const e = await sub.next((m) => m.type === 'event' && m.topic === topic);
      assert.ok(sub.messages.indexOf(e) > resultAt, `${topic} came after the result`);
      assert.deepEqual(Object.keys(e).sort(), ['data', 'seq', 'topic', 'ts', 'type']);
      assert.equal(e.seq, 1, topic);
      assert.equal(e.ts, '2026-08-22T12:00:00.000Z', topic);
      const get = await env.s.get(GET_OF[topic]);
      assert.equal(get.status, 200);
      assert.deepEqual(e.data, get.body, `${topic} equals GET ${GET_OF[topic]}`);
    }
    const passes = await sub.next((m) => m.type === 'event' && m.topic === 'passes');
    assert.deepEqual(Object.keys(passes.data).sort(), ['count', 'generated_at']);
    assert.equal(passes.data.count, env.s.app.services.orbit.table.current()!.size);
    assert.ok(passes.data.count > 0);
    assert.match(passes.data.generated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(sub.events('aprs.packets').length, 0, 'aprs.packets has no first event');
    sub.destroy();
  });

  it('seq rises per topic; unsubscribe stops a topic\'s events, the others go on', async () => {
    const sub = await WsClient.connect(portOf(env.s));
    await sub.next();
    await sub.request({ id: 1, type: 'subscribe', topics: ['radio', 'rotator'], min_period_ms: 100 });
    await sub.next((m) => m.topic === 'radio');
    await sub.next((m) => m.topic === 'rotator');
    const clock = env.clock;
    clock.advance(200);
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 700 })).status, 200);
    assert.equal((await env.s.post('/api/v1/settings/rotator', { park_az_deg: 10 })).status, 200);
    const radio2 = await sub.next((m) => m.topic === 'radio' && m.seq === 2);
    assert.equal(radio2.data.settings.poll_interval_ms, 700);
    assert.equal((await sub.next((m) => m.topic === 'rotator' && m.seq === 2)).data.settings.park_az_deg, 10);
    assert.deepEqual(await sub.request({ id: 2, type: 'unsubscribe', topics: ['radio'] }), { id: 2, type: 'result', ok: true });
    clock.advance(200);
    const at = sub.messages.length;
    assert.equal((await env.s.post('/api/v1/settings/radio', { poll_interval_ms: 800 })).status, 200);
    assert.equal((await env.s.post('/api/v1/settings/rotator', { park_az_deg: 20 })).status, 200);
    await sub.next((m) => m.topic === 'rotator' && m.seq === 3, 5000, at);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(sub.events('radio').length, 2, 'no radio event after unsubscribe');
    assert.equal(env.s.app.events.stats().watching.includes('radio'), false, 'nobody subscribes radio: its topic follows nothing');
    sub.destroy();
  });

  it('subscribing reads the radio topic from its resting answer: radio control stays unloaded', () => {
    assert.equal(env.s.app.services.radio.loaded, false);
    assert.equal(env.s.app.services.rotator.loaded, false);
    assert.equal(env.s.app.services.aprs.loaded, false);
    assert.equal(env.s.app.services.hamlib.loaded, false);
  });
});
