import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { defaultUiDir } from '../../src/http/ui-pages.js';

// Issue 24: the boot to /health defers what no first request needs. The persisted pass table is
// read after listen (its /passes and the lite snapshot wait for it, as for a cold table), and the
// assets' gzip twins come from the build (a page's HTML is compressed on its first request). What the tests pin is the order
// and that the first answers are the same as from a server that had the table in memory.

const PASSES = '/api/v1/passes?hours=48&include_all_sats=true';

function rawGet(url: string, headers: Record<string, string>): Promise<{ enc: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ enc: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('boot: the persisted pass table loads after listen', () => {
  const dataDir = tmpDataDir();
  let first: { passes: unknown; snapshot: unknown };
  let s: TestServer;

  before(async () => {
    // A first run computes the table and persists it (ready() waits for the save).
    const s1 = await startServer({ dataDir });
    await s1.app.services.orbit.table.ready();
    const passes = await s1.get(PASSES);
    const snapshot = await s1.get('/api/v1/lite/snapshot');
    assert.equal(passes.status, 200);
    assert.equal(snapshot.status, 200);
    first = { passes: passes.body, snapshot: snapshot.body };
    await s1.stop();
    s = await startServer({ dataDir });
  });

  after(async () => {
    await s?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens before reading the table; /health answers, then /passes and the snapshot come from the file', async () => {
    const table = s.app.services.orbit.table;
    // Checked right after start() resolved, before any turn of the loop.
    assert.equal(table.stats.loadedFromDisk, false, 'the table file must not be read before the server listens');
    const health = await s.get('/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.ok, true);
    const passes = await s.get(PASSES);
    assert.equal(passes.status, 200);
    assert.equal(table.stats.loadedFromDisk, true, 'the persisted table was loaded');
    assert.equal(table.stats.computations, 0, 'and not recomputed');
    assert.deepEqual(passes.body, first.passes);
    const snapshot = await s.get('/api/v1/lite/snapshot');
    assert.equal(snapshot.status, 200);
    assert.deepEqual(snapshot.body, first.snapshot);
  });

  it('a page and its script are gzipped and decode to the files (the page once zlib is read, at the first quiet moment)', async () => {
    // zlib is read at the first quiet moment after an answer wanted it (src/util/lazy-builtins.ts):
    // until then a page goes out uncompressed; the build's twins of the assets need no zlib.
    const early = await rawGet(s.base + '/lite', { 'accept-encoding': 'gzip' });
    await new Promise((r) => setTimeout(r, 400));
    const html = await rawGet(s.base + '/lite', { 'accept-encoding': 'gzip' });
    assert.equal(html.enc, 'gzip');
    assert.equal(early.enc === 'gzip' ? gunzipSync(early.body).toString() : early.body.toString(), gunzipSync(html.body).toString());
    const page = gunzipSync(html.body).toString();
    const plain = await rawGet(s.base + '/lite', {});
    assert.equal(plain.enc, undefined);
    assert.equal(page, plain.body.toString());
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(page)![1];
    const gz = await rawGet(s.base + js, { 'accept-encoding': 'gzip' });
    assert.equal(gz.enc, 'gzip');
    assert.ok(gunzipSync(gz.body).equals((await rawGet(s.base + js, {})).body));
    // The build's own twin, byte for byte: nothing was compressed on this server for it.
    assert.ok(gz.body.equals(readFileSync(join(defaultUiDir(), js.replace(/^\/assets\//, '')) + '.gz')));
  });
});
