import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import type { Catalog, Satellite } from '../../src/catalog/types.js';
import { OrbitEngine } from '../../src/orbit/orbit-service.js';
import { DEFAULT_LOCATION, type ResolvedLocation } from '../../src/orbit/location-types.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { loadTle, T0 } from './helpers.js';

const H = 3600_000;
const sats = loadTle('amateur.tle');

function catalog(version: string, n: number): Catalog {
  const satellites = sats.slice(0, n).map((s) => ({ ...s, sat_id: s.elements.NORAD_CAT_ID === 25544 ? 'iss' : `n${s.sat_id}`, norad_id: s.elements.NORAD_CAT_ID }) as unknown as Satellite);
  return {
    version,
    satellites,
    byId: new Map(satellites.map((s) => [s.sat_id, s])),
    byNorad: new Map(satellites.map((s) => [s.norad_id, s])),
    origin: 'test',
    loaded_at_ms: T0,
  };
}

function engine(dir: string, clock = new FixedClock(T0)) {
  let cat = catalog('v1', sats.length);
  let loc: ResolvedLocation = DEFAULT_LOCATION;
  const catListeners = new Set<(c: Catalog) => void>();
  const locListeners = new Set<(l: ResolvedLocation) => void>();
  const e = new OrbitEngine({
    clock,
    dataDir: dir,
    catalog: { current: () => cat, onChange: (fn) => (catListeners.add(fn), () => catListeners.delete(fn)) },
    location: { resolved: () => loc, onChange: (fn) => (locListeners.add(fn), () => locListeners.delete(fn)) },
  });
  return {
    e,
    setCatalog(c: Catalog) {
      cat = c;
      for (const fn of catListeners) fn(c);
    },
    setLocation(l: ResolvedLocation) {
      loc = l;
      for (const fn of locListeners) fn(l);
    },
  };
}

test('live samples: one computation per second shared by every caller', () => {
  const dir = tmpDataDir();
  const { e } = engine(dir);
  const a = e.live(T0 + 100);
  const b = e.live(T0 + 900, ['iss']);
  assert.equal(b[0], a.find((s) => s.sat_id === 'iss'), 'the very same object within the second');
  assert.equal(e.sample('iss', T0 + 999), b[0]);
  assert.equal(b[0].timestamp, new Date(T0).toISOString());
  const c = e.live(T0 + 1000, ['iss']);
  assert.notEqual(c[0], b[0]);
  assert.equal(c[0].timestamp, new Date(T0 + 1000).toISOString());
  assert.equal(e.sample('nope', T0), null);
  assert.ok(Math.abs(c[0].range_km - b[0].range_km - b[0].range_rate_km_s) < 0.01, 'range moves by the range rate in 1 s');
  rmSync(dir, { recursive: true, force: true });
});

test('a sample at another second (the rotator planner walking a pass) leaves the live cache alone', () => {
  const dir = tmpDataDir();
  const { e } = engine(dir);
  const a = e.live(T0 + 100);
  const later = [60_000, 61_000, 600_000].map((dt) => e.sample('iss', T0 + dt + 500)!);
  const b = e.live(T0 + 200);
  assert.equal(b.length, a.length);
  assert.ok(b.every((s, k) => s === a[k]), 'the very same objects: the second was not rebuilt');
  assert.equal(e.sample('iss', T0 + 300), a.find((s) => s.sat_id === 'iss'), 'the cached second is read from the cache');
  // The same numbers the live cache gives at those seconds.
  const { e: fresh } = engine(dir);
  for (const [k, dt] of [60_000, 61_000, 600_000].entries()) assert.deepEqual(later[k], fresh.live(T0 + dt, ['iss'])[0]);
  assert.equal(e.sample('nope', T0 + 60_000), null);
  rmSync(dir, { recursive: true, force: true });
});

test('path: both ends included, same numbers as a live sample at the same instant', () => {
  const dir = tmpDataDir();
  const { e } = engine(dir);
  const p = e.path('iss', T0, 10, 60);
  assert.equal(p.length, 11);
  assert.equal(p[10].t_ms, T0 + 600_000);
  const s = e.sample('iss', T0 + 600_000)!;
  assert.deepEqual([p[10].az_deg, p[10].el_deg, p[10].range_km, p[10].range_rate_km_s, p[10].sunlit], [s.az_deg, s.el_deg, s.range_km, s.range_rate_km_s, s.sunlit]);
  assert.deepEqual(e.path('nope', T0, 10, 60), []);
  rmSync(dir, { recursive: true, force: true });
});

test('current or next pass: on demand before the table exists, the same from the table', async () => {
  const dir = tmpDataDir();
  const { e } = engine(dir);
  const next = e.currentOrNextPass('iss', T0)!; // no table yet: searched on demand
  assert.ok(next.aos_ms > T0);
  const mid = (next.aos_ms + next.los_ms) / 2;
  e.start();
  await e.table.ready();
  // Events are views of their table's rows: compared by what they say.
  const said = (p: unknown) => JSON.parse(JSON.stringify(p));
  assert.deepEqual(said(e.currentOrNextPass('iss', T0)), said(next));
  assert.deepEqual(said(e.currentOrNextPass('iss', mid)), said(next), 'the pass under way');
  assert.ok(e.currentOrNextPass('iss', next.los_ms)!.aos_ms > next.los_ms, 'after LOS: the next one');
  assert.equal(e.currentOrNextPass('nope', T0), null);
  await e.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a catalogue or location change recomputes the table; the satrec cache follows the catalogue version', async () => {
  const dir = tmpDataDir();
  const { e, setCatalog, setLocation } = engine(dir);
  e.start();
  await e.table.ready();
  const first = e.orbits();
  assert.equal(e.orbits(), first, 'built once per catalogue version');
  setCatalog(catalog('v2', 12));
  const t2 = await e.table.ready();
  assert.equal(t2?.key.catalog_version, 'v2');
  assert.equal(t2?.satIds.length, 12);
  assert.notEqual(e.orbits(), first);
  setLocation({ source: 'manual', lat: -33.8688, lon: 151.2093, alt_m: 58 });
  const t3 = await e.table.ready();
  assert.equal(t3?.key.lon, 151.209);
  const passes = e.passes({ from_ms: T0, hours: 24, min_max_el_deg: 0, include_ongoing: false });
  assert.ok(passes.length > 0 && passes.every((p) => p.aos_ms >= T0 && p.aos_ms < T0 + 24 * H));
  await e.stop();
  rmSync(dir, { recursive: true, force: true });
});
