import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { FixedClock } from '../../src/util/clock.js';
import { startFakeCloudlog, type FakeCloudlog } from './fake-cloudlog.js';

// The Cloudlog push queue through the real server and a Cloudlog stand-in on 127.0.0.1: nothing
// while the push is off, an outage kept pending with its error and retried after the logger's
// Retry-After, a refusal marked failed and not retried (until the settings change), and a
// restart that resumes what was pending, each QSO reaching the logger exactly once.

const KEY = 'cl5f3a9e1b2c';
const STATION = '2';
const NOW = '2026-08-22T12:00:00Z';

async function until(cond: () => Promise<boolean> | boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.fail(`timed out waiting for ${what}`);
}

describe('logbook push to Cloudlog', () => {
  let fake: FakeCloudlog;
  let s: TestServer;
  let clock: FixedClock;
  const dataDir = tmpDataDir();
  const items = async () => (await s.get('/api/v1/logbook')).body.items as Array<{ id: string; call: string; push_state: string; push_error: string | null }>;
  const byCall = async (call: string) => (await items()).find((q) => q.call === call)!;
  const queue = async () => (await s.app.services.logbook.engine()).queue;
  const logQso = async (call: string, minute: number) => {
    const r = await s.post('/api/v1/logbook/qso', { call, sat_id: 'iss', time_on: `2026-08-22T11:${String(minute).padStart(2, '0')}:00Z` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.qso;
  };

  before(async () => {
    fake = await startFakeCloudlog({ key: KEY, stationProfileId: STATION });
    clock = new FixedClock(Date.parse(NOW));
    s = await startServer({ clock, dataDir });
    assert.equal((await s.post('/api/v1/aprs/session/identity', { callsign: 'DL1ABC', ssid: 0 })).status, 200);
  });
  after(async () => {
    await s.stop();
    await fake.close();
  });

  it('does nothing while the push is off: the QSO waits pending, no request, no timer', async () => {
    assert.equal(s.app.services.logbook.loaded, false, 'not loaded at boot');
    await logQso('W1AW', 1);
    assert.equal(s.app.services.logbook.loaded, true, 'loaded on first use');
    assert.equal(s.app.services.radio.loaded, false, 'reading the rig for a QSO loads no radio control');
    assert.equal(s.app.services.aprs.loaded, false, 'reading the APRS callsign loads no APRS station');
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fake.requests.length, 0);
    assert.equal((await queue()).timerArmed, false);
    assert.equal((await byCall('W1AW')).push_state, 'pending');
    // Pending in the record, but nothing waits for a logger: counted as not pushed (issue 33).
    const status = (await s.get('/api/v1/logbook/status')).body;
    assert.deepEqual([status.push_enabled, status.pending, status.not_pushed], [false, 0, 1]);
    assert.equal((await s.get('/api/v1/logbook')).body.push_enabled, false);
  });

  it('turning the push on sends what waits; an outage keeps QSOs pending with the error until Retry-After', async () => {
    fake.mode = 'outage';
    const set = await s.post('/api/v1/settings/logbook', { cloudlog_enabled: true, cloudlog_url: fake.base, cloudlog_api_key: KEY, cloudlog_station_profile_id: STATION });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await until(async () => (await byCall('W1AW')).push_error !== null, 'the outage recorded');
    await logQso('K1ABC', 2);
    await logQso('VE3XYZ', 3);
    const w = await byCall('W1AW');
    assert.equal(w.push_state, 'pending');
    assert.match(w.push_error!, /HTTP 500/);
    const q = await queue();
    assert.equal(q.timerArmed, true, 'a retry is armed');
    const status = (await s.get('/api/v1/logbook/status')).body;
    assert.deepEqual([status.push_enabled, status.pending, status.not_pushed], [true, 3, 0]);
    assert.equal(Date.parse(status.queue.retry_at) - clock.now(), 30_000, "the fake's Retry-After: 30 is honoured");
    // New QSOs do not cut the backoff short: still one request.
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fake.requests.length, 1);

    clock.advance(29_000);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fake.requests.length, 1, 'not before Retry-After');
    clock.advance(1_000);
    await until(async () => fake.requests.length === 2, 'the retry');
    await q.idle();
    // Still out: the wait grows (capped exponential, at least Retry-After).
    assert.equal(fake.requests.length, 2);
    fake.mode = 'ok';
    clock.advance(60_000);
    await until(async () => (await items()).every((x) => x.push_state === 'pushed'), 'all pushed');
    assert.deepEqual(fake.logged.map((r) => r.CALL).sort(), ['K1ABC', 'VE3XYZ', 'W1AW']);
    assert.ok((await items()).every((x) => x.push_error === null));
    assert.equal(fake.logged[0].STATION_CALLSIGN, 'DL1ABC');
    assert.equal(fake.logged[0].SAT_NAME, 'ARISS');
    assert.equal((await queue()).timerArmed, false, 'idle: no timer');
  });

  it('a new QSO goes out at once while the logger is up', async () => {
    const q = await logQso('JA1XYZ', 4);
    await until(async () => (await byCall('JA1XYZ')).push_state === 'pushed', 'pushed');
    assert.equal(fake.logged.filter((r) => r.CALL === 'JA1XYZ').length, 1);
    assert.equal((await queue()).timerArmed, false);
    assert.ok(q.id);
  });

  it('a refused key fails the QSO and pauses the queue (the others stay pending, no retry); a new key sends them all', async () => {
    fake.mode = 'outage';
    await logQso('G4ABC', 5);
    await until(async () => (await byCall('G4ABC')).push_error !== null, 'outage seen');
    await logQso('G4XYZ', 6);
    fake.mode = 'ok';
    const n0 = fake.requests.length;
    assert.equal((await s.post('/api/v1/settings/logbook', { cloudlog_api_key: 'wrongkey' })).status, 200);
    await until(async () => (await byCall('G4ABC')).push_state === 'failed', 'failed');
    await (await queue()).idle();
    assert.match((await byCall('G4ABC')).push_error!, /401/);
    assert.equal((await byCall('G4XYZ')).push_state, 'pending', 'not sent to a logger that refuses the key');
    assert.equal(fake.requests.length, n0 + 1);
    clock.advance(3_600_000);
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(fake.requests.length, n0 + 1, 'not retried');
    assert.equal((await queue()).timerArmed, false);
    assert.equal((await s.post('/api/v1/settings/logbook', { cloudlog_api_key: KEY })).status, 200);
    await until(async () => (await items()).every((x) => x.push_state === 'pushed'), 'pushed with the right key');
    assert.equal(fake.logged.filter((r) => r.CALL === 'G4ABC').length, 1);
    assert.equal(fake.logged.filter((r) => r.CALL === 'G4XYZ').length, 1);
  });

  it('a restart resumes the pushes a stopped server left pending', async () => {
    fake.mode = 'outage';
    await logQso('ZL1ABC', 7);
    await until(async () => (await byCall('ZL1ABC')).push_error !== null, 'outage seen');
    await s.stop({ keepData: true });
    fake.mode = 'ok';
    s = await startServer({ clock, dataDir });
    // Nobody asks for the logbook: the push being on is enough to load it and resume.
    await until(() => fake.logged.some((r) => r.CALL === 'ZL1ABC'), 'resumed after restart');
    await until(async () => (await byCall('ZL1ABC')).push_state === 'pushed', 'marked pushed');
    const calls = fake.logged.map((r) => r.CALL);
    assert.equal(new Set(calls).size, calls.length, 'each QSO once at the logger');
    assert.equal(calls.length, 7);
  });
});
