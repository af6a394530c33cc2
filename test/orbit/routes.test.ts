import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { PASS_CACHE_FILE } from '../../src/orbit/pass-table-file.js';
import type { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';

const NOW = '2026-08-22T12:00:00Z';
const T0 = Date.parse(NOW);
const H = 3600_000;
let srv: TestServer;

before(async () => {
  srv = await startServer({ now: NOW });
  await srv.app.services.orbit.table.ready();
});
after(() => srv.stop());

test('GET /api/v1/live: a sample of every catalog satellite at the whole second', async () => {
  const r = await srv.get('/api/v1/live');
  assert.equal(r.status, 200);
  assert.equal(r.body.timestamp, '2026-08-22T12:00:00.000Z');
  assert.deepEqual(Object.keys(r.body.location).sort(), ['alt_m', 'lat', 'lon', 'source']);
  const n = srv.app.services.catalog.current().satellites.length;
  assert.ok(r.body.count >= n - 2 && r.body.count <= n, `${r.body.count} of ${n}`);
  assert.equal(r.body.items.length, r.body.count);
  const iss = r.body.items.find((x: { sat_id: string }) => x.sat_id === 'iss');
  assert.deepEqual(Object.keys(iss).sort(), ['az_deg', 'el_deg', 'name', 'range_km', 'range_rate_km_s', 'sat_id', 'sunlit', 'timestamp']);
  assert.ok(iss.az_deg >= 0 && iss.az_deg < 360 && Math.abs(iss.el_deg) <= 90 && iss.range_km > 300);
  assert.ok(Math.abs(iss.range_rate_km_s) < 8 && typeof iss.sunlit === 'boolean');
  const again = await srv.get('/api/v1/live');
  assert.deepEqual(again.body, r.body, 'same second, same samples');
  const some = await srv.get('/api/v1/live?sat_ids=iss,so-50,nope');
  assert.deepEqual(some.body.items.map((x: { sat_id: string }) => x.sat_id), ['iss', 'so-50']);
  assert.deepEqual(some.body.items[0], iss, 'one computation per second shared by every caller');
  assert.equal((await srv.get('/api/v1/live?sat_ids=ISS!')).status, 400);
});

test('GET /api/v1/track/path: defaults, bounds, unknown satellite', async () => {
  const r = await srv.get('/api/v1/track/path?sat_id=iss');
  assert.equal(r.status, 200);
  assert.equal(r.body.minutes, 90);
  assert.equal(r.body.step_seconds, 30);
  assert.equal(r.body.count, 181);
  assert.equal(r.body.items[0].timestamp, '2026-08-22T12:00:00.000Z');
  assert.equal(r.body.items[180].timestamp, '2026-08-22T13:30:00.000Z');
  assert.deepEqual(Object.keys(r.body.items[0]).sort(), ['alt_km', 'az_deg', 'el_deg', 'lat_deg', 'lon_deg', 'range_km', 'range_rate_km_s', 'sat_id', 'sunlit', 't_ms', 'timestamp']);
  const live = (await srv.get('/api/v1/live?sat_ids=iss')).body.items[0];
  assert.equal(r.body.items[0].el_deg, live.el_deg, 'path and live agree at the same instant');
  assert.equal((await srv.get('/api/v1/track/path?sat_id=iss&minutes=999.5&step_seconds=30')).body.count, 2000);
  const tooMany = await srv.get('/api/v1/track/path?sat_id=iss&minutes=1000&step_seconds=30');
  assert.equal(tooMany.status, 400);
  assert.equal(tooMany.body.error.code, 'too_many_points');
  const far = await srv.get('/api/v1/track/path?sat_id=iss&minutes=4000&step_seconds=3600');
  assert.equal(far.status, 400);
  assert.equal(far.body.error.code, 'beyond_horizon');
  assert.equal((await srv.get('/api/v1/track/path?sat_id=iss&minutes=2880&step_seconds=600')).status, 200, '48 h is inside the table');
  assert.equal((await srv.get('/api/v1/track/path?sat_id=no-such-sat')).status, 404);
  assert.equal((await srv.get('/api/v1/track/path?sat_id=iss&step_seconds=0')).status, 400);
  assert.equal((await srv.get('/api/v1/track/path')).status, 400, 'sat_id is required');
});

test('GET /api/v1/passes: from the table, sorted by AOS, inside the window, with guidance fields', async () => {
  const r = await srv.get('/api/v1/passes?include_all_sats=true');
  assert.equal(r.status, 200);
  assert.equal(r.body.timestamp, '2026-08-22T12:00:00.000Z');
  assert.equal(r.body.hours, 24);
  assert.equal(r.body.min_max_el, 5, "the operator's minimum elevation, 5° by default");
  assert.ok(r.body.count > 300 && r.body.count === r.body.items.length);
  assert.ok(r.body.items.every((x: { max_el_deg: number }) => x.max_el_deg >= 5));
  const aos = r.body.items.map((p: { aos: string }) => Date.parse(p.aos));
  assert.deepEqual(aos, [...aos].sort((a, b) => a - b), 'sorted by AOS');
  assert.ok(aos[0] >= T0 && aos[aos.length - 1] < T0 + 24 * H);
  const p = r.body.items[0];
  assert.deepEqual(Object.keys(p).sort(), ['aos', 'frequencyMatrix', 'frequencyRecommendation', 'los', 'max_el_deg', 'name', 'sat_id', 'tca']);
  assert.ok(Date.parse(p.aos) < Date.parse(p.tca) && Date.parse(p.tca) < Date.parse(p.los));
  assert.match(p.aos, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const high = await srv.get('/api/v1/passes?include_all_sats=true&min_max_el=30&hours=48');
  assert.ok(high.body.count > 0 && high.body.items.every((x: { max_el_deg: number }) => x.max_el_deg >= 30));
  assert.equal(srv.app.services.orbit.table.stats.computations, 1, 'answered from the one table');
  for (const bad of ['hours=49', 'hours=0', 'min_max_el=91', 'include_ongoing=maybe']) {
    assert.equal((await srv.get(`/api/v1/passes?${bad}`)).status, 400, bad);
  }
});

test("GET /api/v1/passes without min_max_el applies the operator's minimum elevation (pass-filter min_el_deg)", async () => {
  type Item = { sat_id: string; aos: string; max_el_deg: number };
  const key = (p: Item) => `${p.sat_id}@${p.aos}`;
  const every = await srv.get('/api/v1/passes?include_all_sats=true&hours=48&min_max_el=0&limit=2000');
  assert.equal(every.body.min_max_el, 0, 'an explicit 0 lists everything');
  const low: Item[] = every.body.items.filter((p: Item) => p.max_el_deg < 5);
  assert.ok(low.length > 10 && low.some((p) => p.max_el_deg < 1), 'grazing passes exist to be hidden');
  const byDefault = await srv.get('/api/v1/passes?include_all_sats=true&hours=48&limit=2000');
  assert.equal(byDefault.body.min_max_el, 5);
  const listed = new Set(byDefault.body.items.map(key));
  assert.ok(low.every((p) => !listed.has(key(p))), 'no pass peaking below 5° by default');
  assert.equal(byDefault.body.total, every.body.total - low.length, 'every other pass still listed');
  const docs = (await srv.get('/docs', { accept: 'application/json' })).body.paths['/api/v1/passes'].get;
  assert.match(docs.summary, /min_el_deg/);
  try {
    const set = await srv.post('/api/v1/settings/pass-filter', { min_el_deg: 20 });
    assert.equal(set.status, 200);
    assert.equal(set.body.state.min_el_deg, 20);
    const high = await srv.get('/api/v1/passes?include_all_sats=true&hours=48&limit=2000');
    assert.equal(high.body.min_max_el, 20);
    assert.ok(high.body.count > 0 && high.body.items.every((p: Item) => p.max_el_deg >= 20));
    assert.equal(high.body.total, every.body.items.filter((p: Item) => p.max_el_deg >= 20).length);
    assert.equal((await srv.get('/api/v1/passes?include_all_sats=true&hours=48&min_max_el=0&limit=2000')).body.total, every.body.total, 'the explicit value still wins');
    assert.equal((await srv.post('/api/v1/settings/pass-filter', { min_el_deg: 91 })).status, 400);
  } finally {
    await srv.post('/api/v1/settings/pass-filter', { min_el_deg: 5 });
  }
});

test('GET /api/v1/passes honours the pass filter profile unless include_all_sats', async () => {
  const store = srv.app.services.stores.passFilter;
  try {
    await store.set({ pass_profile: 'IssOnly', favorites: [], min_el_deg: 5 });
    const iss = await srv.get('/api/v1/passes?hours=48');
    assert.ok(iss.body.count > 0 && iss.body.items.every((x: { sat_id: string }) => x.sat_id === 'iss'));
    await store.set({ pass_profile: 'Favorites', favorites: ['so-50', 'ao-91'], min_el_deg: 5 });
    const fav = await srv.get('/api/v1/passes?hours=48');
    assert.deepEqual([...new Set(fav.body.items.map((x: { sat_id: string }) => x.sat_id))].sort(), ['ao-91', 'so-50']);
    const all = await srv.get('/api/v1/passes?hours=48&include_all_sats=true');
    assert.ok(new Set(all.body.items.map((x: { sat_id: string }) => x.sat_id)).size > 20);
  } finally {
    await store.set({ pass_profile: 'All', favorites: [], min_el_deg: 5 });
  }
});

test('GET /api/v1/passes?sat_ids lists those satellites whatever the pass filter (the station view\'s tracked set)', async () => {
  const store = srv.app.services.stores.passFilter;
  try {
    await store.set({ pass_profile: 'IssOnly', favorites: [], min_el_deg: 5 });
    const two = await srv.get('/api/v1/passes?hours=48&sat_ids=so-50,ao-91,so-50');
    assert.equal(two.status, 200, JSON.stringify(two.body));
    assert.deepEqual([...new Set(two.body.items.map((x: { sat_id: string }) => x.sat_id))].sort(), ['ao-91', 'so-50']);
    const again = await srv.get('/api/v1/passes?hours=48&sat_ids=iss');
    assert.ok(again.body.count > 0 && again.body.items.every((x: { sat_id: string }) => x.sat_id === 'iss'), 'another set is another answer');
    for (const bad of ['SO-50', 'so-50,,iss', ',', Array.from({ length: 65 }, (_, i) => `s${i}`).join(',')]) {
      const r = await srv.get(`/api/v1/passes?sat_ids=${encodeURIComponent(bad)}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error.code, 'validation_failed');
      assert.match(JSON.stringify(r.body.error), /sat_ids/);
    }
  } finally {
    await store.set({ pass_profile: 'All', favorites: [], min_el_deg: 5 });
  }
});

test('GET /api/v1/passes?include_ongoing: the pass under way comes first with its true AOS', async () => {
  const clock = srv.clock as FixedClock;
  const iss = (await srv.get('/api/v1/passes?hours=24&include_all_sats=true')).body.items.filter((x: { sat_id: string }) => x.sat_id === 'iss');
  const p = iss[0];
  const mid = (Date.parse(p.aos) + Date.parse(p.los)) / 2;
  try {
    clock.set(mid);
    const without = await srv.get('/api/v1/passes?include_all_sats=true');
    assert.ok(without.body.items.every((x: { aos: string }) => Date.parse(x.aos) >= mid));
    const withOngoing = await srv.get('/api/v1/passes?include_all_sats=true&include_ongoing=true');
    const ongoing = withOngoing.body.items.find((x: { sat_id: string }) => x.sat_id === 'iss');
    // The embedded guidance follows the clock (phase, label), so only the pass fields are compared.
    const bare = ({ frequencyRecommendation: _r, frequencyMatrix: _m, ...pass }: Record<string, unknown>) => pass;
    assert.deepEqual(bare(ongoing), bare(p), 'true AOS in the past, same pass');
    assert.ok(withOngoing.body.count > without.body.count);
  } finally {
    clock.set(T0);
  }
});

test('POST /api/v1/passes/cache/refresh clears the persisted cache and recomputes in the background', async () => {
  const file = join(srv.dataDir, PASS_CACHE_FILE);
  assert.ok(existsSync(file));
  const r = await srv.post('/api/v1/passes/cache/refresh');
  assert.deepEqual(r.body, { ok: true, cleared: true });
  const passes = await srv.get('/api/v1/passes?include_all_sats=true');
  assert.equal(passes.status, 200);
  assert.ok(passes.body.count > 300, 'answers (after waiting for the table)');
  await srv.app.services.orbit.table.ready();
  assert.ok(existsSync(file), 'recomputed and persisted again');
});

test('pass tables survive a restart; /passes answers correctly while a table is still being computed', async () => {
  const dataDir = tmpDataDir();
  const a = await startServer({ now: NOW, dataDir });
  await a.app.services.orbit.table.ready();
  const first = await a.get('/api/v1/passes?hours=48&include_all_sats=true');
  await a.stop({ keepData: true });
  const b = await startServer({ now: NOW, dataDir });
  try {
    await b.app.services.orbit.table.ready();
    assert.equal(b.app.services.orbit.table.stats.loadedFromDisk, true);
    assert.equal(b.app.services.orbit.table.stats.computations, 0, 'nothing recomputed');
    assert.deepEqual((await b.get('/api/v1/passes?hours=48&include_all_sats=true')).body, first.body);

    // Three days on (say the clock was set by NTP after boot) the table no longer covers now.
    const clock = b.clock as FixedClock;
    clock.advance(72 * H);
    assert.equal(b.app.services.orbit.table.current()?.covers(clock.now(), clock.now() + 1), false);
    await b.app.services.stores.passFilter.set({ pass_profile: 'IssOnly', favorites: [] });
    const small = await b.get('/api/v1/passes?hours=48'); // one satellite: computed on demand at once
    const large = await b.get('/api/v1/passes?hours=48&include_all_sats=true'); // waits for the new table
    assert.equal(b.app.services.orbit.table.stats.computations, 1, 'recomputed for the new time');
    assert.ok(small.body.count > 0 && Date.parse(small.body.items[0].aos) >= clock.now());
    assert.deepEqual((await b.get('/api/v1/passes?hours=48')).body, small.body, 'on-demand answer equals the table');
    assert.deepEqual((await b.get('/api/v1/passes?hours=48&include_all_sats=true')).body, large.body);
  } finally {
    await b.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a location change re-keys the pass table and the live samples follow the new place', async () => {
  const s = await startServer({ now: NOW });
  try {
    await s.app.services.orbit.table.ready();
    const before = await s.get('/api/v1/passes?include_all_sats=true');
    const liveBefore = (await s.get('/api/v1/live?sat_ids=iss')).body.items[0];
    const r = await s.post('/api/v1/location', {
      add_profile: { id: 'sydney', name: 'Sydney', point: { lat: -33.8688, lon: 151.2093, alt_m: 58 } },
      selected_profile_id: 'sydney',
      source_mode: 'manual',
    });
    assert.equal(r.status, 200);
    const after = await s.get('/api/v1/passes?include_all_sats=true'); // waits for the recomputed table
    const t = s.app.services.orbit.table.current()!;
    assert.equal(t.key.lat, -33.869);
    assert.equal(s.app.services.orbit.table.stats.computations, 2);
    assert.notDeepEqual(after.body.items.slice(0, 5), before.body.items.slice(0, 5));
    const liveAfter = (await s.get('/api/v1/live?sat_ids=iss')).body.items[0];
    assert.notEqual(liveAfter.az_deg, liveBefore.az_deg, 'same second, new observer: recomputed');
  } finally {
    await s.stop();
  }
});
