import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// The routes of the Hamlib servers, the frequency profiles, the transmitters source, the logbook (issues 26–28) and the
// recordings (issue 37) with
// bodies of the wrong JSON type and nested junk, over HTTP to the real server (listed from the
// live /docs, so a new route there is swept too): a JSON 4xx or a harmless 200, never a 500, and
// nothing stored that the next read would not validate.

const HOSTILE: string[] = [
  '[]',
  'null',
  '"a string"',
  '42',
  '1e999',
  '{"call":{"x":1},"sat_id":[]}',
  '{"call":"W1AW","their_grid":7,"comment":{"a":1}}',
  '{"call":"W1AW","time_on":"yesterday"}',
  '{"id":[],"sat_id":{"x":"y"}}',
  '{"sat_id":"iss","mode":"fm","columns":[{"uplink_hz":"x","downlink_hz":null,"label":7}]}',
  '{"sat_id":"iss","mode":"linear","columns":[],"uplink_step_hz":1e999}',
  '{"rigctld_port":"4532","bind_host":["0.0.0.0"],"allow_ptt":"yes"}',
  '{"cloudlog_url":"javascript:alert(1)","cloudlog_enabled":1}',
  '{"transmitters_source":["https://x"],"transmitters_cron":"* * * * * *"}',
  '{"transmitters_source":"relative/path.json","transmitters_cron":7}',
  '{"keep_mb":null,"source":{"x":1},"sample_rate":"16000","alsa_device":["default"]}',
  '{"min_elevation_deg":{"deg":5},"pre_roll_s":-1,"enabled":"true"}',
  '{"id":["20261129T101500Z-iss"],"sat_id":null}',
  '{"id":"../../etc/passwd","sat_id":"iss"}',
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
  JSON.stringify({ deep: JSON.parse('['.repeat(2000) + ']'.repeat(2000)) }),
  JSON.stringify({ call: 'W1AW', comment: 'x'.repeat(100_000) }),
];

const AREAS = ['/api/v1/logbook', '/api/v1/frequency-guides', '/api/v1/settings/hamlib', '/api/v1/settings/logbook', '/api/v1/datasets/sources', '/api/v1/recordings', '/api/v1/settings/recording'];

describe('Hamlib, profile, logbook and recording routes with hostile bodies', () => {
  let s: TestServer;
  let paths: string[];
  before(async () => {
    s = await startServer();
    const docs = await s.get('/docs', { accept: 'application/json' });
    paths = Object.entries(docs.body.paths as Record<string, Record<string, unknown>>)
      .filter(([p, ops]) => AREAS.some((a) => p.startsWith(a)) && 'post' in ops)
      .map(([p]) => p);
  });
  after(() => s?.stop());

  it('lists the new POST routes', () => {
    for (const p of [
      '/api/v1/logbook/qso', '/api/v1/logbook/qso/delete', '/api/v1/frequency-guides/profiles', '/api/v1/frequency-guides/profiles/delete', '/api/v1/settings/hamlib', '/api/v1/settings/logbook', '/api/v1/datasets/sources',
      '/api/v1/recordings/start', '/api/v1/recordings/stop', '/api/v1/recordings/delete', '/api/v1/settings/recording',
    ])
      assert.ok(paths.includes(p), `${p} in /docs`);
  });

  it('answers every hostile body with a JSON 4xx or a harmless 200, never 500, and stores nothing invalid', async () => {
    const before = {
      hamlib: (await s.get('/api/v1/settings/hamlib')).body,
      logbook: (await s.get('/api/v1/settings/logbook')).body,
      sources: (await s.get('/api/v1/datasets/sources')).body,
      recording: (await s.get('/api/v1/settings/recording')).body,
    };
    const bad: string[] = [];
    for (const p of paths) {
      for (const body of HOSTILE) {
        const r = await s.post(p, body);
        const short = body.length > 60 ? body.slice(0, 60) + '…' : body;
        if (r.status >= 500) bad.push(`${p} ${short} → ${r.status} ${JSON.stringify(r.body)}`);
        else if (r.status >= 400 && typeof r.body?.error?.code !== 'string') bad.push(`${p} ${short} → ${r.status} without a JSON error`);
      }
    }
    assert.deepEqual(bad, []);
    assert.equal((await s.get('/health')).status, 200, 'the service keeps serving');
    assert.equal(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
    assert.deepEqual((await s.get('/api/v1/settings/hamlib')).body, before.hamlib, 'no junk stored in the Hamlib settings');
    assert.deepEqual((await s.get('/api/v1/settings/logbook')).body, before.logbook, 'no junk stored in the logbook settings');
    assert.deepEqual((await s.get('/api/v1/datasets/sources')).body, before.sources, 'no junk stored in the sources');
    assert.deepEqual((await s.get('/api/v1/logbook')).body.items, [], 'no QSO logged from junk');
    assert.deepEqual((await s.get('/api/v1/settings/recording')).body, before.recording, 'no junk stored in the recording settings');
    assert.deepEqual((await s.get('/api/v1/recordings')).body.items, [], 'no recording started from junk');
    assert.ok((await s.get('/api/v1/frequency-guides/profiles')).body.items.every((p: { source: string }) => p.source !== 'operator'), 'no operator profile from junk');
  });
});
