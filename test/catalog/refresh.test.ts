import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { SIX_DIGIT, newerCatalog, newerTleText, ommText } from './fixtures/catalog-data.js';
import { body, endless, slow, startSourceServer, status, withEtag, type SourceServer } from './fixtures/source-server.js';

const T0 = Date.parse('2026-08-22T12:00:00Z');
const HOUR = 3_600_000;

async function station(src: SourceServer, paths: string[], o: { dataDir?: string; clock?: FixedClock } = {}): Promise<TestServer> {
  const s = await startServer({ config: { catalogSources: paths.map((p) => src.base + p) }, dataDir: o.dataDir, clock: o.clock ?? new FixedClock(T0) });
  // The catalog's sources only: no AMSAT status, no SatNOGS transmitters (each an https fetch).
  await s.app.services.stores.catalogSources.update({ status_url: '', transmitters_source: '', fetch_timeout_ms: 400, max_bytes: 1024 * 1024 });
  return s;
}

describe('catalog refresh from sources', () => {
  let src: SourceServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/amateur.json', body(ommText([...newerCatalog(0.5), SIX_DIGIT])));
    src.set('/stations.tle', body(newerTleText(), 'text/plain'));
    src.set('/slow', slow);
    src.set('/500', status(500, {}, 'oops'));
    src.set('/html', body('<!DOCTYPE html><html><body>Please log in</body></html>', 'text/html'));
    const full = ommText(newerCatalog(1));
    src.set('/truncated', body(full.slice(0, Math.floor(full.length * 0.6))));
    src.set('/huge', endless);
    src.set('/huge-declared', (_q, res) => {
      res.writeHead(200, { 'content-length': String(50 * 1024 * 1024) });
      res.end();
    });
    src.set('/redirect', status(302, { location: '/amateur.json' }));
    src.set('/redirect-html', status(301, { location: '/html' }));
  });
  after(() => src.close());

  it('TLE text and OMM JSON merge by NORAD id: newest epoch wins, ids stay, snapshot recorded, persisted', async () => {
    const s = await station(src, ['/amateur.json', '/stations.tle']);
    try {
      const before = s.app.services.catalog.current();
      const so50Before = before.byNorad.get(27607)!;
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.status, 200);
      assert.equal(r.body.ok, true, JSON.stringify(r.body.meta));
      assert.equal(r.body.ephemeris.ok, true);
      assert.deepEqual(r.body.meta.reports.map((x: { status: string }) => x.status), ['fetched', 'fetched']);
      assert.equal(r.body.meta.sources.length, 2);
      assert.match(r.body.meta.sources[1], /stations\.tle: fetched, 2 objects/);
      const cat = s.app.services.catalog.current();
      assert.notEqual(cat.version, before.version);
      assert.equal(r.body.meta.count, cat.satellites.length);
      assert.equal(cat.satellites.length, before.satellites.length + 1);
      // Both sources carry SO-50; whichever epoch is newest is in use, never an older one.
      const so50 = cat.byNorad.get(27607)!;
      assert.ok(so50.epoch_ms > so50Before.epoch_ms);
      assert.equal(so50.sat_id, 'so-50');
      assert.equal(cat.byNorad.get(25544)!.sat_id, 'iss');
      const six = cat.byNorad.get(100234)!;
      assert.equal(six.sat_id, 'xo-129');
      assert.equal(six.elements.EPOCH, '2026-08-22T01:02:03.456789');
      assert.equal(r.body.snapshot.satellite_count, cat.satellites.length);
      assert.ok(existsSync(join(s.dataDir, 'catalog', 'catalog.json')));
      const list = await s.get('/api/v1/snapshots');
      assert.equal(list.body.count, 1);
      assert.equal(list.body.items[0].catalog_version, cat.version);
      // The refreshed catalog is what the next boot uses.
      await s.stop({ keepData: true });
      const again = await station(src, ['/amateur.json'], { dataDir: s.dataDir });
      try {
        const c2 = again.app.services.catalog.current();
        assert.equal(c2.version, cat.version);
        assert.equal(c2.origin, 'refreshed');
        assert.equal(c2.byNorad.get(100234)!.sat_id, 'xo-129');
      } finally {
        await again.stop();
      }
    } finally {
      rmSync(s.dataDir, { recursive: true, force: true });
    }
  });

  it('the newest epoch wins both ways: an older source never replaces what we hold', async () => {
    const older = newerCatalog(-3);
    src.set('/older.json', body(ommText(older)));
    const s = await station(src, ['/older.json']);
    try {
      const before = s.app.services.catalog.current();
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.ok, true);
      assert.equal(r.body.meta.replaced, false);
      assert.equal(s.app.services.catalog.current().version, before.version);
    } finally {
      await s.stop();
    }
  });

  it('sat ids stay stable when a later refresh renames an object', async () => {
    const clock = new FixedClock(T0);
    src.set('/six.json', body(ommText([SIX_DIGIT])));
    const s = await station(src, ['/six.json', '/amateur.json'], { clock });
    try {
      await s.post('/api/v1/datasets/refresh');
      assert.equal(s.app.services.catalog.current().byNorad.get(100234)!.sat_id, 'xo-129');
      src.set('/six.json', body(ommText([{ ...SIX_DIGIT, OBJECT_NAME: 'RENAMED SAT', EPOCH: '2026-08-22T09:00:00.000000' }])));
      clock.advance(2 * HOUR + 1000);
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.meta.reports[0].status, 'fetched');
      const sat = s.app.services.catalog.current().byNorad.get(100234)!;
      assert.equal(sat.name, 'RENAMED SAT');
      assert.equal(sat.sat_id, 'xo-129');
    } finally {
      await s.stop();
    }
  });

  it('2-hour politeness: a second refresh answers from held records without contacting the source', async () => {
    const clock = new FixedClock(T0);
    src.set('/polite.json', body(ommText(newerCatalog(0.25))));
    const s = await station(src, ['/polite.json'], { clock });
    try {
      assert.equal((await s.post('/api/v1/datasets/refresh')).body.meta.reports[0].status, 'fetched');
      const hits = src.hits.get('/polite.json');
      clock.advance(HOUR);
      const r = await s.get('/api/v1/satellites?refresh_from_sources=true');
      assert.equal(r.body.refreshed, false);
      assert.equal(r.body.ephemerisRefreshed, false);
      assert.equal(r.body.refreshError, null);
      assert.equal(src.hits.get('/polite.json'), hits);
      const d = await s.post('/api/v1/datasets/refresh');
      assert.equal(d.body.meta.reports[0].status, 'held');
      assert.match(d.body.meta.reports[0].message, /2-hour politeness window/);
      assert.equal(src.hits.get('/polite.json'), hits);
      clock.advance(HOUR + 1000);
      const later = await s.get('/api/v1/satellites?refresh_from_sources=true');
      assert.equal(later.body.refreshed, true);
      assert.equal(src.hits.get('/polite.json'), hits! + 1);
    } finally {
      await s.stop();
    }
  });

  for (const [path, why] of [
    ['/slow', /timed out/],
    ['/500', /HTTP 500/],
    ['/html', /HTML/],
    ['/truncated', /not valid JSON/],
    ['/huge', /size cap/],
    ['/huge-declared', /too large/],
    ['/redirect-html', /HTML.*redirected/],
    ['/missing', /HTTP 404/],
  ] as const) {
    it(`a failing source (${path}) leaves the catalog untouched with a clear refreshError`, async () => {
      const s = await station(src, [path]);
      try {
        const before = s.app.services.catalog.current();
        const r = await s.get('/api/v1/satellites?refresh_from_sources=true');
        assert.equal(r.status, 200);
        assert.equal(r.body.refreshed, false);
        assert.equal(r.body.ephemerisRefreshed, false);
        assert.match(r.body.refreshError, why);
        assert.equal(r.body.count, before.satellites.length);
        assert.equal(s.app.services.catalog.current(), before);
        const d = await s.post('/api/v1/datasets/refresh');
        assert.equal(d.body.ok, false);
        assert.equal(d.body.meta.reports[0].status, 'failed');
        assert.equal(s.app.services.catalog.current().version, before.version);
      } finally {
        await s.stop();
      }
    });
  }

  it('partial success: the good source is merged, the failure reported per source', async () => {
    const s = await station(src, ['/500', '/stations.tle']);
    try {
      const before = s.app.services.catalog.current();
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.ok, false);
      assert.deepEqual(r.body.meta.reports.map((x: { status: string }) => x.status), ['failed', 'fetched']);
      assert.match(r.body.meta.error, /1 of 2 sources failed: .*\/500: HTTP 500/);
      const cat = s.app.services.catalog.current();
      assert.notEqual(cat.version, before.version);
      // The failing source had nothing held: every object we had stays.
      assert.equal(cat.satellites.length, before.satellites.length);
      assert.ok(cat.byNorad.get(25544)!.epoch_ms > before.byNorad.get(25544)!.epoch_ms);
    } finally {
      await s.stop();
    }
  });

  it('redirects are followed to the data', async () => {
    const s = await station(src, ['/redirect']);
    try {
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.ok, true);
      assert.equal(r.body.meta.reports[0].status, 'fetched');
      assert.ok(s.app.services.catalog.current().byNorad.has(100234));
    } finally {
      await s.stop();
    }
  });

  it('a source that suddenly drops most objects is treated as broken', async () => {
    const clock = new FixedClock(T0);
    src.set('/shrinking.json', body(ommText(newerCatalog(0.5))));
    const s = await station(src, ['/shrinking.json'], { clock });
    try {
      assert.equal((await s.post('/api/v1/datasets/refresh')).body.ok, true);
      const version = s.app.services.catalog.current().version;
      src.set('/shrinking.json', body(ommText(newerCatalog(0.7).slice(0, 10))));
      clock.advance(3 * HOUR);
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.ok, false);
      assert.match(r.body.meta.error, /returned 10 objects where the last good fetch had 105: treated as broken/);
      assert.equal(s.app.services.catalog.current().version, version);
    } finally {
      await s.stop();
    }
  });

  it('ETag: a 304 after the window keeps the held records and counts as a fetch', async () => {
    const clock = new FixedClock(T0);
    src.set('/etag.json', withEtag(ommText(newerCatalog(0.5)), '"v1"'));
    const s = await station(src, ['/etag.json'], { clock });
    try {
      await s.post('/api/v1/datasets/refresh');
      const version = s.app.services.catalog.current().version;
      clock.advance(2 * HOUR + 1);
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.meta.reports[0].status, 'not-modified');
      assert.equal(r.body.meta.refreshed, true);
      assert.equal(s.app.services.catalog.current().version, version);
    } finally {
      await s.stop();
    }
  });

  it('Cache-Control max-age beyond 2 hours is honoured', async () => {
    const clock = new FixedClock(T0);
    src.set('/maxage.json', body(ommText(newerCatalog(0.5)), 'application/json', { 'cache-control': 'public, max-age=14400' }));
    const s = await station(src, ['/maxage.json'], { clock });
    try {
      await s.post('/api/v1/datasets/refresh');
      clock.advance(3 * HOUR);
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.meta.reports[0].status, 'held');
      assert.match(r.body.meta.reports[0].message, /max-age/);
      assert.equal(src.hits.get('/maxage.json'), 1);
    } finally {
      await s.stop();
    }
  });

  it('429 with Retry-After backs off: no contact until it has passed', async () => {
    const clock = new FixedClock(T0);
    src.set('/busy', status(429, { 'retry-after': '7200' }, 'slow down'));
    const s = await station(src, ['/busy'], { clock });
    try {
      const r = await s.post('/api/v1/datasets/refresh');
      assert.match(r.body.meta.error, /HTTP 429.*next attempt after 2026-08-22T14:00:00.000Z/);
      clock.advance(HOUR);
      const again = await s.post('/api/v1/datasets/refresh');
      assert.equal(again.body.meta.reports[0].status, 'held');
      assert.match(again.body.meta.reports[0].message, /backing off after HTTP 429/);
      assert.equal(src.hits.get('/busy'), 1);
      clock.advance(HOUR + 1);
      await s.post('/api/v1/datasets/refresh');
      assert.equal(src.hits.get('/busy'), 2);
    } finally {
      await s.stop();
    }
  });

  it('the offline switch skips the refresh without contacting any source', async () => {
    src.set('/offline-check.json', body(ommText(newerCatalog(0.5))));
    const s = await station(src, ['/offline-check.json']);
    try {
      await s.app.services.stores.network.update({ offline: true });
      const r = await s.get('/api/v1/satellites?refresh_from_sources=true');
      assert.equal(r.body.refreshed, false);
      assert.match(r.body.refreshError, /offline/);
      assert.equal(src.hits.get('/offline-check.json') ?? 0, 0);
    } finally {
      await s.stop();
    }
  });

  it('file paths are accepted as sources and detected by content', async () => {
    const dir = tmpDataDir('satstation-src-');
    const file = join(dir, 'catalog.txt'); // TLE text despite any name
    writeFileSync(file, newerTleText());
    const s = await startServer({ config: { catalogSources: [file] } });
    try {
      await s.app.services.stores.catalogSources.update({ status_url: '' });
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.ok, true);
      assert.match(r.body.meta.sources[0], /fetched 2 objects \(tle/);
      // The catalog is what the sources say: this source names two objects.
      assert.equal(JSON.parse(readFileSync(join(s.dataDir, 'catalog', 'catalog.json'), 'utf8')).elements.length, 2);
      assert.equal(s.app.services.catalog.current().byId.get('so-50')!.norad_id, 27607);
    } finally {
      await s.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
