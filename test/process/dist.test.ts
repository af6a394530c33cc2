import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CatalogSearch } from '../../src/orbit/catalog-search.js';
import { searchOffThread } from '../../src/orbit/pass-search-job.js';
import { Propagator } from '../../src/orbit/propagator.js';
import { GREENWICH, loadTle, T0 } from '../orbit/helpers.js';
import { tmpDataDir } from '../helpers/server.js';
import { spawnServer } from '../helpers/spawn-server.js';

const root = join(import.meta.dirname, '..', '..');

describe('the built artifact', () => {
  let copy: string;
  before(() => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: root, stdio: 'pipe' });
    // dist/ copied somewhere with no node_modules anywhere above it.
    copy = join(tmpDataDir('satstation-dist-'), 'dist');
    cpSync(join(root, 'dist'), copy, { recursive: true });
  });

  it('dist/ alone serves the appliance, native uWebSockets.js loaded, and stops cleanly on SIGTERM', async () => {
    assert.ok(existsSync(join(copy, 'server.mjs')));
    assert.ok(readdirSync(join(copy, 'native')).some((f) => f.startsWith(`uws_linux_${process.arch}_`)));
    const data = tmpDataDir();
    const srv = await spawnServer(process.execPath, [join(copy, 'server.mjs')], {
      cwd: join(copy, '..'),
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data, LOG_LEVEL: 'info', NODE_PATH: '' },
    });
    try {
      assert.ok(!srv.output.some((l) => l.includes('fallback')), 'native uWebSockets.js must load from dist/native');
      const health = await (await fetch(srv.base + '/health')).json();
      assert.equal(health.ok, true);
      const page = await fetch(srv.base + '/lite', { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="app"/);
      const post = await fetch(srv.base + '/api/v1/settings/gps', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ connection_mode: 'gpsd' }),
      });
      assert.equal((await post.json()).state.connection_mode, 'gpsd');
    } finally {
      const { code, ms } = await srv.stop('SIGTERM');
      assert.equal(code, 0);
      assert.ok(ms < 5000, `stopped in ${ms} ms`);
    }
    assert.ok(existsSync(join(data, 'gps-settings.json')));
  });

  it("the copy's worker thread entry (dist/worker.mjs), running the pass search runs from there and finds the passes the search here does", async () => {
    const sats = loadTle('amateur.tle').slice(0, 20);
    const script = { script: pathToFileURL(join(copy, 'worker.mjs')), eval: false };
    const r = await searchOffThread(new Propagator(sats), GREENWICH, T0, T0 + 12 * 3600_000, -Infinity, new AbortController().signal, script);
    assert.equal(r.kind, 'done', JSON.stringify(r));
    const here = new CatalogSearch(new Propagator(sats), GREENWICH, T0, T0 + 12 * 3600_000, -Infinity);
    for (let u = 0; u < here.units; u++) here.run(u);
    assert.ok(here.col.rows.length > 50);
    assert.deepEqual(r.kind === 'done' ? [...r.value.rows] : [], [...here.col.rows]);
  });

  it('npm start runs the bundle (building only when stale) on the embedded defaults', async () => {
    const srv = await spawnServer('npm', ['start', '--silent'], {
      cwd: root,
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: tmpDataDir() },
    });
    try {
      assert.equal((await (await fetch(srv.base + '/health')).json()).ok, true);
      assert.ok(!srv.output.some((l) => l.startsWith('build (')), 'a fresh dist/ must not be rebuilt');
    } finally {
      await srv.stop();
    }
  });

  it('--arch picks the target binaries for a Pi build made on a PC', () => {
    const out = join(tmpDataDir('satstation-arm-'), 'dist');
    execFileSync(process.execPath, ['build.mjs', '--arch', 'arm64', '--out', out, '--server-only'], { cwd: root, stdio: 'pipe' });
    const native = readdirSync(join(out, 'native')).sort();
    assert.deepEqual(native, ['serialport.node', 'uws_linux_arm64_108.node', 'uws_linux_arm64_115.node', 'uws_linux_arm64_93.node']);
    // The serialport binding is the aarch64 ELF, not this machine's.
    const elf = readFileSync(join(out, 'native', 'serialport.node'));
    assert.equal(elf.readUInt16LE(18), 183); // e_machine EM_AARCH64
  });

  it('SIGINT also exits 0', async () => {
    const srv = await spawnServer(process.execPath, [join(copy, 'server.mjs')], {
      cwd: join(copy, '..'),
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: tmpDataDir() },
    });
    const { code } = await srv.stop('SIGINT');
    assert.equal(code, 0);
  });

  it('boots on corrupt state files and keeps serving', async () => {
    const data = tmpDataDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(data, 'gps-settings.json'), '{"connection_mode": "ser');
    writeFileSync(join(data, 'developer-overrides.json'), '[1,2,3]');
    const srv = await spawnServer(process.execPath, [join(copy, 'server.mjs')], {
      cwd: join(copy, '..'),
      env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data },
    });
    try {
      const gps = await (await fetch(srv.base + '/api/v1/settings/gps')).json();
      assert.equal(gps.state.connection_mode, 'none');
      assert.ok(readdirSync(data).some((f) => f.startsWith('gps-settings.json.corrupt-')));
      assert.ok(srv.output.some((l) => l.includes('WARN') && l.includes('moved aside')));
    } finally {
      await srv.stop();
    }
  });
});
