// State files and the data directory are outside the process too: a huge or odd state file must
// not stop the boot, a failed write must not change what the API shows, and a kill's temp files
// are swept at the next boot (robustness issue, items 3, 6, 7 and 11).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { jsonShapeProblem } from '../../src/store/json-shape.js';
import { readTextCapped } from '../../src/store/atomic-file.js';
import { tinyObjects } from '../catalog/fixtures/hostile.js';
import { spawnDeployed } from '../helpers/deployed.js';
import { startServer, tmpDataDir } from '../helpers/server.js';

const MB = 1000 * 1000;
const home = { id: 'home', name: 'Home', point: { lat: 52.1, lon: 5.1, alt_m: 10 } };

/** A sparse file of `bytes` (nothing written to disk). */
function huge(path: string, bytes: number): void {
  writeFileSync(path, '');
  truncateSync(path, bytes);
}

describe('state files are bounded before they are read', () => {
  it('readTextCapped: regular files only, at most the cap, whatever the size says', () => {
    const dir = tmpDataDir();
    writeFileSync(join(dir, 'small.json'), '{"a":1}');
    assert.deepEqual(readTextCapped(join(dir, 'small.json'), 100), { kind: 'text', text: '{"a":1}' });
    huge(join(dir, 'big.json'), 5 * MB);
    assert.equal(readTextCapped(join(dir, 'big.json'), 1024).kind, 'too-large');
    assert.deepEqual(readTextCapped(join(dir, 'none.json'), 1024), { kind: 'missing' });
    execFileSync('mkfifo', [join(dir, 'fifo.json')]);
    assert.deepEqual(readTextCapped(join(dir, 'fifo.json'), 1024), { kind: 'not-a-file' });
    assert.deepEqual(readTextCapped('/dev/zero', 1024), { kind: 'not-a-file' });
  });

  it('the shape check counts what JSON.parse would build', () => {
    const limits = { containers: 100, strings: 100, values: 1000 };
    assert.equal(jsonShapeProblem('{"a":[1,2,3],"b":"x,{[:"}', limits), null);
    assert.match(jsonShapeProblem(tinyObjects(10_000), limits)!, /objects and arrays/);
    assert.match(jsonShapeProblem(JSON.stringify(Array(200).fill('s')), limits)!, /strings/);
    assert.match(jsonShapeProblem(JSON.stringify(Array(2000).fill(1)), limits)!, /values/);
  });

  it('boots under the unit flags with 100 MB state files, a FIFO, a hostile catalogue and stale temps; moves them aside', { timeout: 60_000 }, async () => {
    const data = tmpDataDir();
    mkdirSync(join(data, 'catalog', 'sources'), { recursive: true });
    mkdirSync(join(data, 'snapshots'));
    for (const f of ['gps-settings.json', 'location.json', 'pass-table.bin']) huge(join(data, f), 100 * MB);
    writeFileSync(join(data, 'catalog', 'catalog.json'), `{"format":1,"elements":${tinyObjects(15 * 1024 * 1024)}}`);
    execFileSync('mkfifo', [join(data, 'lite-settings.json')]);
    const stale = ['gps-settings.json.tmp-999999-1', 'snapshots/20260101T000000Z-1.json.tmp-999999-2', 'catalog/catalog.json.tmp-999999-3', 'catalog/sources/0123456789abcdef.json.tmp-999999-4'];
    for (const f of stale) writeFileSync(join(data, f), 'half');
    writeFileSync(join(data, 'notes.tmp'), 'not ours');
    const srv = await spawnDeployed({}, data);
    try {
      assert.equal((await (await fetch(srv.base + '/health')).json()).ok, true);
      const gps = await (await fetch(srv.base + '/api/v1/settings/gps')).json();
      assert.equal(gps.state.connection_mode, 'none', 'defaults in use');
      const sats = await (await fetch(srv.base + '/api/v1/satellites')).json();
      assert.ok(sats.count > 50, 'the bundled catalogue is in use');
      const names = readdirSync(data);
      for (const f of ['gps-settings.json', 'location.json', 'lite-settings.json']) {
        assert.ok(names.some((n) => n.startsWith(`${f}.corrupt-`)), `${f} moved aside: ${names.join(' ')}`);
      }
      assert.ok(readdirSync(join(data, 'catalog')).some((n) => n.startsWith('catalog.json.corrupt-')));
      for (const f of stale) assert.equal(existsSync(join(data, f)), false, `${f} removed`);
      assert.equal(existsSync(join(data, 'notes.tmp')), true, 'files that are not our temps stay');
      assert.ok(srv.peakRssMiB() < 192, `peak RSS ${srv.peakRssMiB().toFixed(0)} MiB`);
    } finally {
      await srv.stop('SIGKILL');
    }
  });
});

describe('a failed write changes nothing the API shows', () => {
  it('settings and a location profile: 507 storage_unavailable without paths, old values kept, recovers', async () => {
    const s = await startServer();
    try {
      assert.equal((await s.post('/api/v1/settings/gps', { connection_mode: 'gpsd' })).status, 200);
      // The data directory stops taking writes: it is no longer a directory. The server may be
      // writing a cache into it meanwhile (pass-rates.json after its warm-up): retried, as rm -r would.
      rmSync(s.dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
      writeFileSync(s.dataDir, 'not a directory');
      const r = await s.post('/api/v1/settings/gps', { connection_mode: 'serial' });
      assert.equal(r.status, 507);
      assert.equal(r.body.error.code, 'storage_unavailable');
      assert.match(r.body.error.message, /free space or check the SD card/);
      assert.ok(!JSON.stringify(r.body).includes(s.dataDir) && !/\.tmp-/.test(JSON.stringify(r.body)), 'no paths in the answer');
      assert.equal((await s.get('/api/v1/settings/gps')).body.state.connection_mode, 'gpsd', 'the unsaved value is not shown');
      const loc = await s.post('/api/v1/location', { add_profile: home, selected_profile_id: 'home' });
      assert.equal(loc.status, 507);
      const after = (await s.get('/api/v1/location')).body;
      assert.equal(after.state.selected_profile_id, 'default');
      assert.ok(!after.state.profiles.some((p: { id: string }) => p.id === 'home'));
      // The card is back: the next write lands.
      rmSync(s.dataDir, { force: true });
      mkdirSync(s.dataDir);
      assert.equal((await s.post('/api/v1/settings/gps', { connection_mode: 'serial' })).status, 200);
      assert.equal((await s.get('/api/v1/settings/gps')).body.state.connection_mode, 'serial');
    } finally {
      // A directory again for the stop's writes, if an assertion left the file there. Not removed
      // and made anew when it is one: the server writes into it meanwhile (the pass table, its
      // rates), and a removal racing those writes fails with ENOTEMPTY.
      try {
        if (!statSync(s.dataDir, { throwIfNoEntry: false })?.isDirectory()) {
          rmSync(s.dataDir, { force: true });
          mkdirSync(s.dataDir);
        }
      } finally {
        await s.stop(); // whatever happened above: a server left running keeps the test process alive
      }
    }
  });
});
