import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { decodePassTable, loadPassTable, PASS_CACHE_FILE, savePassTable } from '../../src/orbit/pass-table-file.js';
import { PassTableService } from '../../src/orbit/pass-table-service.js';
import { PassTable, tableKey } from '../../src/orbit/pass-table.js';
import { Propagator } from '../../src/orbit/propagator.js';
import type { Observer } from '../../src/orbit/types.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { GREENWICH, loadTle, SYDNEY, T0 } from './helpers.js';

const H = 3600_000;
const key = tableKey('v1', 51.4779, -0.0015, 46, 48);

function synthetic(): PassTable {
  // [sat, aos, tca, los, maxEl], deliberately unsorted.
  const rows = [
    1, T0 + 5 * H, T0 + 5 * H + 300_000, T0 + 5 * H + 600_000, 40,
    0, T0 - 300_000, T0, T0 + 300_000, 12.5, // under way at T0
    0, T0 + 2 * H, T0 + 2 * H + 200_000, T0 + 2 * H + 400_000, 2.25,
    1, T0 + 30 * H, T0 + 30 * H + 1, T0 + 30 * H + 2, 80,
  ];
  return new PassTable(key, ['iss', 'so-50'], ['ISS (ZARYA)', 'SO-50'], T0 - H, T0 + 54 * H, rows);
}

test('pass table: sorted by AOS, window, min elevation, satellite filter, ongoing passes', () => {
  const t = synthetic();
  const q = { from_ms: T0, to_ms: T0 + 24 * H, min_max_el_deg: 0, include_ongoing: false, sats: null };
  assert.deepEqual(t.select(q).map((p) => [p.sat_id, p.aos_ms - T0]), [['iss', 2 * H], ['so-50', 5 * H]]);
  assert.deepEqual(t.select({ ...q, include_ongoing: true }).map((p) => p.aos_ms - T0), [-300_000, 2 * H, 5 * H]);
  assert.deepEqual(t.select({ ...q, min_max_el_deg: 10 }).map((p) => p.sat_id), ['so-50']);
  assert.deepEqual(t.select({ ...q, sats: new Set([0]), include_ongoing: true }).map((p) => p.max_el_deg), [12.5, 2.25]);
  assert.equal(t.select({ ...q, to_ms: T0 + 48 * H }).length, 3);
  const e = t.select(q)[0];
  assert.equal(e.aos, new Date(T0 + 2 * H).toISOString());
  assert.equal(e.name, 'ISS (ZARYA)');
  assert.equal(t.currentOrNext(0, T0)?.aos_ms, T0 - 300_000, 'the pass under way');
  assert.equal(t.currentOrNext(0, T0 + 301_000)?.aos_ms, T0 + 2 * H, 'else the next one');
  assert.equal(t.currentOrNext(0, T0 + 3 * H), null);
  assert.ok(t.covers(T0, T0 + 48 * H) && !t.covers(T0 - 2 * H, T0) && !t.covers(T0, T0 + 55 * H));
});

test('pass table: rows spread over months (a hand-edited cache) still sort by AOS, then satellite', () => {
  const year = 365 * 24 * H;
  const rows = [2, T0 + year, T0 + year + 1, T0 + year + 2, 5, 1, T0, T0 + 1, T0 + 2, 5, 0, T0, T0 + 1, T0 + 2, 5, 0, T0 - year, T0 - year + 1, T0 - year + 2, 5];
  const t = new PassTable(key, ['a', 'b', 'c'], ['A', 'B', 'C'], T0 - year, T0 + year + 1, rows);
  assert.deepEqual([...t.sat], [0, 0, 1, 2]);
  assert.deepEqual([...t.aos], [T0 - year, T0, T0, T0 + year]);
});

test('pass table file: round trip, and a damaged, foreign or legacy file is ignored (the legacy one removed)', async () => {
  const dir = tmpDataDir();
  const path = join(dir, PASS_CACHE_FILE);
  try {
    const t = synthetic();
    await savePassTable(path, t);
    const back = await loadPassTable(path);
    assert.ok(back);
    assert.deepEqual(back.key, key);
    assert.deepEqual(back.rows(), t.rows());
    assert.deepEqual([back.satIds, back.names, back.from_ms, back.to_ms, back.maxDurationMs], [t.satIds, t.names, t.from_ms, t.to_ms, t.maxDurationMs]);
    assert.deepEqual(back.select({ from_ms: T0, to_ms: T0 + 48 * H, min_max_el_deg: 0, include_ongoing: true, sats: null }), t.select({ from_ms: T0, to_ms: T0 + 48 * H, min_max_el_deg: 0, include_ongoing: true, sats: null }));
    const good = readFileSync(path);
    const at = good.length - t.size * 36; // where the columns start
    const damaged = (change: (b: Buffer) => void) => {
      const b = Buffer.from(good);
      change(b);
      return decodePassTable(b);
    };
    assert.equal(damaged((b) => b.write('X', 0)), 'not a pass table file');
    assert.equal(decodePassTable(good.subarray(0, good.length - 1)), 'its length does not match its header');
    assert.equal(decodePassTable(good.subarray(0, 20)), 'its header is cut short');
    assert.equal(damaged((b) => b.writeInt32LE(99, at + 32 * t.size)), 'a satellite index is out of range');
    assert.equal(damaged((b) => b.writeDoubleLE(NaN, at)), 'a pass is not a pass');
    assert.equal(damaged((b) => b.writeDoubleLE(Infinity, at + 16 * t.size)), 'a pass is not a pass', 'a LOS that never comes');
    assert.equal(damaged((b) => b.writeDoubleLE(t.aos[0] + 400 * H, at)), 'a pass is not a pass', 'AOS after its TCA');
    assert.ok(t.size > 1);
    assert.equal(damaged((b) => b.writeDoubleLE(t.aos[0] - 1, at + 8)), 'the passes are not in AOS order');
    writeFileSync(path, good.subarray(0, good.length - 8));
    assert.equal(await loadPassTable(path), null);
    // The JSON file of earlier versions is removed, never read.
    writeFileSync(join(dir, 'pass-cache.json'), '{"format":1}');
    rmSync(path);
    assert.equal(await loadPassTable(path), null);
    assert.ok(!existsSync(join(dir, 'pass-cache.json')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

function service(dir: string, clock: FixedClock, where: { obs: Observer }, prop: Propagator, version = 'v1') {
  return new PassTableService({ dataDir: dir, clock, horizonHours: 48, orbits: () => ({ version, prop }), observer: () => where.obs, sliceMs: 4 });
}

test('pass table service: computed in slices, persisted, reloaded, extended, re-keyed, cleared', async () => {
  const dir = tmpDataDir();
  const sats = loadTle('amateur.tle').slice(0, 30);
  const prop = new Propagator(sats);
  const clock = new FixedClock(T0);
  const where = { obs: GREENWICH };
  const a = service(dir, clock, where, prop);
  try {
    a.start();
    const t1 = await a.ready();
    assert.ok(t1 && t1.size > 100, 'table computed');
    assert.ok(t1.covers(T0, T0 + 48 * H), 'covers the horizon');
    assert.ok(a.stats.slices > 1, 'in several slices');
    assert.equal(a.stats.computations, 1);
    assert.ok(existsSync(join(dir, PASS_CACHE_FILE)), 'persisted');
    await a.stop();

    // A restart with the same key loads the file instead of computing.
    const b = service(dir, clock, where, new Propagator(sats));
    b.start();
    const t2 = await b.ready();
    assert.equal(b.stats.loadedFromDisk, true);
    assert.equal(b.stats.computations, 0);
    assert.deepEqual(t2!.rows(), t1.rows());

    // Five hours on, the cron tick extends the table instead of recomputing it.
    clock.advance(5 * H);
    await b.maintain();
    const t3 = b.current()!;
    assert.equal(b.stats.extensions, 1);
    assert.ok(t3.covers(clock.now(), clock.now() + 48 * H));
    assert.ok(t3.from_ms >= T0 + 4 * H, 'old passes pruned');
    // The extended table equals a fresh computation over the same stretch.
    const freshDir = tmpDataDir();
    const fresh = service(freshDir, clock, where, new Propagator(sats));
    fresh.start();
    const t4 = (await fresh.ready())!;
    await fresh.stop();
    rmSync(freshDir, { recursive: true, force: true });
    const win = { from_ms: clock.now(), to_ms: clock.now() + 48 * H, min_max_el_deg: 0, include_ongoing: true, sats: null };
    const ext = t3.select(win);
    const ref = t4.select(win);
    assert.equal(ext.length, ref.length);
    for (let k = 0; k < ext.length; k++) {
      assert.equal(ext[k].sat_id, ref[k].sat_id);
      assert.ok(Math.abs(ext[k].aos_ms - ref[k].aos_ms) <= 5 && Math.abs(ext[k].los_ms - ref[k].los_ms) <= 5);
    }

    // A location change re-keys: the old table no longer answers and a new one is computed.
    where.obs = SYDNEY;
    assert.equal(b.current(), null);
    await b.maintain();
    const t5 = b.current()!;
    assert.equal(t5.key.lat, -33.869);
    assert.equal((await loadPassTable(join(dir, PASS_CACHE_FILE)))?.key.lat, -33.869);

    // Clear: file and table gone, then recomputed in the background.
    assert.equal(await b.clear(), true);
    const t6 = await b.ready();
    assert.ok(t6 && t6 !== t5 && t6.size === t5.size);
    await b.stop();
  } finally {
    await a.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('pass table service: a catalog change supersedes a computation under way', async () => {
  const dir = tmpDataDir();
  const sats = loadTle('amateur.tle');
  let set = { version: 'v1', prop: new Propagator(sats) };
  const s = new PassTableService({ dataDir: dir, clock: new FixedClock(T0), horizonHours: 48, orbits: () => set, observer: () => GREENWICH, sliceMs: 1 });
  try {
    s.start();
    await new Promise((r) => setImmediate(r));
    set = { version: 'v2', prop: new Propagator(sats.slice(0, 10)) };
    void s.maintain();
    const t = await s.ready();
    assert.equal(t?.key.catalog_version, 'v2');
    assert.equal(t?.satIds.length, 10);
    assert.equal(s.stats.computations, 1, 'the v1 computation was abandoned, not finished');
  } finally {
    await s.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
