// API fault 3 of issue 23: a full disk is a JSON 507 insufficient_storage, nothing is left
// half-written and the service keeps serving. The data directory is a real, tiny tmpfs that is
// filled for real (mounting needs root: skipped with the reason otherwise).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { newerCatalog, ommText } from '../catalog/fixtures/catalog-data.js';
import { body, startSourceServer, type SourceServer } from '../catalog/fixtures/source-server.js';

/** Mounts a tmpfs of `size` at a fresh directory, or says why it cannot. */
function mountTmpfs(size: string): { dir: string } | { skip: string } {
  const dir = mkdtempSync(join(tmpdir(), 'satstation-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return { dir };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    return { skip: `cannot mount a tmpfs here (needs root): ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}` };
  }
}

/** Every file under `dir` with its bytes, as `relative path → content`. */
function tree(dir: string, root = dir, out: Record<string, string> = {}): Record<string, string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) tree(p, root, out);
    else if (e.name !== FILLER) out[relative(root, p)] = readFileSync(p, 'latin1');
  }
  return out;
}

const FILLER = 'filler.bin';

/** Fills the file system so that only `leavePages` blocks stay free (0: full). */
function fill(dir: string, leavePages = 0): void {
  const st = statfsSync(dir);
  const size = Math.max(0, (Number(st.bavail) - leavePages) * Number(st.bsize));
  writeFileSync(join(dir, FILLER), Buffer.alloc(size));
}

const unfill = (dir: string) => rmSync(join(dir, FILLER), { force: true });

const mounted = mountTmpfs('32m');

describe('a full disk answers 507 insufficient_storage and changes nothing', { skip: 'skip' in mounted ? mounted.skip : false }, () => {
  const dir = 'dir' in mounted ? mounted.dir : '';
  let src: SourceServer;
  let s: TestServer;
  before(async () => {
    src = await startSourceServer();
    src.set('/amateur.json', body(ommText(newerCatalog(0.5))));
    s = await startServer({ dataDir: dir, config: { catalogSources: [src.base + '/amateur.json'] } });
    await s.app.services.orbit.table.ready();
    assert.equal((await s.post('/api/v1/datasets/sources', { status_url: '' })).status, 200);
  });
  after(async () => {
    await s?.stop();
    await src?.close();
    if (dir) {
      execFileSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** The answer of a write on the full disk, and proof that nothing on it changed and the service serves. */
  async function refusedOnFullDisk(path: string, payload: unknown, leavePages = 0) {
    const snapshotsBefore = (await s.get('/api/v1/snapshots')).body;
    const before = tree(dir);
    fill(dir, leavePages);
    try {
      const r = await s.post(path, payload);
      assert.equal(r.status, 507, `${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'insufficient_storage');
      assert.match(r.body.error.message, /disk is full/);
      assert.deepEqual(r.body.error.details, { reason: 'ENOSPC' });
      assert.ok(!JSON.stringify(r.body).includes(dir), 'no paths in the answer');
      const after = tree(dir);
      assert.deepEqual(Object.keys(after).filter((f) => /\.tmp-/.test(f)), [], 'no temp file left');
      assert.deepEqual(Object.keys(after).sort(), Object.keys(before).sort(), 'no file added or removed');
      for (const f of Object.keys(before)) assert.ok(after[f] === before[f], `${f} intact`);
      // Still serving, and what it shows is what is on disk.
      const health = await s.get('/health');
      assert.equal(health.status, 200);
      assert.equal(health.body.ok, true);
      assert.deepEqual((await s.get('/api/v1/snapshots')).body, snapshotsBefore);
      return r;
    } finally {
      unfill(dir);
    }
  }

  it('recording a snapshot of the bundled catalogue (written out), and settings', async () => {
    const first = await s.post('/api/v1/snapshots/record', { source: 'first' });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    await refusedOnFullDisk('/api/v1/snapshots/record', { source: 'on-a-full-disk' });
    const gps = (await s.get('/api/v1/settings/gps')).body.state;
    await refusedOnFullDisk('/api/v1/settings/gps', { connection_mode: 'gpsd' });
    assert.deepEqual((await s.get('/api/v1/settings/gps')).body.state, gps, 'the unsaved value is not shown');
    await refusedOnFullDisk('/api/v1/settings/aprs', { digipeater: { enabled: true } });
  });

  it('room for the snapshot file but not the index: the file is removed again', async () => {
    const last = (await s.get('/api/v1/snapshots')).body.items[0];
    const pages = Math.ceil(last.bytes / statfsSync(dir).bsize);
    await refusedOnFullDisk('/api/v1/snapshots/record', { source: 'no-room-for-the-index' }, pages);
  });

  it('recording a snapshot of a refreshed catalogue (copied), then recovery once space is free', async () => {
    const refresh = await s.post('/api/v1/datasets/refresh');
    assert.equal(refresh.status, 200, JSON.stringify(refresh.body));
    await s.app.services.orbit.table.ready(); // the new catalogue's pass table is written in the background
    assert.ok(s.app.services.catalog.persistedFileOfCurrent(), 'the catalogue in use is the persisted refresh');
    const persisted = statSync(s.app.services.catalog.persistedFileOfCurrent()!).size;
    await refusedOnFullDisk('/api/v1/snapshots/record', { source: 'copy-on-a-full-disk' });
    // Room for half the copy: the kernel copies some, then the disk is full mid-file.
    await refusedOnFullDisk('/api/v1/snapshots/record', { source: 'half-a-copy' }, Math.floor(persisted / statfsSync(dir).bsize / 2));
    const ok = await s.post('/api/v1/snapshots/record', { source: 'space-freed' });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const list = (await s.get('/api/v1/snapshots')).body;
    assert.deepEqual(list.items.map((x: { source: string }) => x.source), ['space-freed', 'refresh (datasets/refresh)', 'first']);
    assert.equal(statSync(join(dir, 'snapshots', `${ok.body.snapshot.id}.json`)).size, persisted, 'a whole copy');
  });
});
