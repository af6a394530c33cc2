import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { startServer, type TestServer } from '../helpers/server.js';

const PAGES: Record<string, string> = {
  '/': 'home',
  '/lite': 'lite',
  '/lite/settings': 'lite-settings',
  '/aprs': 'aprs',
  '/radio': 'radio',
  '/settings': 'settings',
  '/settings-v2': 'settings',
  '/kiosk-rotator': 'kiosk-rotator',
};

describe('UI pages and /docs', () => {
  let s: TestServer;
  let lp: TestServer;
  before(async () => {
    s = await startServer();
    lp = await startServer({ config: { lowPower: true } });
  });
  after(async () => {
    await s.stop();
    await lp.stop();
  });

  it('every UI route serves its Preact page with hashed assets', async () => {
    for (const [path, page] of Object.entries(PAGES)) {
      const r = await s.get(path);
      assert.equal(r.status, 200, path);
      assert.match(r.headers.get('content-type')!, /text\/html/);
      assert.equal(r.headers.get('x-page'), page, path);
      const js = /src="(\/assets\/[^"]+\.js)"/.exec(r.body)![1];
      assert.match(js, new RegExp(`^/assets/${page}-[A-Z0-9]{8}\\.js$`));
      const asset = await fetch(s.base + js, { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(asset.status, 200);
      assert.match(asset.headers.get('cache-control')!, /immutable/);
      assert.match(asset.headers.get('content-type')!, /javascript/);
      // A code-split page's script is small: what it imports comes with it (modulepreload).
      let size = (await asset.text()).length;
      for (const [, chunk] of r.body.matchAll(/<link rel="modulepreload" href="(\/assets\/chunks\/[^"]+\.js)">/g)) {
        const c = await fetch(s.base + chunk);
        assert.equal(c.status, 200, chunk);
        size += (await c.text()).length;
      }
      assert.ok(size > 1000, `${path}: ${size} bytes of script`);
    }
  });

  it('assets are gzipped when the client accepts it', async () => {
    const html = (await s.get('/lite')).body as string;
    const js = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const { request } = await import('node:http');
    const raw = await new Promise<{ enc: string | undefined; body: Buffer }>((resolve, reject) => {
      request(s.base + js, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ enc: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      })
        .on('error', reject)
        .end();
    });
    assert.equal(raw.enc, 'gzip');
    assert.match(gunzipSync(raw.body).toString(), /preact|createElement|render/i);
  });

  it('serves the service worker unhashed at /sw.js, revalidated, and /lite preloads its snapshot', async () => {
    const r = await fetch(s.base + '/sw.js');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /javascript/);
    assert.equal(r.headers.get('cache-control'), 'no-cache');
    const sw = await r.text();
    assert.match(sw, /satstation-shell-[0-9a-f]{12}/, 'its cache is named after the build');
    const html = (await s.get('/lite')).body as string;
    assert.match(html, /<link rel="preload" href="\/api\/v1\/lite\/snapshot" as="fetch"/);
    assert.match(html, /rel="icon" href="data:image\/svg\+xml,/, 'the icon inline: no favicon request to fail offline');
    for (const asset of /src="(\/assets\/[^"]+\.js)"/.exec(html)!.slice(1)) assert.ok(sw.includes(asset), `the worker precaches ${asset}`);
  });

  it('low-power mode resolves /, /settings and /kiosk-rotator to the lite pages', async () => {
    const expect: Record<string, string> = { '/': 'lite', '/settings': 'lite-settings', '/settings-v2': 'lite-settings', '/kiosk-rotator': 'lite', '/radio': 'radio', '/lite': 'lite' };
    for (const [path, page] of Object.entries(expect)) {
      assert.equal((await lp.get(path)).headers.get('x-page'), page, path);
    }
  });

  it('LOW_POWER auto turns on at 1 GiB or less', () => {
    assert.equal(loadConfig({}, 512 * 1024 ** 2).lowPower, true);
    assert.equal(loadConfig({}, 1024 ** 3).lowPower, true);
    assert.equal(loadConfig({}, 4 * 1024 ** 3).lowPower, false);
    assert.equal(loadConfig({ LOW_POWER: '1' }, 8 * 1024 ** 3).lowPower, true);
    assert.equal(loadConfig({ LOW_POWER: 'off' }, 256 * 1024 ** 2).lowPower, false);
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT/);
  });

  it('/docs lists every route as OpenAPI 3.1 JSON, and as HTML for a browser', async () => {
    const r = await s.get('/docs', { accept: 'application/json' });
    assert.equal(r.status, 200);
    assert.equal(r.body.openapi, '3.1.0');
    for (const route of s.app.routes) {
      assert.ok(r.body.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path} missing from /docs`);
    }
    const gps = r.body.paths['/api/v1/settings/gps'].post;
    assert.deepEqual(gps.requestBody.content['application/json'].schema.properties.connection_mode.enum, ['none', 'serial', 'gpsd', 'bluetooth']);
    const html = await s.get('/docs', { accept: 'text/html' });
    assert.match(html.headers.get('content-type')!, /text\/html/);
    assert.match(html.body, /\/api\/v1\/settings\/gps/);
    const linked = await s.get('/docs?format=json', { accept: 'text/html' });
    assert.equal(linked.body.openapi, '3.1.0', 'the page links the JSON document as /docs?format=json');
  });
});
