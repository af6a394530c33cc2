// Item 1, 2 and 12 of the robustness issue: a source's path, bytes and schedule are untrusted.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KEPT_SKIPPED } from '../../src/catalog/parse.js';
import { MAX_CATALOG_RECORDS } from '../../src/catalog/types.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { tinyObjects } from './fixtures/hostile.js';
import { body, startSourceServer, type SourceServer } from './fixtures/source-server.js';

const MIB = 1024 * 1024;

describe('hostile catalog sources', () => {
  let src: SourceServer;
  let s: TestServer;
  let fifo: string;
  before(async () => {
    src = await startSourceServer();
    src.set('/tiny-objects', body(tinyObjects(15 * MIB)));
    src.set('/blank-lines', body('\n'.repeat(15 * MIB), 'text/plain'));
    src.set('/long-lines', body(('x'.repeat(70_000) + '\n').repeat(200), 'text/plain'));
    src.set('/nested', body('[' + '['.repeat(1_000_000)));
    fifo = join(tmpDataDir('satstation-fifo-'), 'catalog.fifo');
    execFileSync('mkfifo', [fifo]);
    s = await startServer();
    await s.app.services.stores.catalogSources.update({ status_url: '', fetch_timeout_ms: 5000 });
  });
  after(async () => {
    await s.stop();
    await src.close();
  });

  /** Saves the sources as a client would, then refreshes (outside the last one's 2-hour window). */
  const refreshFrom = async (sources: string[], server = s) => {
    if (server === s) assert.equal((await s.post('/api/v1/datasets/sources', { sources })).status, 200);
    (server.clock as FixedClock).advance(3 * 3_600_000);
    const r = await server.post('/api/v1/datasets/refresh', {});
    assert.equal(r.status, 200);
    return r.body.meta;
  };

  it('device, kernel and relative paths are refused as sources with a field message', async () => {
    for (const path of ['/dev/zero', '/dev/stdin', '/proc/self/mem', '/sys/kernel', '/run/x', 'catalog.tle', './x.json']) {
      const r = await s.post('/api/v1/datasets/sources', { sources: [path] });
      assert.equal(r.status, 400, path);
      assert.equal(r.body.error.code, 'validation_failed');
      assert.match(JSON.stringify(r.body.error.details), /absolute path|\/dev, \/proc/, path);
    }
    assert.equal((await s.post('/api/v1/datasets/sources', { sources: ['/var/lib/satstation/import/amateur.tle'] })).status, 200);
  });

  it('a character device or a named pipe given anyway (environment) is not read: refused at once, the server keeps serving', async () => {
    const env = await startServer({ config: { catalogSources: ['/dev/zero', fifo] } });
    try {
      const t0 = performance.now();
      const meta = await refreshFrom([], env);
      assert.ok(performance.now() - t0 < 3000, 'neither source may hang the refresh');
      assert.equal(meta.reports[0].status, 'failed');
      assert.match(meta.reports[0].message, /not a regular file/);
      assert.match(meta.reports[1].message, /not a regular file/);
      assert.equal((await env.get('/health')).body.ok, true);
    } finally {
      const t0 = performance.now();
      await env.stop();
      assert.ok(performance.now() - t0 < 3000, 'stop must not wait on a source');
    }
  });

  it('15 MiB of tiny JSON objects: stops at the record limit with a clear error, catalog unchanged', async () => {
    const version = s.app.services.catalog.current().version;
    const meta = await refreshFrom([src.base + '/tiny-objects']);
    assert.equal(meta.reports[0].status, 'failed');
    assert.match(meta.reports[0].message, new RegExp(`more than ${MAX_CATALOG_RECORDS} (unusable )?records`));
    assert.equal(meta.version, version);
    assert.equal((await s.get('/health')).body.ok, true);
  });

  it('15 MiB of blank lines, over-long lines and deep nesting are refused, not parsed whole', async () => {
    const meta = await refreshFrom([src.base + '/blank-lines', src.base + '/long-lines', src.base + '/nested']);
    assert.match(meta.reports[0].message, /neither OMM JSON nor TLE|content is empty/);
    assert.match(meta.reports[1].message, /neither OMM JSON nor TLE/);
    assert.match(meta.reports[2].message, /longer than 4096 bytes|truncated/);
  });

  it('the event loop keeps answering while a large source is parsed', async () => {
    const pending = refreshFrom([src.base + '/tiny-objects']);
    let answered = 0;
    let done = false;
    pending.then(() => (done = true));
    while (!done) {
      if ((await s.get('/health')).status === 200 && !done) answered++;
    }
    await pending;
    assert.ok(answered >= 2, `only ${answered} /health answers during the refresh: the parse is not sliced`);
  });

  it('schedules: six fields (seconds) and more than once an hour are refused; a daily one is kept', async () => {
    for (const refresh_cron of ['* * * * * *', '*/5 * * * *', '* 4 * * *', '0,30 * * * *', '61 4 * * *']) {
      const r = await s.post('/api/v1/datasets/sources', { refresh_cron });
      assert.equal(r.status, 400, refresh_cron);
      assert.match(JSON.stringify(r.body.error.details), /five fields|minute field/);
    }
    assert.equal((await s.post('/api/v1/datasets/sources', { status_cron: '* * * * *' })).status, 400);
    const ok = await s.post('/api/v1/datasets/sources', { refresh_cron: '17 4 * * *', status_cron: '43 */12 * * *' });
    assert.equal(ok.status, 200);
  });

  it('skipped records are counted, only a sample is kept', async () => {
    const { parseCatalogText } = await import('../../src/catalog/parse.js');
    const r = parseCatalogText(tinyObjects(64 * 1024));
    assert.ok(r.skippedCount > 7000);
    assert.equal(r.skipped.length, KEPT_SKIPPED);
  });
});
