import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { writeFileAtomic } from '../../src/store/atomic-file.js';
import { DEFAULT_LOCATION } from '../../src/orbit/location-types.js';
import { GPS_FIX_FRESH_MS, LocationService } from '../../src/station/location-service.js';
import { createStores } from '../../src/stores.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';

const home = { id: 'home', name: 'Home QTH', point: { lat: 48.8566, lon: 2.3522, alt_m: 35 } };

async function until<T>(what: string, fn: () => Promise<T | undefined>, ms = 4000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('GET/POST /api/v1/location', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.stop());

  it('defaults to the Greenwich manual profile', async () => {
    const r = await s.get('/api/v1/location');
    assert.equal(r.status, 200);
    assert.equal(r.body.state.source_mode, 'manual');
    assert.equal(r.body.state.selected_profile_id, 'default');
    assert.deepEqual(r.body.resolved, { ...DEFAULT_LOCATION, locator: 'IO91xl' });
    assert.deepEqual(r.body.gps, { fix: null, fresh: false, age_s: null });
    assert.deepEqual(r.body.state.profiles.map((p: { locator: string }) => p.locator), ['IO91xl'], 'every profile shows its locator');
  });

  it('adds and selects a profile in one request, persists it, and fires onChange once', async () => {
    const seen: unknown[] = [];
    const off = s.app.services.location.onChange((l) => seen.push(l));
    const r = await s.post('/api/v1/location', { add_profile: home, selected_profile_id: 'home' });
    off();
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.resolved, { source: 'manual', ...home.point, locator: 'JN18eu' });
    assert.equal(r.body.state.profiles.length, 2);
    assert.deepEqual(seen, [{ source: 'manual', ...home.point }]);
    const file = JSON.parse(readFileSync(join(s.dataDir, 'location.json'), 'utf8'));
    assert.equal(file.selected_profile_id, 'home');
  });

  it('add_profile with an existing id replaces it', async () => {
    const moved = { ...home, point: { lat: 48.86, lon: 2.35, alt_m: 40 } };
    const r = await s.post('/api/v1/location', { add_profile: moved });
    assert.equal(r.status, 200);
    assert.equal(r.body.state.profiles.length, 2);
    assert.equal(r.body.resolved.lat, moved.point.lat);
    assert.equal(r.body.resolved.alt_m, moved.point.alt_m);
  });

  const impossible: Array<[string, Record<string, number>]> = [
    ['add_profile.point.lat', { lat: 90.01, lon: 0, alt_m: 0 }],
    ['add_profile.point.lat', { lat: -91, lon: 0, alt_m: 0 }],
    ['add_profile.point.lon', { lat: 0, lon: 180.5, alt_m: 0 }],
    ['add_profile.point.lon', { lat: 0, lon: -181, alt_m: 0 }],
    ['add_profile.point.alt_m', { lat: 0, lon: 0, alt_m: -501 }],
    ['add_profile.point.alt_m', { lat: 0, lon: 0, alt_m: 10_001 }],
  ];
  for (const [field, point] of impossible) {
    it(`rejects an impossible point (${field} = ${JSON.stringify(point)}) and saves nothing`, async () => {
      const before = readFileSync(join(s.dataDir, 'location.json'), 'utf8');
      const r = await s.post('/api/v1/location', { add_profile: { id: 'bad', name: 'x', point }, selected_profile_id: 'bad' });
      assert.equal(r.status, 400);
      assert.equal(r.body.error.details.fields[0].field, field);
      assert.equal(readFileSync(join(s.dataDir, 'location.json'), 'utf8'), before);
      assert.equal((await s.get('/api/v1/location')).body.state.selected_profile_id, 'home');
    });
  }

  it('accepts the edges of the bounds', async () => {
    const r = await s.post('/api/v1/location', { add_profile: { id: 'edge', name: 'Edge', point: { lat: -90, lon: 180, alt_m: 10_000 } } });
    assert.equal(r.status, 200);
    assert.equal((await s.post('/api/v1/location', { remove_profile_id: 'edge' })).status, 200);
  });

  it('unknown profile ids are a 400 naming the field', async () => {
    let r = await s.post('/api/v1/location', { selected_profile_id: 'nowhere' });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.fields[0].field, 'selected_profile_id');
    r = await s.post('/api/v1/location', { remove_profile_id: 'nowhere' });
    assert.equal(r.status, 400);
    assert.equal(r.body.error.details.fields[0].field, 'remove_profile_id');
    r = await s.post('/api/v1/location', { remove_profile_id: 'home' });
    assert.equal(r.status, 400, 'the selected profile cannot be removed');
  });

  it('bad source_mode and malformed profiles are 400s', async () => {
    assert.equal((await s.post('/api/v1/location', { source_mode: 'satnav' })).status, 400);
    assert.equal((await s.post('/api/v1/location', { add_profile: { id: 'a b', name: 'x', point: home.point } })).status, 400);
    assert.equal((await s.post('/api/v1/location', { add_profile: { id: 'x', name: '', point: home.point } })).status, 400);
    assert.equal((await s.post('/api/v1/location', { add_profile: { id: 'x', name: 'x', point: { lat: '1', lon: 0, alt_m: 0 } } })).status, 400);
  });
});

describe('a location profile entered as a Maidenhead locator', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
  });
  after(() => s.stop());

  it('is the centre of the square, with alt_m (default 0); resolved, profiles and system state show the locator', async () => {
    const r = await s.post('/api/v1/location', { add_profile: { id: 'cam', name: 'Cambridge', locator: 'JO02bf', alt_m: 12 }, selected_profile_id: 'cam' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.resolved, { source: 'manual', lat: 52.229167, lon: 0.125, alt_m: 12, locator: 'JO02bf' });
    assert.deepEqual(r.body.state.profiles.find((p: { id: string }) => p.id === 'cam'), { id: 'cam', name: 'Cambridge', point: { lat: 52.229167, lon: 0.125, alt_m: 12 }, locator: 'JO02bf' });
    const file = JSON.parse(readFileSync(join(s.dataDir, 'location.json'), 'utf8'));
    assert.deepEqual(file.profiles.find((p: { id: string }) => p.id === 'cam'), { id: 'cam', name: 'Cambridge', point: { lat: 52.229167, lon: 0.125, alt_m: 12 } }, 'the point is stored, the locator derived');
    const sys = (await s.get('/api/v1/system/state')).body;
    assert.deepEqual(sys.location, { source: 'manual', lat: 52.229167, lon: 0.125, alt_m: 12, locator: 'JO02bf' });

    const four = await s.post('/api/v1/location', { add_profile: { id: 'fn31', name: 'Four', locator: 'FN31' } });
    assert.equal(four.status, 200);
    assert.deepEqual(four.body.state.profiles.find((p: { id: string }) => p.id === 'fn31').point, { lat: 41.5, lon: -73, alt_m: 0 }, 'alt_m defaults to 0');
    const eight = await s.post('/api/v1/location', { add_profile: { id: 'fn31pr21', name: 'Eight', locator: 'FN31pr21' } });
    assert.equal(eight.status, 200);
    assert.equal(eight.body.state.profiles.find((p: { id: string }) => p.id === 'fn31pr21').locator, 'FN31pr', 'profiles show 6 characters');
  });

  it('takes any case and surrounding spaces', async () => {
    const r = await s.post('/api/v1/location', { add_profile: { id: 'lower', name: 'Lower', locator: ' jo02BF ' } });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const p = r.body.state.profiles.find((x: { id: string }) => x.id === 'lower');
    assert.deepEqual([p.point.lat, p.point.lon, p.locator], [52.229167, 0.125, 'JO02bf']);
  });

  const refused: Array<[string, string, Record<string, unknown>]> = [
    ['a field past R', 'add_profile.locator', { locator: 'SS00' }],
    ['5 characters', 'add_profile.locator', { locator: 'JO02b' }],
    ['a subsquare past X', 'add_profile.locator', { locator: 'JO02yz' }],
    ['10 characters', 'add_profile.locator', { locator: 'JO02bf52aa' }],
    ['not a string', 'add_profile.locator', { locator: 52 }],
    ['an impossible altitude', 'add_profile.alt_m', { locator: 'JO02', alt_m: 20_000 }],
    ['both a point and a locator', 'add_profile.locator', { locator: 'JO02', point: { lat: 1, lon: 2, alt_m: 3 } }],
    ['alt_m beside a point', 'add_profile.alt_m', { point: { lat: 1, lon: 2, alt_m: 3 }, alt_m: 5 }],
    ['neither a point nor a locator', 'add_profile', {}],
  ];
  for (const [what, field, extra] of refused) {
    it(`refuses ${what}: 400 naming ${field}, nothing saved`, async () => {
      const before = readFileSync(join(s.dataDir, 'location.json'), 'utf8');
      const r = await s.post('/api/v1/location', { add_profile: { id: 'bad', name: 'Bad', ...extra }, selected_profile_id: 'bad' });
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'validation_failed');
      assert.equal(r.body.error.details.fields[0].field, field, JSON.stringify(r.body.error));
      assert.equal(readFileSync(join(s.dataDir, 'location.json'), 'utf8'), before);
    });
  }

  it('documents both ways in /docs', async () => {
    const doc = (await s.get('/docs', { accept: 'application/json' })).body;
    const add = doc.paths['/api/v1/location'].post.requestBody.content['application/json'].schema.properties.add_profile;
    assert.deepEqual(Object.keys(add.properties), ['id', 'name', 'point', 'locator', 'alt_m']);
    assert.deepEqual(add.required, ['id', 'name']);
    assert.match(add.description, /locator/);
    const view = doc.paths['/api/v1/location'].get.responses['200'].content['application/json'].schema;
    assert.ok(view.properties.resolved.required.includes('locator'));
    assert.ok(view.properties.state.properties.profiles.items.required.includes('locator'));
    const sys = doc.paths['/api/v1/system/state'].get.responses['200'].content['application/json'].schema;
    assert.ok(sys.properties.location.required.includes('locator'));
  });
});

describe('GPS fix from the location state file', () => {
  let s: TestServer;
  let clock: FixedClock;
  const file = () => join(s.dataDir, 'location.json');
  const writeFix = async (fix: unknown) => {
    const state = JSON.parse(readFileSync(file(), 'utf8'));
    await writeFileAtomic(file(), JSON.stringify({ ...state, gps_fix: fix }));
  };
  before(async () => {
    s = await startServer();
    clock = s.clock as FixedClock;
    await s.post('/api/v1/location', { add_profile: home, selected_profile_id: 'home', source_mode: 'gps' });
  });
  after(() => s.stop());

  it('gps mode without a fix falls back to the selected manual profile', async () => {
    const r = await s.get('/api/v1/location');
    assert.equal(r.body.state.source_mode, 'gps');
    assert.deepEqual(r.body.resolved, { source: 'manual', ...home.point, locator: 'JN18eu' });
  });

  it('a fix written by another process is picked up on file change and used while fresh', async () => {
    const seen: string[] = [];
    const off = s.app.services.location.onChange((l) => seen.push(l.source));
    const fixAt = new Date(clock.now() - 30_000).toISOString();
    await writeFix({ lat: 52.2053, lon: 0.1218, alt_m: 12, timestamp: fixAt });
    const r = await until('the fix', async () => {
      const g = await s.get('/api/v1/location');
      return g.body.resolved.source === 'gps' ? g : undefined;
    });
    off();
    assert.deepEqual(r.body.resolved, { source: 'gps', lat: 52.2053, lon: 0.1218, alt_m: 12, locator: 'JO02be' });
    assert.equal(r.body.gps.fresh, true);
    assert.equal(r.body.gps.age_s, 30);
    assert.deepEqual(seen, ['gps']);
  });

  it('jitter under 100 m does not move the resolved location (no pass-table re-key)', async () => {
    let fired = 0;
    const off = s.app.services.location.onChange(() => fired++);
    await writeFix({ lat: 52.2056, lon: 0.1221, alt_m: 15, timestamp: new Date(clock.now()).toISOString() });
    await until('the new fix', async () => ((await s.get('/api/v1/location')).body.gps.age_s === 0 ? true : undefined));
    off();
    assert.equal(fired, 0);
    assert.equal((await s.get('/api/v1/location')).body.resolved.lat, 52.2053);
  });

  it('a stale fix falls back to manual and fires onChange; a fresh one switches back', async () => {
    let fired = 0;
    const off = s.app.services.location.onChange(() => fired++);
    clock.advance(GPS_FIX_FRESH_MS + 1000);
    const r = await s.get('/api/v1/location');
    assert.deepEqual(r.body.resolved, { source: 'manual', ...home.point, locator: 'JN18eu' });
    assert.equal(r.body.gps.fresh, false);
    assert.equal(fired, 1);
    await writeFix({ lat: 52.3, lon: 0.2, alt_m: 20, timestamp: new Date(clock.now()).toISOString() });
    await until('fresh fix', async () => ((await s.get('/api/v1/location')).body.resolved.source === 'gps' ? true : undefined));
    off();
    assert.equal(fired, 2);
  });

  it('manual mode ignores a fresh fix', async () => {
    const r = await s.post('/api/v1/location', { source_mode: 'manual' });
    assert.deepEqual(r.body.resolved, { source: 'manual', ...home.point, locator: 'JN18eu' });
    assert.equal(r.body.gps.fresh, true);
    await s.post('/api/v1/location', { source_mode: 'gps' });
  });

  it('an operator edit keeps the latest fix the GPS process wrote', async () => {
    await writeFix({ lat: 52.31, lon: 0.21, alt_m: 21, timestamp: new Date(clock.now()).toISOString() });
    await s.post('/api/v1/location', { add_profile: { id: 'club', name: 'Club', point: { lat: 1, lon: 2, alt_m: 3 } } });
    assert.equal(JSON.parse(readFileSync(file(), 'utf8')).gps_fix.lat, 52.31);
  });

  it('a malformed fix or a half-written file is ignored, profiles survive', async () => {
    writeFileSync(file(), '{"source_mode": "gps", "gps_fi'); // a writer that does not rename
    await new Promise((r) => setTimeout(r, 150));
    assert.equal((await s.get('/api/v1/location')).body.resolved.source, 'gps');
    await writeFix(null).catch(() => {}); // file unparsable: writeFix cannot read it
    const good = JSON.parse(JSON.stringify((await s.get('/api/v1/location')).body.state));
    await writeFileAtomic(file(), JSON.stringify({ ...good, gps_fix: { lat: 999, lon: 0, alt_m: 0, timestamp: 'yesterday' } }));
    await until('fallback', async () => ((await s.get('/api/v1/location')).body.resolved.source === 'manual' ? true : undefined));
    const r = await s.get('/api/v1/location');
    assert.equal(r.body.state.profiles.length, 3);
    assert.equal(r.body.gps.fix, null);
  });
});

describe('the location file watch after the boot', () => {
  it('starts once its gate opens and reads a fix written before it at once', async () => {
    const dir = tmpDataDir();
    const clock = new FixedClock(Date.parse('2026-07-24T12:00:00Z'));
    const stores = createStores(dir, clock);
    await stores.location.set({ ...stores.location.get(), source_mode: 'gps' });
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const svc = new LocationService(stores.location, clock, gate);
    svc.start();
    try {
      const state = JSON.parse(readFileSync(join(dir, 'location.json'), 'utf8'));
      const timestamp = new Date(clock.now() - 30_000).toISOString();
      await new Promise((r) => setTimeout(r, 20)); // a modification time apart from the one start() saw
      await writeFileAtomic(join(dir, 'location.json'), JSON.stringify({ ...state, gps_fix: { lat: 52.2053, lon: 0.1218, alt_m: 12, timestamp } }));
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(svc.resolved().source, 'manual', 'no watch before the gate (the periodic check is 5 s away)');
      open();
      await gate;
      await new Promise((r) => setTimeout(r, 0));
      assert.equal(svc.resolved().source, 'gps', 'read when the watch starts');
    } finally {
      svc.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
