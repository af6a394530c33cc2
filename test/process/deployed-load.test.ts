// The robustness issue's loads, run against the bundle under the unit's node flags (96 MiB heap):
// a hostile source, the whole 16k active catalog, /passes and /live over it. Each must answer,
// the server must keep answering /health meanwhile, and peak RSS must stay under MemoryMax.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { activeTlePath } from '../../bench/data.js';
import { body, startSourceServer, type SourceServer } from '../catalog/fixtures/source-server.js';
import { tinyObjects } from '../catalog/fixtures/hostile.js';
import { spawnDeployed, type DeployedServer } from '../helpers/deployed.js';

const MEMORY_MAX_MIB = 192; // deploy/satstation.service

describe('the deployed server under load (unit flags, 96 MiB heap)', { timeout: 180_000 }, () => {
  let src: SourceServer;
  let srv: DeployedServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/tiny-objects', body(tinyObjects(15 * 1024 * 1024)));
    src.set('/active.tle', body(readFileSync(activeTlePath(), 'utf8'), 'text/plain'));
    srv = await spawnDeployed();
  });
  after(async () => {
    await srv?.stop('SIGKILL');
    await src?.close();
  });

  const post = async (path: string, payload: unknown) => {
    const r = await fetch(srv.base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) });
    return { status: r.status, body: await r.json() };
  };
  /** Runs `work` while polling /health; returns its result and how many health answers came back. */
  const whileServing = async <T>(work: Promise<T>): Promise<{ result: T; healthy: number }> => {
    let done = false;
    let healthy = 0;
    const watch = (async () => {
      while (!done) {
        if ((await fetch(srv.base + '/health')).ok) healthy++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    const result = await work.finally(() => (done = true));
    await watch;
    return { result, healthy };
  };

  it('a 15 MiB source of tiny objects is refused, the server answers throughout', async () => {
    assert.equal((await post('/api/v1/datasets/sources', { sources: [src.base + '/tiny-objects'], status_url: '' })).status, 200);
    const { result, healthy } = await whileServing(post('/api/v1/datasets/refresh', {}));
    assert.equal(result.status, 200);
    assert.equal(result.body.meta.reports[0].status, 'failed');
    assert.ok(healthy >= 1);
    assert.ok(srv.peakRssMiB() < MEMORY_MAX_MIB, `peak RSS ${srv.peakRssMiB().toFixed(0)} MiB`);
  });

  it('the whole 16k active catalog: refresh, /passes over 48 h for every satellite, /live of every satellite', async () => {
    assert.equal((await post('/api/v1/datasets/sources', { sources: [src.base + '/active.tle'] })).status, 200);
    const refreshed = await whileServing(post('/api/v1/datasets/refresh', {}));
    assert.equal(refreshed.result.body.meta.reports[0].status, 'fetched', JSON.stringify(refreshed.result.body.meta.reports));
    assert.ok(refreshed.result.body.meta.count > 15_000);

    const passes = await whileServing(fetch(srv.base + '/api/v1/passes?hours=48&include_all_sats=true').then(async (r) => ({ status: r.status, body: await r.json() })));
    assert.equal(passes.result.status, 200);
    const p = passes.result.body;
    assert.equal(p.count, p.items.length);
    assert.equal(p.count, 1000, 'default limit');
    assert.equal(p.truncated, true);
    assert.ok(p.total > 100_000, `total ${p.total}`);
    assert.ok(passes.healthy >= 1, 'the server answered /health while the table was computed');
    assert.match(srv.output.join(''), /pass table: \d+ passes for 1\d{4} satellites .*\(searched on a worker thread\)/, 'the bundle ran the search on its worker (dist/pass-search.mjs)');

    const live = await whileServing(fetch(srv.base + '/api/v1/live').then(async (r) => ({ status: r.status, body: await r.json() })));
    assert.equal(live.result.status, 200);
    assert.ok(live.result.body.count > 15_000);
    assert.ok(srv.peakRssMiB() < MEMORY_MAX_MIB, `peak RSS ${srv.peakRssMiB().toFixed(0)} MiB`);
    assert.equal((await fetch(srv.base + '/health')).status, 200);
    console.log(`# 16k: ${p.total} passes in 48 h (${p.count} sent), ${live.result.body.count} live samples; peak RSS ${srv.peakRssMiB().toFixed(0)} MiB of ${MEMORY_MAX_MIB}`);
  });
});
