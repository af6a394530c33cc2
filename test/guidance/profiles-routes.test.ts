import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { spawnServer, type SpawnedServer } from '../helpers/spawn-server.js';
import { correctDownlinkHz } from '../../src/guidance/doppler.js';

// The profile routes of issue 27 through the real server: the list with sources and the data's
// attribution, operator profiles added, validated field by field, winning over the data,
// surviving a restart and kill -9, and deleted back to the data's profile.

const NOW = '2026-08-22T12:00:00Z';
const root = join(import.meta.dirname, '..', '..');

/** A receive-only operator profile for a satellite (a 437.5 MHz FM-D beacon). */
const beacon = (sat_id: string, downlink_hz = 437_500_000) => ({
  sat_id,
  mode: 'fm',
  columns: [{ uplink_hz: null, downlink_hz, label: 'beacon' }],
  uplink_step_hz: 0,
  downlink_step_hz: 1000,
  downlink_mode: 'FM-D',
  note: 'operator test',
});

describe('frequency-guide profiles through the server', () => {
  let s: TestServer;
  let dataDir: string;
  before(async () => {
    dataDir = tmpDataDir();
    s = await startServer({ now: NOW, dataDir });
  });
  after(() => s?.stop());

  it('lists every profile with its source and date, and the transmitter data\'s attribution', async () => {
    const r = await s.get('/api/v1/frequency-guides/profiles');
    assert.equal(r.status, 200);
    assert.ok(r.body.items.length >= 85, `${r.body.items.length} profiles`);
    const sources = new Set(r.body.items.map((p: { source: string }) => p.source));
    assert.ok(sources.has('transmitters'));
    assert.ok(r.body.items.every((p: { date: string }) => /^\d{4}-\d\d-\d\dT/.test(p.date)));
    const ro = r.body.items.find((p: { receive_only: boolean }) => p.receive_only);
    assert.ok(ro, 'receive-only profiles are listed');
    assert.equal(ro.profile.columns[0].uplink_hz, null);
    assert.match(r.body.attribution.licence, /CC BY-SA 4\.0/);
    assert.match(r.body.attribution.publisher, /SatNOGS/);
    const docs = await s.get('/docs');
    assert.match(JSON.stringify(docs.body), /CC BY-SA 4\.0/, '/docs carries the attribution');
  });

  it('a receive-only satellite gets a downlink-only recommendation: no uplink, its mode, eligible', async () => {
    const items = (await s.get('/api/v1/frequency-guides/profiles')).body.items;
    const ro = items.find((p: { receive_only: boolean }) => p.receive_only);
    const r = await s.get(`/api/v1/frequency-guides/recommendation?sat_id=${ro.sat_id}&min_max_el=0`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rec = r.body.recommendation;
    assert.equal(rec.uplink_mhz, null);
    assert.equal(rec.correction_side, 'downlink_only');
    assert.equal(rec.receive_only, true);
    assert.equal(rec.downlink_mode, ro.profile.downlink_mode);
    const expected = correctDownlinkHz(ro.profile.columns[0].downlink_hz, r.body.track.range_rate_km_s);
    assert.ok(Math.abs(rec.downlink_mhz * 1e6 - expected) <= ro.profile.downlink_step_hz / 2 + 1000, 'Doppler-corrected downlink');
  });

  it('bad operator profiles are 400s naming each field; an unknown satellite is a 404', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...beacon('iss'), mode: 'digital' }, 'mode'],
      [{ ...beacon('iss'), columns: [] }, 'columns'],
      [{ ...beacon('iss'), columns: [{ uplink_hz: null, downlink_hz: -5, label: 'x' }] }, 'columns'],
      [{ ...beacon('iss'), downlink_step_hz: 'big' }, 'downlink_step_hz'],
      [{ ...beacon('iss'), ctcss_hz: 5 }, 'ctcss_hz'],
      [{ ...beacon('iss'), inverting: 'yes' }, 'inverting'],
      [{ ...beacon('iss'), mode: 'linear', columns: [{ uplink_hz: 435_000_000, downlink_hz: 145_900_000, label: 'c' }], default_column_index: 3, inverting: true, uplink_mode: 'LSB', downlink_mode: 'USB' }, 'default_column_index'],
    ];
    for (const [body, field] of cases) {
      const r = await s.post('/api/v1/frequency-guides/profiles', body);
      assert.equal(r.status, 400, `${field}: ${JSON.stringify(r.body)}`);
      assert.ok(JSON.stringify(r.body.error.details).includes(field), `${JSON.stringify(r.body.error.details)} names ${field}`);
    }
    const unknown = await s.post('/api/v1/frequency-guides/profiles', beacon('no-such-sat'));
    assert.equal(unknown.status, 404);
  });

  it('an operator profile wins over the data, drives the recommendation, and delete returns the data\'s profile', async () => {
    const before = (await s.get('/api/v1/frequency-guides/profiles')).body.items.find((p: { sat_id: string }) => p.sat_id === 'iss');
    assert.ok(before && before.source !== 'operator');
    const put = await s.post('/api/v1/frequency-guides/profiles', beacon('iss', 437_800_000));
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.profile.source, 'operator');
    assert.equal(put.body.profile.receive_only, true);
    const rec = (await s.get('/api/v1/frequency-guides/recommendation?sat_id=iss&min_max_el=0')).body.recommendation;
    assert.equal(rec.uplink_mhz, null);
    assert.ok(Math.abs(rec.downlink_mhz - 437.8) < 0.02);
    const del = await s.post('/api/v1/frequency-guides/profiles/delete', { sat_id: 'iss' });
    assert.equal(del.status, 200);
    assert.equal(del.body.profile.source, before.source);
    assert.deepEqual(del.body.profile.profile.columns, before.profile.columns);
    assert.equal((await s.post('/api/v1/frequency-guides/profiles/delete', { sat_id: 'iss' })).status, 404);
  });

  it('operator profiles persist atomically and survive a restart', async () => {
    assert.equal((await s.post('/api/v1/frequency-guides/profiles', beacon('iss', 437_810_000))).status, 200);
    await s.stop({ keepData: true });
    s = await startServer({ now: NOW, dataDir });
    const item = (await s.get('/api/v1/frequency-guides/profiles')).body.items.find((p: { sat_id: string }) => p.sat_id === 'iss');
    assert.equal(item.source, 'operator');
    assert.equal(item.profile.columns[0].downlink_hz, 437_810_000);
    const file = JSON.parse(readFileSync(join(dataDir, 'guidance-profiles.json'), 'utf8'));
    assert.equal(file.profiles.length, 1);
  });
});

describe('operator profiles under kill -9', () => {
  let srv: SpawnedServer | null = null;
  // A failed check must not leave its server running: the test file would never end.
  after(() => {
    if (srv && srv.child.exitCode === null && srv.child.signalCode === null) process.kill(-srv.child.pid!, 'SIGKILL');
  });

  it('a killed server comes back with the last answered profile, and the file always parses', { timeout: 120_000 }, async () => {
    const dataDir = tmpDataDir();
    const env = { PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    // One connection, one request at a time: the server sees the writes in the order they are
    // numbered, so the last answered is the newest on file, and the one sent after it is the only
    // write in flight when the kill comes. (Over concurrent connections a lower number can arrive
    // after a higher one was answered and replace it: last writer wins, which says nothing here.)
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (base: string, body: unknown) =>
      new Promise<number>((resolve) => {
        const req = request(`${base}/api/v1/frequency-guides/profiles`, { method: 'POST', agent, headers: { 'content-type': 'application/json' } }, (res) => {
          res.resume();
          // A body cut by the kill ends in 'close' without 'end': not an answer.
          res.on('close', () => resolve(res.complete ? (res.statusCode ?? 0) : 0));
        });
        req.on('error', () => resolve(0));
        req.end(JSON.stringify(body));
      });
    let answered = 0;
    for (let round = 0; round < 3; round++) {
      srv = await spawnServer(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: root, env });
      const base = srv.base;
      if (answered) {
        const items = (await (await fetch(`${base}/api/v1/frequency-guides/profiles`)).json()).items;
        const iss = items.find((p: { sat_id: string }) => p.sat_id === 'iss');
        assert.equal(iss.source, 'operator');
        // The last answered write is on file, or the one in flight after it landed before the kill.
        const onFile = (iss.profile.columns[0].downlink_hz - 437_000_000) / 1000;
        assert.ok(onFile === answered || onFile === answered + 1, `round ${round}: write ${onFile} on file, ${answered} answered last`);
      }
      // Writes queued on the one connection when the kill comes.
      const posts: Promise<void>[] = [];
      for (let i = 0; i < 20; i++) {
        const n = answered + i + 1;
        posts.push(post(base, beacon('iss', 437_000_000 + n * 1000)).then((status) => {
          if (status === 200) answered = n;
        }));
      }
      await posts[0];
      await new Promise((r) => setTimeout(r, 5));
      const child = srv.child;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGKILL');
      await Promise.all(posts);
      await exited;
      agent.destroy(); // the killed server's socket
      JSON.parse(readFileSync(join(dataDir, 'guidance-profiles.json'), 'utf8'));
    }
    assert.ok(answered > 0);
  });
});
