import assert from 'node:assert/strict';
import { request } from 'node:http';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { writeFileAtomic } from '../../src/store/atomic-file.js';
import { LITE_CACHE_TTL_MS } from '../../src/station/lite-cache.js';
import { LITE_PATH_POINTS } from '../../src/station/lite-snapshot.js';
import type { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { zlibRead } from '../../src/util/lazy-builtins.js';

const EIGHT = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'rs-44'];

function rawGet(base: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('GET /api/v1/lite/snapshot', () => {
  let s: TestServer;
  let clock: FixedClock;
  const snap = (q = '') => s.get('/api/v1/lite/snapshot' + q);
  before(async () => {
    s = await startServer();
    clock = s.clock as FixedClock;
    await s.app.services.orbit.table.ready();
  });
  after(() => s.stop());

  it('carries every field of the spec', async () => {
    const r = await snap();
    assert.equal(r.status, 200);
    const b = r.body;
    for (const k of [
      'timestamp', 'generated_at', 'trackedSatIds', 'tracks', 'passes', 'focusSatId', 'focusTrack', 'focusPass', 'focusPath',
      'frequencyRecommendation', 'frequencyMatrix', 'location', 'network', 'iss', 'satellites', 'radioControl', 'aprs',
      'timezone', 'gpsSettings', 'liteSettings', 'freshness',
    ]) {
      assert.ok(k in b, `missing ${k}`);
    }
    assert.deepEqual(b.trackedSatIds, ['iss']);
    assert.equal(b.tracks.length, 1);
    assert.equal(b.focusSatId, 'iss');
    assert.equal(b.focusTrack.sat_id, 'iss');
    assert.equal(b.iss.issTrack.sat_id, 'iss');
    assert.deepEqual(Object.keys(b.iss.state).sort(), ['aboveHorizon', 'activeStreamUrl', 'mode', 'streamHealthy', 'sunlit', 'videoEligible']);
    assert.ok(b.passes.length >= 1 && b.passes.length <= 3);
    assert.deepEqual(Object.keys(b.passes[0]).sort(), ['aos', 'los', 'max_el_deg', 'name', 'sat_id', 'tca']);
    assert.equal(b.frequencyRecommendation.sat_id, 'iss');
    assert.deepEqual(b.location, {
      source: 'manual',
      lat: 51.4779,
      lon: -0.0015,
      alt_m: 46,
      locator: 'IO91xl',
      requested_source: null,
      tracking_source: 'manual',
      gps_fix_fresh: false,
      gps_fix_age_s: null,
    });
    assert.deepEqual(Object.keys(b.network).sort(), ['offline', 'online', 'reason']);
    assert.equal(b.satellites[0].norad_id, 25544);
    assert.equal(b.satellites[0].is_iss, true);
    assert.equal(b.radioControl.connected, false);
    assert.equal(b.aprs.station_valid, false);
    assert.deepEqual(b.timezone, { display_timezone: 'UTC', utc_offset_minutes: 0 });
    assert.equal(b.gpsSettings.connection_mode, 'none');
    assert.deepEqual(b.liteSettings, { tracked_sat_ids: ['iss'], setup_complete: false });
    assert.equal(b.freshness.generated_at, b.generated_at);
    assert.equal(b.freshness.stale_warning_after_h, 12);
    assert.equal(b.freshness.reference_only_after_h, 24);
    assert.equal(typeof b.freshness.catalog_epoch_age_h, 'number');
    assert.equal(b.freshness.oldest_epoch, b.satellites[0].epoch);
  });

  it('focus pass and cue: the cue exists only before AOS, from the path sample nearest AOS', async () => {
    const b = (await snap()).body;
    const now = Date.parse(b.timestamp);
    assert.equal(b.focusPass.sat_id, 'iss');
    const aos = Date.parse(b.focusPass.aos);
    assert.ok(b.focusPath.length > 1 && b.focusPath.length <= LITE_PATH_POINTS);
    assert.equal(b.focusPath[0].timestamp, new Date(aos).toISOString(), 'path starts at AOS');
    if (aos > now) {
      assert.deepEqual(b.focusCue, { type: 'aos', sat_id: 'iss', az_deg: b.focusPath[0].az_deg, el_deg: b.focusPath[0].el_deg, aos: b.focusPass.aos });
    } else {
      assert.equal('focusCue' in b, false);
    }
    // Move the clock into that pass: the same pass is now under way and there is no cue.
    clock.set(aos + 30_000);
    const during = (await snap()).body;
    assert.equal(during.focusPass.aos, b.focusPass.aos);
    assert.equal('focusCue' in during, false);
    assert.equal(during.frequencyRecommendation.label, 'Tune now');
    clock.set('2026-08-22T12:00:00Z');
  });

  it('8 tracked satellites: every id rendered, focus rules, payload under 24 KiB', async () => {
    await s.post('/api/v1/settings/lite', { tracked_sat_ids: EIGHT });
    const r = await snap();
    const bytes = Buffer.byteLength(JSON.stringify(r.body));
    assert.ok(bytes < 24 * 1024, `${bytes} bytes`);
    const b = r.body;
    assert.deepEqual(b.trackedSatIds, EIGHT);
    assert.deepEqual(b.tracks.map((t: { sat_id: string }) => t.sat_id).sort(), [...EIGHT].sort());
    assert.equal(b.satellites.length, 8);
    assert.ok(b.passes.length <= 24);
    const perSat = new Map<string, number>();
    for (const p of b.passes) perSat.set(p.sat_id, (perSat.get(p.sat_id) ?? 0) + 1);
    for (const n of perSat.values()) assert.ok(n <= 3);
    assert.deepEqual(b.passes.map((p: { aos: string }) => p.aos), [...b.passes.map((p: { aos: string }) => p.aos)].sort(), 'ordered by AOS');
    // No sat_id: the focus pass is one under way, else the first; the focus track is its satellite's.
    const now = Date.parse(b.timestamp);
    const ongoing = b.passes.find((p: { aos: string; los: string }) => Date.parse(p.aos) <= now && now < Date.parse(p.los));
    assert.deepEqual(b.focusPass, ongoing ?? b.passes[0]);
    assert.equal(b.focusTrack.sat_id, b.focusPass.sat_id);
    // Explicit sat_id: that track and its first pass.
    const rsReply = await snap('?sat_id=rs-44');
    assert.ok(Buffer.byteLength(JSON.stringify(rsReply.body)) < 24 * 1024, 'with a linear focus (matrix) too');
    const rs = rsReply.body;
    assert.equal(rs.focusSatId, 'rs-44');
    assert.equal(rs.focusTrack.sat_id, 'rs-44');
    const rsPass = rs.passes.find((p: { sat_id: string }) => p.sat_id === 'rs-44');
    assert.ok(rsPass, 'RS-44 passes Greenwich within 24 h');
    assert.deepEqual(rs.focusPass, rsPass);
    assert.equal(rs.frequencyMatrix.sat_id, 'rs-44', 'guidance follows the focus pass');
    // A sat_id that is not tracked: as without one (the pass decides).
    assert.equal((await snap('?sat_id=lo-19')).body.focusTrack.sat_id, b.focusPass.sat_id);
  });

  it('the ISS is the fallback focus when asked for but not tracked', async () => {
    await s.post('/api/v1/settings/lite', { tracked_sat_ids: ['so-50', 'ao-91'] });
    const b = (await snap('?sat_id=iss')).body;
    assert.equal(b.focusTrack.sat_id, 'iss');
    assert.equal(b.iss.tracked, false);
    assert.deepEqual(b.trackedSatIds, ['so-50', 'ao-91']);
  });

  it('the saved list is re-checked against the catalog (unknown ids dropped, ISS fallback)', async () => {
    await s.app.services.stores.lite.set({ tracked_sat_ids: ['gone-1', 'gone-2'], setup_complete: true });
    const b = (await snap()).body;
    assert.deepEqual(b.trackedSatIds, ['iss']);
    assert.deepEqual(b.liteSettings.tracked_sat_ids, ['gone-1', 'gone-2']);
  });

  it('cache: a repeat within 15 s is a HIT with the same bytes; at 15 s it is rebuilt', async () => {
    await s.post('/api/v1/settings/lite', { tracked_sat_ids: ['iss', 'so-50'] });
    const a = await snap('?sat_id=so-50');
    assert.equal(a.headers.get('x-cache'), 'MISS');
    clock.advance(LITE_CACHE_TTL_MS - 1);
    const b = await snap('?sat_id=so-50');
    assert.equal(b.headers.get('x-cache'), 'HIT');
    assert.deepEqual(b.body, a.body);
    clock.advance(1);
    const c = await snap('?sat_id=so-50');
    assert.equal(c.headers.get('x-cache'), 'MISS');
    assert.notEqual(c.body.timestamp, a.body.timestamp);
  });

  it('cache key: focus, location_source and the tracked set each make their own entry', async () => {
    s.app.services.invalidateLite();
    assert.equal((await snap('?sat_id=so-50')).headers.get('x-cache'), 'MISS');
    assert.equal((await snap('?sat_id=iss')).headers.get('x-cache'), 'MISS');
    assert.equal((await snap('?sat_id=so-50&location_source=gps')).headers.get('x-cache'), 'MISS');
    assert.equal((await snap('?sat_id=so-50')).headers.get('x-cache'), 'HIT');
    const g = await snap('?sat_id=so-50&location_source=gps');
    assert.equal(g.headers.get('x-cache'), 'HIT');
    assert.equal(g.body.location.requested_source, 'gps');
    assert.equal(g.body.location.source, 'manual', 'no fix: gps falls back to manual');
  });

  it('location_source=gps reports a fresh fix while tracking stays on the manual profile', async () => {
    const file = join(s.dataDir, 'location.json');
    const state = (await s.get('/api/v1/location')).body.state;
    const fix = { lat: 52.2053, lon: 0.1218, alt_m: 12, timestamp: new Date(clock.now()).toISOString() };
    await writeFileAtomic(file, JSON.stringify({ ...state, gps_fix: fix }));
    const deadline = Date.now() + 4000;
    while (!(await s.get('/api/v1/location')).body.gps.fresh) {
      assert.ok(Date.now() < deadline, 'fix picked up');
      await new Promise((r) => setTimeout(r, 25));
    }
    const g = (await snap('?sat_id=iss&location_source=gps')).body;
    assert.deepEqual(
      { source: g.location.source, lat: g.location.lat, tracking: g.location.tracking_source, fresh: g.location.gps_fix_fresh },
      { source: 'gps', lat: 52.2053, tracking: 'manual', fresh: true },
    );
  });

  it('gzip: the cached twin decodes to the same bytes', async () => {
    await zlibRead(); // read at the first quiet moment after boot (src/util/lazy-builtins.ts)
    s.app.services.invalidateLite(); // entries made before it have no gzipped copy
    const plain = await rawGet(s.base, '/api/v1/lite/snapshot?sat_id=so-50', {});
    const gz = await rawGet(s.base, '/api/v1/lite/snapshot?sat_id=so-50', { 'accept-encoding': 'gzip, deflate' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['x-cache'], 'HIT');
    assert.ok(gz.body.length < plain.body.length / 2);
    assert.deepEqual(gunzipSync(gz.body), plain.body);
  });

  it('bad query values are 400s naming the parameter', async () => {
    let r = await snap('?sat_id=ISS%20(ZARYA)');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.fields[0].field, 'sat_id');
    r = await snap('?location_source=wifi');
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.fields[0].field, 'location_source');
  });
});

describe('the lite snapshot warm-up after boot', () => {
  it('builds the default snapshot once at the first quiet moment, keeps nothing: the first request is still a miss', async () => {
    const s = await startServer();
    try {
      const lite = s.app.services.lite;
      // No request since boot: the quiet rule (100 ms without one) lets it run.
      for (let i = 0; i < 100 && lite.warmed === 0; i++) await new Promise((r) => setTimeout(r, 20));
      assert.equal(lite.warmed, 1);
      assert.equal(lite.cache.size, 0, 'nothing cached: a request decides hit or miss, not the boot');
      const r = await s.get('/api/v1/lite/snapshot');
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('x-cache'), 'MISS');
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(lite.warmed, 1, 'once per boot');
    } finally {
      await s.stop();
    }
  });

  it('does not run once the app has stopped', async () => {
    const s = await startServer();
    const lite = s.app.services.lite;
    await s.stop();
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(lite.warmed, 0);
  });
});
