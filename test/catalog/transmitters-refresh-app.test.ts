import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import bundled from '../../src/guidance/data/satnogs-transmitters.json';
import { BUNDLED_TRANSMITTERS_DATE } from '../../src/guidance/transmitters/bundled.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { body, startSourceServer, status, type SourceServer } from './fixtures/source-server.js';

// The transmitters refresh as the station runs it (issue 27): POST /datasets/refresh asks for it,
// GET /datasets shows it, the weekly job is scheduled, and a restart applies the persisted dump.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const STRAND_1 = 39090;
const BEACON = {
  uuid: 't27-strand-1-beacon',
  description: 'CW telemetry beacon',
  alive: true,
  type: 'Transmitter',
  uplink_low: null,
  downlink_low: 437_568_000,
  mode: 'CW',
  invert: false,
  baud: null,
  norad_cat_id: STRAND_1,
  status: 'active',
  service: 'Amateur',
};

const strand = async (s: TestServer) => ((await s.get('/api/v1/frequency-guides/profiles')).body.items as { norad_id: number; source: string; date: string; receive_only: boolean }[]).find((p) => p.norad_id === STRAND_1);

describe('transmitters refresh in the station', () => {
  let src: SourceServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/good.json', body(JSON.stringify([...(bundled as unknown[]), BEACON])));
    src.set('/catalog.json', status(500, {}, 'no catalog today'));
    src.set('/500', status(500, {}, 'oops'));
  });
  after(() => src.close());

  async function station(dataDir?: string): Promise<TestServer> {
    const s = await startServer({ dataDir, clock: new FixedClock(T0), config: { catalogSources: [src.base + '/catalog.json'] } });
    await s.app.services.stores.catalogSources.update({ status_url: '', fetch_timeout_ms: 400 });
    return s;
  }

  it('POST /datasets/refresh rebuilds the profiles from the source, GET /datasets shows it, a restart applies the persisted dump', async () => {
    const s = await station();
    const dataDir = s.dataDir;
    try {
      const state0 = (await s.get('/api/v1/datasets')).body;
      assert.equal(state0.transmitters.origin, 'bundled');
      assert.equal(state0.transmitters.date, BUNDLED_TRANSMITTERS_DATE);
      assert.ok(state0.jobs.some((j: { name: string }) => j.name === 'transmitters-refresh'), JSON.stringify(state0.jobs));

      await s.post('/api/v1/datasets/sources', { transmitters_source: src.base + '/500' });
      const failed = await s.post('/api/v1/datasets/refresh');
      assert.equal(failed.status, 200);
      assert.equal(failed.body.transmitters.refreshed, false);
      assert.match(failed.body.transmitters.error, /HTTP 500/);
      assert.equal(await strand(s), undefined);
      assert.match((await s.get('/api/v1/datasets')).body.transmitters.last_error, /HTTP 500/);

      await s.post('/api/v1/datasets/sources', { transmitters_source: src.base + '/good.json' });
      const r = await s.post('/api/v1/datasets/refresh');
      assert.equal(r.status, 200);
      assert.equal(r.body.ok, false, 'the catalog source failed: the catalog part says so');
      assert.equal(r.body.transmitters.refreshed, true, r.body.transmitters.message);
      assert.equal(r.body.transmitters.error, null);
      assert.equal(r.body.transmitters.date, new Date(T0).toISOString());
      assert.ok(r.body.transmitters.receive_only > 0);
      assert.deepEqual(r.body.transmitters.kept, []);
      const p = (await strand(s))!;
      assert.equal(p.source, 'transmitters');
      assert.equal(p.receive_only, true);
      const state = (await s.get('/api/v1/datasets')).body.transmitters;
      assert.equal(state.origin, 'refreshed');
      assert.equal(state.last_error, null);
      assert.equal(state.profiles, r.body.transmitters.profiles);
    } finally {
      await s.stop({ keepData: true });
    }
    const again = await station(dataDir);
    try {
      // Applied at start without holding up the first answer: wait for it.
      let p = await strand(again);
      for (let i = 0; i < 100 && !p; i++) {
        await new Promise((r) => setTimeout(r, 20));
        p = await strand(again);
      }
      assert.ok(p, 'the persisted dump is applied after a restart');
      assert.equal(p.date, new Date(T0).toISOString());
      assert.equal((await again.get('/api/v1/datasets')).body.transmitters.origin, 'persisted');
    } finally {
      await again.stop();
    }
  });
});
