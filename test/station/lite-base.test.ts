import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FOCI_MAX, PASS_PATHS_MAX } from '../../src/station/lite-base.js';
import { buildLiteSnapshot } from '../../src/station/lite-snapshot.js';
import type { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The misses of one second share the tracked set's part of the snapshot and the focus parts
// (src/station/lite-base.ts): what they answer must be what a build from nothing answers, and
// nothing may be shared across a second, a route that clears the lite cache, or a change of
// what the part is made from.
const EIGHT = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'rs-44'];

describe('lite snapshot: the parts shared by the misses of one second', () => {
  let s: TestServer;
  let clock: FixedClock;
  const lite = () => s.app.services.lite;
  const snap = async (q = '') => {
    const r = await s.get('/api/v1/lite/snapshot' + q);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('x-cache'), 'MISS', `a miss: ${q}`);
    return r.body;
  };
  /** Selects a new location profile by writing the store, not through the route (POST /location clears the cache too); returns the state before. */
  const moveTo = async (id: string, name: string, lat: number, lon: number) => {
    const st = s.app.services.stores.location.get();
    const profiles = [...st.profiles.filter((p) => p.id !== id), { id, name, point: { lat, lon, alt_m: 10 } }];
    await s.app.services.stores.location.set({ ...st, profiles, selected_profile_id: id });
    return st;
  };
  /** The same snapshot built from nothing, at the same instant. */
  const fresh = (sat_id?: string, location_source?: 'manual' | 'gps') =>
    JSON.parse(JSON.stringify(buildLiteSnapshot(lite().station, { sat_id, location_source }, null)));

  before(async () => {
    s = await startServer();
    clock = s.clock as FixedClock;
    await s.app.services.orbit.table.ready();
    assert.equal((await s.post('/api/v1/settings/lite', { tracked_sat_ids: EIGHT, setup_complete: true })).status, 200);
    clock.advance(1000);
  });
  after(() => s.stop());

  it('a second focus in the same second makes no new part and answers what a build from nothing does', async () => {
    const made = lite().bases.made;
    const def = await snap();
    assert.equal(lite().bases.made, made + 1);
    assert.deepEqual(def, fresh());
    // An untracked focus shows the default subject; a tracked one its own; a location source its own key.
    const untracked = await snap('?sat_id=ao-10');
    const so50 = await snap('?sat_id=so-50');
    const so50Manual = await snap('?sat_id=so-50&location_source=manual');
    assert.equal(lite().bases.made, made + 1, 'one part for the whole second');
    assert.deepEqual(untracked, fresh('ao-10'));
    assert.deepEqual(untracked, def);
    assert.equal(so50.focusSatId, 'so-50');
    assert.deepEqual(so50, fresh('so-50'));
    assert.deepEqual(so50Manual, fresh('so-50', 'manual'));
    assert.deepEqual(so50Manual.focusPath, so50.focusPath);
    assert.ok(so50.focusPath.length > 0);
  });

  it('a new second makes a new part: tracks move', async () => {
    const a = await snap('?sat_id=ao-91');
    const made = lite().bases.made;
    clock.advance(1000);
    const b = await snap('?sat_id=ao-91&location_source=manual');
    assert.equal(lite().bases.made, made + 1);
    assert.notDeepEqual(b.tracks, a.tracks);
    assert.deepEqual(b, fresh('ao-91', 'manual'));
  });

  it('a route that clears the lite cache, and a new tracked set, make a new part within the second', async () => {
    clock.advance(1000);
    await snap('?sat_id=fo-29');
    const made = lite().bases.made;
    // The operator's minimum elevation: passes below it leave the list at once.
    assert.equal((await s.post('/api/v1/settings/pass-filter', { min_el_deg: 30 })).status, 200);
    const high = await snap('?sat_id=fo-29');
    assert.equal(lite().bases.made, made + 1);
    assert.ok(high.passes.every((p: { max_el_deg: number }) => p.max_el_deg >= 30));
    assert.deepEqual(high, fresh('fo-29'));
    // Written to the store, not through the route (nothing clears the cache): the part sees it.
    await s.app.services.stores.passFilter.set({ ...s.app.services.stores.passFilter.get(), min_el_deg: 60 });
    const higher = await snap('?sat_id=fo-29&location_source=manual');
    assert.equal(lite().bases.made, made + 2);
    assert.ok(higher.passes.length < high.passes.length && higher.passes.every((p: { max_el_deg: number }) => p.max_el_deg >= 60));
    assert.deepEqual(higher, fresh('fo-29', 'manual'));
    assert.equal((await s.post('/api/v1/settings/pass-filter', { min_el_deg: 0 })).status, 200);
    assert.equal((await s.post('/api/v1/settings/lite', { tracked_sat_ids: ['so-50', 'fo-29'] })).status, 200);
    const two = await snap('?sat_id=fo-29');
    assert.deepEqual(two.trackedSatIds, ['so-50', 'fo-29']);
    assert.deepEqual(two, fresh('fo-29'));
    assert.equal((await s.post('/api/v1/settings/lite', { tracked_sat_ids: EIGHT })).status, 200);
  });

  it('a location moved within the second makes a new part', async () => {
    clock.advance(1000);
    const here = await snap('?sat_id=rs-44');
    const made = lite().bases.made;
    await moveTo('cpt', 'Cape Town', -33.9, 18.4);
    const there = await snap('?sat_id=rs-44&location_source=manual');
    assert.equal(lite().bases.made, made + 1);
    assert.notDeepEqual(there.tracks, here.tracks);
    assert.deepEqual(there, fresh('rs-44', 'manual'));
  });

  it("a focus pass's path is kept from one second to the next, and made again when the location moves", async () => {
    clock.advance(1000);
    const paths = lite().bases.passPaths;
    const a = await snap('?sat_id=ao-7');
    assert.ok(a.focusPass, 'ao-7 has a pass in 24 h');
    const made = paths.made;
    clock.advance(1000);
    const b = await snap('?sat_id=ao-7&location_source=manual');
    assert.equal(paths.made, made, 'the same pass: its path kept');
    assert.deepEqual(b.focusPath, a.focusPath);
    assert.deepEqual(b, fresh('ao-7', 'manual'));
    const st = await moveTo('ant', 'Antarctica', -77.8, 166.7);
    const c = await snap('?sat_id=ao-7');
    assert.ok(paths.made > made, 'a new observer: the path made again');
    assert.deepEqual(c, fresh('ao-7'));
    await s.app.services.stores.location.set(st);
  });

  it('keeps at most FOCI_MAX foci in a second and PASS_PATHS_MAX pass paths', () => {
    const now = clock.now();
    const base = lite().bases.get(now);
    const ids = [...s.app.services.catalog.current().byId.keys()].slice(0, FOCI_MAX + 8);
    assert.ok(ids.length > FOCI_MAX);
    for (const id of ids) base.focus(id, null, now);
    assert.equal(base.fociKept, FOCI_MAX);
    const station = lite().station;
    const passes = station.deps.orbit.passes({ from_ms: now, hours: 48, min_max_el_deg: 0, include_ongoing: true });
    assert.ok(passes.length > PASS_PATHS_MAX);
    const paths = lite().bases.passPaths;
    for (const p of passes) paths.get(station, p);
    assert.equal(paths.size, PASS_PATHS_MAX);
  });
});
