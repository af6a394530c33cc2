import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SNAPSHOT_RETENTION } from '../../src/catalog/snapshots.js';
import { FixedClock } from '../../src/util/clock.js';
import { Scheduler } from '../../src/util/scheduler.js';
import { startServer, tmpDataDir } from '../helpers/server.js';
import { SUMMARY } from './fixtures/amsat.js';
import { newerCatalog, ommText } from './fixtures/catalog-data.js';
import { body, startSourceServer, type SourceServer } from './fixtures/source-server.js';

const T0 = Date.parse('2026-08-22T12:00:00Z');
const HOUR = 3_600_000;

describe('operational status, lite cache, snapshots, schedules', () => {
  let src: SourceServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/status.json', body(SUMMARY));
    src.set('/amateur.json', body(ommText(newerCatalog(0.5))));
  });
  after(() => src.close());

  it('status enrichment fills operational_status; the 12-hour guard survives a restart', async () => {
    const dataDir = tmpDataDir();
    const clock = new FixedClock(T0);
    const boot = async () => {
      const s = await startServer({ dataDir, clock, config: { catalogSources: [src.base + '/amateur.json'] } });
      await s.app.services.stores.catalogSources.update({ status_url: src.base + '/status.json' });
      return s;
    };
    let s = await boot();
    try {
      const before = await s.get('/api/v1/satellites');
      assert.deepEqual(before.body.items.find((x: { sat_id: string }) => x.sat_id === 'ao-91').operational_status, { source: '', summary: '', matched_name: '' });
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.body.status.refreshed, true);
      assert.equal(r.body.status.matched, 6);
      const items = (await s.get('/api/v1/satellites')).body.items as { sat_id: string; operational_status: { matched_name: string; source: string } }[];
      const ao91 = items.find((x) => x.sat_id === 'ao-91')!;
      assert.equal(ao91.operational_status.matched_name, 'AO-91_[FM]');
      assert.equal(ao91.operational_status.source, 'AMSAT');
      assert.deepEqual(items.find((x) => x.sat_id === 'ao-7')!.operational_status, { source: '', summary: '', matched_name: '' });
      assert.equal(src.hits.get('/status.json'), 1);

      await s.stop({ keepData: true });
      clock.advance(3 * HOUR);
      s = await boot();
      // Statuses come back from disk; a refresh inside 12 h is a no-op that says so.
      const after = (await s.get('/api/v1/satellites')).body.items.find((x: { sat_id: string }) => x.sat_id === 'ao-91');
      assert.equal(after.operational_status.matched_name, 'AO-91_[FM]');
      const again = await s.post('/api/v1/datasets/refresh');
      assert.equal(again.body.status.refreshed, false);
      assert.match(again.body.status.message, /12-hour guard/);
      assert.equal(src.hits.get('/status.json'), 1);

      clock.advance(9 * HOUR + 1);
      const late = await s.post('/api/v1/datasets/refresh');
      assert.equal(late.body.status.refreshed, true);
      assert.equal(src.hits.get('/status.json'), 2);
    } finally {
      await s.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the refresh routes clear the lite cache; recording a snapshot does not', async () => {
    const s = await startServer({ config: { catalogSources: [src.base + '/amateur.json'] } });
    try {
      await s.app.services.stores.catalogSources.update({ status_url: '' });
      let cleared = 0;
      const original = s.app.services.invalidateLite;
      s.app.services.invalidateLite = () => {
        cleared++;
        original();
      };
      await s.get('/api/v1/satellites');
      assert.equal(cleared, 0);
      await s.get('/api/v1/satellites?refresh_from_sources=true');
      assert.equal(cleared, 1);
      await s.post('/api/v1/datasets/refresh');
      assert.equal(cleared, 2);
      await s.post('/api/v1/snapshots/record', {});
      assert.equal(cleared, 2);
    } finally {
      await s.stop();
    }
  });

  it(`snapshots: record, list newest first, keep at most ${SNAPSHOT_RETENTION}`, async () => {
    const clock = new FixedClock(T0);
    const s = await startServer({ clock });
    try {
      const first = await s.post('/api/v1/snapshots/record', { source: 'before-field-day' });
      assert.equal(first.status, 200);
      assert.deepEqual(Object.keys(first.body.snapshot).sort(), ['created_at', 'id', 'satellite_count', 'source']);
      assert.equal(first.body.snapshot.source, 'before-field-day');
      assert.equal(first.body.snapshot.created_at, '2026-08-22T12:00:00.000Z');
      assert.equal(first.body.snapshot.satellite_count, s.app.services.catalog.current().satellites.length);
      assert.equal(first.body.total, 1);
      for (let i = 0; i < SNAPSHOT_RETENTION + 2; i++) {
        clock.advance(60_000);
        await s.post('/api/v1/snapshots/record');
      }
      const list = await s.get('/api/v1/snapshots');
      assert.equal(list.body.count, SNAPSHOT_RETENTION);
      assert.equal(list.body.items[0].created_at, new Date(clock.now()).toISOString());
      assert.ok(!list.body.items.some((x: { id: string }) => x.id === first.body.snapshot.id));
      const files = readdirSync(join(s.dataDir, 'snapshots')).filter((f) => f !== 'index.json');
      assert.equal(files.length, SNAPSHOT_RETENTION);
      assert.ok(!existsSync(join(s.dataDir, 'snapshots', `${first.body.snapshot.id}.json`)));
      const bad = await s.post('/api/v1/snapshots/record', { source: '' });
      assert.equal(bad.status, 400);
    } finally {
      await s.stop();
    }
  });

  it('catalog sources are a settings resource; bad URLs and cron expressions are refused', async () => {
    const s = await startServer();
    try {
      const r = await s.get('/api/v1/datasets/sources');
      assert.match(r.body.state.sources[0], /celestrak\.org.*GROUP=amateur&FORMAT=json/);
      assert.equal((await s.post('/api/v1/datasets/sources', { sources: ['ftp://example.org/x'] })).status, 400);
      assert.equal((await s.post('/api/v1/datasets/sources', { refresh_cron: 'every day' })).status, 400);
      const ok = await s.post('/api/v1/datasets/sources', { refresh_cron: '5 2 * * *' });
      assert.equal(ok.status, 200);
      const jobs = (await s.get('/api/v1/datasets')).body.jobs as { name: string; cron: string }[];
      assert.equal(jobs.find((j) => j.name === 'catalog-refresh')!.cron, '5 2 * * *');
      assert.deepEqual(jobs.map((j) => j.name).filter((n) => ['catalog-refresh', 'status-refresh', 'log-pruning'].includes(n)).sort(), ['catalog-refresh', 'log-pruning', 'status-refresh']);
    } finally {
      await s.stop();
    }
  });
});

describe('Scheduler', () => {
  it('guards against overlap, logs failures without throwing, runs again next time', async () => {
    const sch = new Scheduler(() => 0);
    let release!: () => void;
    let runs = 0;
    sch.add('slow', '0 0 1 1 *', () => {
      runs++;
      return new Promise<void>((r) => (release = r));
    });
    const first = sch.run('slow');
    assert.equal(await sch.run('slow'), false); // overlapping tick skipped
    release();
    assert.equal(await first, true);
    assert.equal(runs, 1);
    let fail = true;
    sch.add('flaky', '0 0 1 1 *', () => {
      if (fail) throw new Error('source down');
    });
    assert.equal(await sch.run('flaky'), false);
    assert.equal(sch.list().find((j) => j.name === 'flaky')!.last_error, 'source down');
    fail = false;
    assert.equal(await sch.run('flaky'), true);
    assert.throws(() => sch.add('bad', 'nonsense', () => {}), /invalid cron/);
    sch.start();
    await sch.stop();
  });

  it('prune hooks all run even when one fails', async () => {
    const sch = new Scheduler(() => 0);
    const ran: string[] = [];
    sch.onPrune('a', () => {
      throw new Error('x');
    });
    sch.onPrune('b', () => void ran.push('b'));
    await sch.prune();
    assert.deepEqual(ran, ['b']);
  });
});
