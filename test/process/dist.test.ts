import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { CatalogSearch } from '../../src/orbit/catalog-search.js';
import { searchOffThread } from '../../src/orbit/pass-search-job.js';
import { Propagator } from '../../src/orbit/propagator.js';
import { GREENWICH, loadTle, T0 } from '../orbit/helpers.js';
import { tmpDataDir } from '../helpers/server.js';
import { spawnServer } from '../helpers/spawn-server.js';
import { startHttpsSource } from '../catalog/fixtures/https-source-process.js';
import { runWorkerJob } from '../../src/util/worker-job.js';

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
    assert.ok(existsSync(join(copy, 'server.cjs')));
    assert.ok(readdirSync(join(copy, 'native')).some((f) => f.startsWith(`uws_linux_${process.arch}_`)));
    const data = tmpDataDir();
    const srv = await spawnServer(process.execPath, [join(copy, 'server.cjs')], {
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

  it("the copy's worker thread entry (dist/worker.cjs), running the pass search runs from there and finds the passes the search here does", async () => {
    const sats = loadTle('amateur.tle').slice(0, 20);
    const script = { script: pathToFileURL(join(copy, 'worker.cjs')), eval: false };
    const r = await searchOffThread(new Propagator(sats), GREENWICH, T0, T0 + 12 * 3600_000, -Infinity, new AbortController().signal, script);
    assert.equal(r.kind, 'done', JSON.stringify(r));
    const here = new CatalogSearch(new Propagator(sats), GREENWICH, T0, T0 + 12 * 3600_000, -Infinity);
    for (let u = 0; u < here.units; u++) here.run(u);
    assert.ok(here.col.rows.length > 50);
    assert.deepEqual(r.kind === 'done' ? [...r.value.rows] : [], [...here.col.rows]);
  });

  it("the copy's worker entry fetches an https source (TLS on the worker: here, an untrusted certificate refused)", async () => {
    const source = await startHttpsSource();
    try {
      const script = { script: pathToFileURL(join(copy, 'worker.cjs')), eval: false };
      const input = { url: `${source.base}/catalog.tle`, timeoutMs: 10_000, maxBytes: 1024 * 1024, nowMs: Date.now() };
      const r = await runWorkerJob<{ kind: string; message?: string }>('source-fetch', input, { signal: new AbortController().signal, script });
      assert.equal(r.kind, 'done', JSON.stringify(r));
      assert.match(r.kind === 'done' ? `${r.value.kind}: ${r.value.message}` : '', /^error: fetch failed: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT)/);
    } finally {
      source.stop();
    }
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

  it('boots through its V8 code cache, and compiles from source with none, with a damaged one, or with it off (issue 36)', async () => {
    const data = tmpDataDir();
    const boot = async (env: Record<string, string> = {}) => {
      const srv = await spawnServer(process.execPath, [join(copy, 'server.cjs')], {
        cwd: join(copy, '..'),
        env: { PORT: '0', HOST: '127.0.0.1', DATA_DIR: data, LOG_LEVEL: 'info', NODE_PATH: '', ...env },
      });
      assert.equal((await (await fetch(srv.base + '/health')).json()).ok, true);
      assert.equal((await fetch(srv.base + '/api/v1/passes?hours=6')).status, 200);
      return srv;
    };
    const line = (out: string[], re: RegExp) => out.find((l) => re.test(l)) ?? assert.fail(`no ${re} in\n${out.join('\n')}`);
    const counts = (out: string[]) => {
      const m = /code cache (\S+): (\d+) scripts from it, (\d+) compiled(?: \((\d+) caches rejected)?/.exec(line(out, /code cache \//))!;
      return { dir: m[1], fromCache: Number(m[2]), compiled: Number(m[3]), rejected: Number(m[4] ?? 0) };
    };
    // A directory of an earlier build: removed with the first write, and nothing else beside it.
    const root = join(data, 'code-cache');
    mkdirSync(join(root, '0123456789abcdef-v18.19.0-x64'), { recursive: true });
    writeFileSync(join(root, 'keep-me.txt'), 'not ours');

    // Written while serving, one script a turn, once the period is up.
    let srv = await boot({ CODE_CACHE_WRITE_MS: '300' });
    const first = counts(srv.output);
    assert.equal(first.fromCache, 0);
    assert.ok(first.compiled >= 5, `${first.compiled} scripts at boot`);
    for (let i = 0; i < 100 && !srv.output.some((l) => /code cache: \d+ scripts written/.test(l)); i++) await new Promise((r) => setTimeout(r, 50));
    line(srv.output, new RegExp(`code cache: ${first.compiled} scripts written`));
    await srv.stop('SIGTERM');
    assert.deepEqual(readdirSync(root).sort(), [first.dir.split('/').pop(), 'keep-me.txt'].sort());
    // At the stop, the chunks no area loaded are written ahead (compiled, not run): every script
    // of dist/ has its file now.
    line(srv.output, /code cache: [1-9]\d* scripts written ahead for the areas not loaded yet/);
    const chunkFiles = readdirSync(join(copy, 'chunks')).filter((f) => f.endsWith('.cjs'));
    assert.ok(chunkFiles.length > first.compiled, `${chunkFiles.length} chunks`);
    const files = readdirSync(first.dir);
    assert.deepEqual(files.sort(), ['main.cjs.bin', ...chunkFiles.map((f) => `chunks+${f}.bin`)].sort());
    assert.ok(!files.some((f) => f.includes('.tmp')));
    const rotatorBin = join(first.dir, `chunks+${chunkFiles.find((f) => f.startsWith('rotator-service-'))!}.bin`);
    const rotatorAhead = statSync(rotatorBin).size;

    // From the cache; a lazy area loaded afterwards is compiled and written at the stop. What this
    // run compiled of main.cjs after its start from the cache (a request path not run before: the
    // lite snapshot) is written anew while serving once the period is up, and what grew later at the stop.
    const mainBytes = () => statSync(join(first.dir, 'main.cjs.bin')).size;
    const atFirst = mainBytes();
    srv = await boot({ CODE_CACHE_GROWN_MS: '300' });
    assert.deepEqual(counts(srv.output), { ...first, fromCache: first.compiled, compiled: 0 });
    assert.equal((await fetch(srv.base + '/api/v1/lite/snapshot')).status, 200);
    for (let i = 0; i < 100 && !srv.output.some((l) => /code cache: \d+ scripts written anew/.test(l)); i++) await new Promise((r) => setTimeout(r, 50));
    line(srv.output, /code cache: [1-9]\d* scripts written anew with what this run compiled/);
    const grown = mainBytes();
    assert.ok(grown > atFirst, `main.cjs's cache ${atFirst} → ${grown} bytes`);
    const set = await fetch(srv.base + '/api/v1/settings/rotator', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ enabled: true }) });
    assert.equal(set.status, 200, await set.text());
    await srv.stop('SIGTERM');
    // The rotator's chunks were read from the files written ahead (nothing compiled from source this
    // run), and what their run compiled is written at the stop.
    const atStop = /code cache at the stop: (\d+) scripts read from it this run, (\d+) compiled/.exec(line(srv.output, /code cache at the stop/))!;
    assert.equal(Number(atStop[2]), 0, atStop[0]);
    assert.ok(Number(atStop[1]) > first.compiled, atStop[0]);
    assert.ok(statSync(rotatorBin).size > rotatorAhead, `the rotator's cache ${rotatorAhead} → ${statSync(rotatorBin).size} bytes`);
    assert.ok(!readdirSync(first.dir).some((f) => f.includes('.tmp')));
    // The next start takes every file, the grown ones included.
    srv = await boot();
    const again = counts(srv.output);
    assert.equal(again.compiled, 0, JSON.stringify(again));
    assert.equal(again.rejected, 0, JSON.stringify(again));
    await srv.stop('SIGTERM');

    // Damaged files (truncated, or another file's bytes): V8 rejects them; the start goes on.
    const [one, ...others] = readdirSync(first.dir);
    const oneBytes = readFileSync(join(first.dir, one));
    writeFileSync(join(first.dir, one), oneBytes.subarray(0, 100));
    for (const f of others) writeFileSync(join(first.dir, f), oneBytes);
    srv = await boot();
    const damaged = counts(srv.output);
    assert.equal(damaged.fromCache, 0, JSON.stringify(damaged));
    assert.ok(damaged.rejected >= first.compiled - 1, JSON.stringify(damaged));
    await srv.stop('SIGTERM');
    srv = await boot();
    assert.equal(counts(srv.output).compiled, 0, 'rewritten after the rejection');
    await srv.stop('SIGTERM');

    // Off, and a cache that cannot be written (a file where its directory would be).
    srv = await boot({ CODE_CACHE_DIR: 'off' });
    line(srv.output, /code cache off/);
    await srv.stop('SIGTERM');
    const blocked = join(tmpDataDir(), 'not-a-dir');
    writeFileSync(blocked, '');
    srv = await boot({ CODE_CACHE_DIR: blocked });
    assert.equal(counts(srv.output).fromCache, 0);
    const { code } = await srv.stop('SIGTERM');
    assert.equal(code, 0);
    line(srv.output, /WARN.*code cache not written/);
  });

  it('SIGINT also exits 0', async () => {
    const srv = await spawnServer(process.execPath, [join(copy, 'server.cjs')], {
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
    const srv = await spawnServer(process.execPath, [join(copy, 'server.cjs')], {
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
