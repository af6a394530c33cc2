import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { PERSISTED_DUMP_FILE, TransmittersRefresh } from '../../src/catalog/transmitters-refresh.js';
import { readPersistedDump } from '../../src/catalog/transmitters-dump.js';
import bundled from '../../src/guidance/data/satnogs-transmitters.json';
import { BUNDLED_TRANSMITTERS_DATE } from '../../src/guidance/transmitters/bundled.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { body, endless, slow, startSourceServer, status, withEtag, type SourceServer } from './fixtures/source-server.js';

// The transmitters refresh (issue 27) against a fault-injecting source on 127.0.0.1, feeding the
// real station's guidance: profiles are read back over HTTP.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const HOUR = 3_600_000;
type Rec = { norad_cat_id: number; uuid: string };
const records = bundled as Rec[];
/** STRAND-1 is in the catalog with no transmitter in the bundled data: a new beacon makes it a receive-only profile. */
const STRAND_1 = { sat_id: 'strand-1', norad: 39090 };
const BEACON = {
  uuid: 't27-strand-1-beacon',
  description: 'CW telemetry beacon',
  alive: true,
  type: 'Transmitter',
  uplink_low: null,
  uplink_high: null,
  downlink_low: 437_568_000,
  downlink_high: null,
  mode: 'CW',
  uplink_mode: null,
  invert: false,
  baud: null,
  norad_cat_id: STRAND_1.norad,
  status: 'active',
  service: 'Amateur',
  updated: '2026-08-20T10:00:00Z',
};
const GOOD = JSON.stringify([...records, BEACON]);
const LO_19 = 20442;

/** The full SatNOGS dump (2,910 records, every band) the bench uses. */
const fullDump = () => brotliDecompressSync(readFileSync(new URL('../../bench/data/satnogs-transmitters-active.json.br', import.meta.url))).toString('utf8');

interface Listed {
  sat_id: string;
  norad_id: number;
  source: string;
  date: string;
  receive_only: boolean;
  profile: { columns: { uplink_hz: number | null; downlink_hz: number }[]; downlink_mode: string };
}

async function profiles(s: TestServer): Promise<Listed[]> {
  const r = await s.get('/api/v1/frequency-guides/profiles');
  assert.equal(r.status, 200);
  return r.body.items;
}

/** A refresh driver on the station's guidance, its files in `dir`. */
function driver(s: TestServer, dir: string): TransmittersRefresh {
  mkdirSync(dir, { recursive: true });
  return new TransmittersRefresh({
    dir,
    clock: s.clock,
    settings: () => s.app.services.stores.catalogSources.get(),
    isOffline: () => s.app.services.network.isOffline(),
    inCatalog: (n) => s.app.services.catalog.current().byNorad.has(n),
    consumer: { apply: (r, date) => s.app.services.guidance.setTransmitters(r, date), bundledDate: BUNDLED_TRANSMITTERS_DATE },
  });
}

describe('transmitters refresh from a source', () => {
  let src: SourceServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/good.json', body(GOOD));
    src.set('/full.json', body(fullDump()));
    src.set('/without-lo19.json', body(JSON.stringify(records.filter((r) => r.norad_cat_id !== LO_19))));
    src.set('/etag.json', withEtag(GOOD, '"v1"'));
    src.set('/500', status(500, {}, 'oops'));
    src.set('/slow', slow);
    src.set('/huge', endless);
    src.set('/html', body('<!DOCTYPE html><html><body>Please log in</body></html>', 'text/html'));
    src.set('/empty', body('[]'));
    src.set('/object', body('{"detail":"Not found."}'));
    src.set('/junk-array', body(JSON.stringify([1, 'x', { uuid: 'a', downlink_low: 10_000_000_000, norad_cat_id: 1 }])));
    src.set('/truncated', body(GOOD.slice(0, Math.floor(GOOD.length / 2))));
    src.set('/429', status(429, { 'retry-after': '600' }));
  });
  after(() => src.close());

  async function station(dataDir?: string): Promise<TestServer> {
    const s = await startServer({ dataDir, clock: new FixedClock(T0) });
    await s.app.services.stores.catalogSources.update({ status_url: '', fetch_timeout_ms: 400 });
    return s;
  }
  const use = (s: TestServer, path: string) => s.app.services.stores.catalogSources.update({ transmitters_source: src.base + path });

  it('a good dump rebuilds the profiles (a new receive-only satellite appears), is persisted and dated by its fetch', async () => {
    const s = await station();
    try {
      assert.equal((await profiles(s)).find((p) => p.norad_id === STRAND_1.norad), undefined, 'no profile before');
      const t = driver(s, join(s.dataDir, 't27'));
      await use(s, '/good.json');
      const r = await t.refresh('test', { force: true });
      assert.equal(r.error, null, r.message);
      assert.equal(r.refreshed, true);
      assert.equal(r.date, new Date(T0).toISOString());
      assert.ok(r.profiles! > 80 && r.receive_only! > 0, r.message);
      const strand = (await profiles(s)).find((p) => p.norad_id === STRAND_1.norad)!;
      assert.ok(strand, 'STRAND-1 has a profile after the refresh');
      assert.equal(strand.source, 'transmitters');
      assert.equal(strand.date, new Date(T0).toISOString());
      assert.equal(strand.receive_only, true);
      assert.equal(strand.profile.columns[0].uplink_hz, null);
      assert.equal(strand.profile.columns[0].downlink_hz, 437_568_000);
      const dump = readPersistedDump(readFileSync(join(s.dataDir, 't27', PERSISTED_DUMP_FILE), 'utf8'))!;
      assert.equal(dump.total, records.length + 1);
      assert.equal(dump.source, src.base + '/good.json');
      const v = t.view();
      assert.equal(v.origin, 'refreshed');
      assert.equal(v.last_error, null);
      assert.equal(v.last_success, new Date(T0).toISOString());
      await t.stop();
    } finally {
      await s.stop();
    }
  });

  it('500, timeout, oversize, garbage, empty, a non-array, junk records, a truncated dump: nothing changes, last_error says why', async () => {
    const s = await station();
    try {
      const t = driver(s, join(s.dataDir, 't27'));
      const before = await profiles(s);
      const cases: [string, RegExp][] = [
        ['/500', /HTTP 500/],
        ['/slow', /timed out after 400 ms/],
        ['/huge', /exceeds the size cap of 8192 KiB/],
        ['/html', /not JSON.*<!DOCTYPE html>/],
        ['/empty', /empty array/],
        ['/object', /not a JSON array/],
        ['/junk-array', /3 records, none a transmitter in 144–148\/420–450 MHz/],
        ['/truncated', /not JSON/],
        ['/missing', /HTTP 404/],
      ];
      for (const [path, why] of cases) {
        await use(s, path);
        const r = await t.refresh('test', { force: true });
        assert.equal(r.refreshed, false, path);
        assert.match(r.error ?? '', why, path);
        assert.match(t.view().last_error ?? '', why, path);
        assert.equal(r.date, BUNDLED_TRANSMITTERS_DATE, `${path}: the bundled data is still in use`);
        assert.deepEqual(await profiles(s), before, `${path}: profiles unchanged`);
        assert.equal(existsSync(join(s.dataDir, 't27', PERSISTED_DUMP_FILE)), false, `${path}: nothing persisted`);
      }
      // A good dump after failures clears the error.
      await use(s, '/good.json');
      assert.equal((await t.refresh('test', { force: true })).refreshed, true);
      assert.equal(t.view().last_error, null);
      await t.stop();
    } finally {
      await s.stop();
    }
  });

  it('a dump missing a satellite keeps its working profile and says why', async () => {
    const s = await station();
    try {
      const t = driver(s, join(s.dataDir, 't27'));
      const lo19 = (await profiles(s)).find((p) => p.norad_id === LO_19)!;
      assert.equal(lo19.source, 'transmitters');
      await use(s, '/without-lo19.json');
      const r = await t.refresh('test', { force: true });
      assert.equal(r.refreshed, true, r.message);
      const kept = r.kept.find((k) => k.norad_id === LO_19);
      assert.ok(kept, JSON.stringify(r.kept));
      assert.match(kept.reason, /kept the previous profile/);
      assert.deepEqual((await profiles(s)).find((p) => p.norad_id === LO_19)!.profile, lo19.profile);
      await t.stop();
    } finally {
      await s.stop();
    }
  });

  it('the full dump is reduced to what guidance can use before it is persisted; a restart applies it', async () => {
    const s = await station();
    const dataDir = s.dataDir;
    const dir = join(dataDir, 't27');
    let applied: Listed[];
    try {
      const t = driver(s, dir);
      await use(s, '/full.json');
      const r = await t.refresh('test', { force: true });
      assert.equal(r.refreshed, true, r.message);
      const dump = readPersistedDump(readFileSync(join(dir, PERSISTED_DUMP_FILE), 'utf8'))!;
      assert.equal(dump.total, 2910);
      assert.ok(dump.records.length < 1000, `${dump.records.length} records kept of ${dump.total}`);
      assert.ok(readFileSync(join(dir, PERSISTED_DUMP_FILE)).length < 700 * 1024);
      applied = await profiles(s);
      await t.stop();
    } finally {
      await s.stop({ keepData: true });
    }
    // Restart: a new station starts from the bundled data; the persisted dump replaces it.
    const again = await station(dataDir);
    try {
      const t = driver(again, dir);
      assert.equal((await profiles(again)).filter((p) => p.source === 'transmitters' && p.date !== BUNDLED_TRANSMITTERS_DATE).length, 0);
      await t.loadPersisted();
      assert.deepEqual(await profiles(again), applied);
      assert.equal(t.view().origin, 'persisted');
      assert.equal(t.view().date, new Date(T0).toISOString());
      await t.stop();
    } finally {
      await again.stop();
    }
  });

  it('a persisted dump not newer than the bundled snapshot is not applied at boot; a damaged one is ignored', async () => {
    const s = await station();
    try {
      const dir = join(s.dataDir, 't27');
      mkdirSync(dir, { recursive: true });
      const before = await profiles(s);
      writeFileSync(join(dir, PERSISTED_DUMP_FILE), JSON.stringify({ source: 'x', date: '2026-08-01T00:00:00.000Z', total: 1, records: [BEACON] }));
      const t = driver(s, dir);
      await t.loadPersisted();
      assert.equal(t.view().origin, 'bundled');
      writeFileSync(join(dir, PERSISTED_DUMP_FILE), GOOD.slice(0, 100));
      await t.loadPersisted();
      assert.equal(t.view().origin, 'bundled');
      assert.deepEqual(await profiles(s), before);
      await t.stop();
    } finally {
      await s.stop();
    }
  });

  it('politeness: a daily guard unless asked, the offline switch, ETag 304, 429 backoff even when asked', async () => {
    const clock = new FixedClock(T0);
    const s = await startServer({ clock });
    try {
      await s.app.services.stores.catalogSources.update({ status_url: '' });
      const t = driver(s, join(s.dataDir, 't27'));
      await use(s, '/etag.json');
      assert.equal((await t.refresh('test')).refreshed, true);
      assert.equal(src.hits.get('/etag.json'), 1);
      clock.advance(HOUR);
      const guarded = await t.refresh('schedule');
      assert.equal(guarded.refreshed, false);
      assert.match(guarded.message, /not contacted again until 2026-08-23T12:00:00.000Z unless asked/);
      assert.equal(src.hits.get('/etag.json'), 1, 'the guard kept the source uncontacted');
      const notModified = await t.refresh('test', { force: true });
      assert.equal(src.hits.get('/etag.json'), 2);
      assert.equal(notModified.error, null);
      assert.match(notModified.message, /not modified \(HTTP 304\)/);
      assert.equal(notModified.date, new Date(T0).toISOString(), 'the data in use is still the first fetch');
      await s.app.services.stores.network.update({ offline: true });
      const offline = await t.refresh('test', { force: true });
      assert.match(offline.message, /offline switch is on/);
      assert.equal(src.hits.get('/etag.json'), 2);
      await s.app.services.stores.network.update({ offline: false });
      await use(s, '/429');
      const refused = await t.refresh('test', { force: true });
      assert.match(refused.error ?? '', /HTTP 429/);
      assert.equal(t.view().backoff_until, new Date(clock.now() + 600_000).toISOString());
      const waiting = await t.refresh('test', { force: true });
      assert.match(waiting.message, /backing off/);
      assert.equal(src.hits.get('/429'), 1);
      await s.app.services.stores.catalogSources.update({ transmitters_source: '' });
      assert.match((await t.refresh('test', { force: true })).message, /disabled/);
      await t.stop();
    } finally {
      await s.stop();
    }
  });

  it('settings: the source is a URL, an absolute path or "", the schedule at most hourly', async () => {
    const s = await station();
    try {
      const st = (await s.get('/api/v1/datasets/sources')).body.state;
      assert.equal(st.transmitters_source, 'https://db.satnogs.org/api/transmitters/?format=json&status=active');
      assert.equal(st.transmitters_cron, '29 5 * * 1');
      for (const bad of ['ftp://x/y.json', 'relative/path.json', '/proc/self/environ']) {
        const r = await s.post('/api/v1/datasets/sources', { transmitters_source: bad });
        assert.equal(r.status, 400, bad);
        assert.match(JSON.stringify(r.body.error), /transmitters_source/);
      }
      assert.equal((await s.post('/api/v1/datasets/sources', { transmitters_cron: '* * * * *' })).status, 400);
      for (const ok of ['', '/var/lib/satstation/import/transmitters.json', 'http://192.168.1.5/t.json']) {
        assert.equal((await s.post('/api/v1/datasets/sources', { transmitters_source: ok })).status, 200, ok);
      }
    } finally {
      await s.stop();
    }
  });
});

describe('transmitters persist under kill -9', () => {
  it('the dump file is always a whole dump: never half-written, stale temps removed', async () => {
    const { spawn } = await import('node:child_process');
    const dir = tmpDataDir('t27-kill-');
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    // Two large dumps, told apart by their totals: each write is ~500 KiB, long enough to be killed in.
    const full = JSON.parse(fullDump()) as unknown[];
    writeFileSync(a, JSON.stringify(full));
    writeFileSync(b, JSON.stringify(full.slice(1)));
    const state = join(dir, 'state');
    for (let round = 0; round < 4; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', new URL('./fixtures/transmitters-persist-loop.ts', import.meta.url).pathname, state, a, b], { stdio: ['ignore', 'pipe', 'inherit'] });
      let persisted = 0;
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (buf: Buffer) => {
          persisted += buf.toString().split('\n').filter((l) => l === 'persisted').length;
          // Kill at a different moment each round: mid-way through a later write.
          if (persisted >= 2 + round) setTimeout(() => child.kill('SIGKILL'), round * 3);
        });
        child.on('exit', () => resolve());
        child.on('error', reject);
      });
      const dump = readPersistedDump(readFileSync(join(state, PERSISTED_DUMP_FILE), 'utf8'));
      assert.ok(dump, `round ${round}: the persisted file is a whole dump`);
      assert.ok(dump.total === 2910 || dump.total === 2909, `round ${round}: ${dump.total}`);
    }
    // The next start removes what a kill left half-written beside it.
    writeFileSync(join(state, `${PERSISTED_DUMP_FILE}.tmp-999999-1`), '[{"half');
    const clock = new FixedClock(T0);
    new TransmittersRefresh({
      dir: state,
      clock,
      settings: () => {
        throw new Error('not used');
      },
      isOffline: () => true,
      inCatalog: () => false,
      consumer: { apply: () => assert.fail('not used'), bundledDate: BUNDLED_TRANSMITTERS_DATE },
    });
    assert.deepEqual(readdirSync(state).filter((n) => n.includes('.tmp-')), []);
  });
});
