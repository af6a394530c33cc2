import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { adifPushString } from '../../src/logbook/adif.js';
import { classifyAnswer, cloudlogQsoUrl, pushToCloudlog, type PushTarget } from '../../src/logbook/cloudlog-client.js';
import { startFakeCloudlog, type FakeCloudlog } from './fake-cloudlog.js';
import { satQso } from './fixtures.js';

const KEY = 'cl5f3a9e0d1b2c4';
const STATION = '2';

describe('Cloudlog push driver against a Cloudlog stand-in on 127.0.0.1', () => {
  let fake: FakeCloudlog;
  let target: PushTarget;
  before(async () => {
    fake = await startFakeCloudlog({ key: KEY, stationProfileId: STATION });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.logged.length = 0;
    fake.requests.length = 0;
    fake.mode = 'ok';
    fake.flavour = 'cloudlog';
    target = { url: fake.base, apiKey: KEY, stationProfileId: STATION };
  });
  const push = (q = satQso(), t: PushTarget = target, timeoutMs = 2000) => pushToCloudlog(t, adifPushString(q), { timeoutMs });

  it('posts {key, station_profile_id, type, string} as JSON and reports pushed', async () => {
    const r = await push();
    assert.deepEqual(r, { kind: 'pushed', duplicate: false, status: 201 });
    assert.equal(fake.requests[0].contentType, 'application/json');
    assert.deepEqual(Object.keys(fake.requests[0].body as object).sort(), ['key', 'station_profile_id', 'string', 'type']);
    assert.equal(fake.logged.length, 1);
    assert.equal(fake.logged[0].SAT_NAME, 'SO-50');
    assert.equal(fake.logged[0].PROP_MODE, 'SAT');
  });

  it('counts a duplicate as delivered, so a retry after a lost answer logs it once', async () => {
    await push();
    const again = await push();
    assert.deepEqual(again, { kind: 'pushed', duplicate: true, status: 201 });
    assert.equal(fake.logged.length, 1);
    fake.flavour = 'wavelog';
    assert.deepEqual(await push(), { kind: 'pushed', duplicate: true, status: 400 });
    assert.equal(fake.logged.length, 1);
  });

  it('takes Wavelog’s created answer', async () => {
    fake.flavour = 'wavelog';
    assert.deepEqual(await push(), { kind: 'pushed', duplicate: false, status: 201 });
  });

  it('rejects for a wrong key or station profile with Cloudlog’s reason, without retrying', async () => {
    const badKey = await push(satQso(), { ...target, apiKey: 'wrong' });
    assert.equal(badKey.kind, 'rejected');
    assert.match((badKey as { message: string }).message, /401.*missing api key/);
    const badStation = await push(satQso(), { ...target, stationProfileId: '9' });
    assert.equal(badStation.kind, 'rejected');
    assert.match((badStation as { message: string }).message, /station id does not belong/);
    assert.equal(fake.logged.length, 0);
  });

  it('rejects a URL with no API behind it', async () => {
    const r = await push(satQso(), { ...target, url: fake.base + '/cloudlog' });
    assert.equal(r.kind, 'rejected');
    assert.match((r as { message: string }).message, /404/);
  });

  it('does not double /index.php when the base URL already has it', async () => {
    assert.equal((await push(satQso(), { ...target, url: fake.base + '/index.php/' })).kind, 'pushed');
    assert.equal(cloudlogQsoUrl('https://log.example.org/'), 'https://log.example.org/index.php/api/qso');
  });

  it('reports a 500 outage as transient, with Retry-After', async () => {
    fake.mode = 'outage';
    const r = await push();
    assert.equal(r.kind, 'failed');
    assert.equal((r as { retryAfterMs: number }).retryAfterMs, 30_000);
    assert.equal((r as { status: number }).status, 500);
    fake.mode = 'ok';
    assert.equal((await push()).kind, 'pushed', 'the same QSO goes through once the logger is back');
    assert.equal(fake.logged.length, 1);
  });

  it('gives up on a logger that never answers after the timeout, as transient', async () => {
    fake.mode = 'hang';
    const t0 = Date.now();
    const r = await push(satQso(), target, 300);
    const took = Date.now() - t0;
    assert.equal(r.kind, 'failed');
    assert.match((r as { message: string }).message, /timed out after 300 ms/);
    assert.ok(took >= 290 && took < 2000, `took ${took} ms`);
  });

  it('reports a refused connection as transient', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const r = await push(satQso(), { ...target, url: `http://127.0.0.1:${port}` });
    assert.equal(r.kind, 'failed');
    assert.match((r as { message: string }).message, /ECONNREFUSED/);
  });

  it('stops when told to, leaving the QSO for later', async () => {
    fake.mode = 'hang';
    const ctl = new AbortController();
    const p = pushToCloudlog(target, adifPushString(satQso()), { timeoutMs: 5000, signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    const r = await p;
    assert.deepEqual([r.kind, (r as { message: string }).message], ['failed', 'stopped']);
  });

  it('refuses a URL that is not http(s) without a request', async () => {
    const r = await push(satQso(), { ...target, url: 'ftp://log.example.org' });
    assert.equal(r.kind, 'rejected');
  });
});

describe('Cloudlog answers (pure)', () => {
  it('reads a Cloudlog import that added nothing for another reason as rejected, in plain text', () => {
    const r = classifyAnswer(201, JSON.stringify({ status: 'created', imported_count: 0, messages: ['Wrong station callsign <b>"DL1ABC"</b> while importing QSO with W1AW for <b>DL1XYZ</b> : SKIPPED<br>See the <a href="x">Cloudlog Wiki</a>'] }));
    assert.equal(r.kind, 'rejected');
    assert.equal((r as { message: string }).message, 'Wrong station callsign "DL1ABC" while importing QSO with W1AW for DL1XYZ : SKIPPED; See the Cloudlog Wiki');
  });

  it('reads an empty 200 (type not adif) and a JSON parse failure as rejected, a 503 as transient', () => {
    assert.equal(classifyAnswer(200, '').kind, 'rejected');
    assert.equal(classifyAnswer(200, JSON.stringify({ status: 'failed', reason: 'wrong JSON' })).kind, 'rejected');
    assert.equal(classifyAnswer(503, 'busy').kind, 'failed');
    assert.equal(classifyAnswer(429, '').kind, 'failed');
    assert.equal(classifyAnswer(301, '').kind, 'rejected');
  });
});
