import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { aliasTable, bundledElements } from '../../src/catalog/bundled.js';
import { CatalogService, catalogDocument } from '../../src/catalog/catalog-service.js';
import { assignSatIds, designationFromName, preferredSatId } from '../../src/catalog/sat-ids.js';
import { FixedClock } from '../../src/util/clock.js';
import { startServer, tmpDataDir } from '../helpers/server.js';
import { SIX_DIGIT, newerCatalog } from './fixtures/catalog-data.js';

const clock = () => new FixedClock(Date.parse('2026-08-22T12:00:00Z'));

describe('sat ids', () => {
  it('OSCAR designations from names and aliases, "iss" for the station, slugs otherwise', () => {
    assert.equal(designationFromName('SAUDISAT 1C (SO-50)'), 'SO-50');
    assert.equal(designationFromName('RS-44 & BREEZE-KM R/B'), 'RS-44');
    assert.equal(designationFromName('GREENCUBE (IO-117)'), 'IO-117');
    assert.equal(designationFromName('RADFXSAT (FOX-1B)'), null);
    assert.equal(preferredSatId(25544, 'ISS (ZARYA)', aliasTable), 'iss');
    assert.equal(preferredSatId(43017, 'RADFXSAT (FOX-1B)', aliasTable), 'ao-91');
    assert.equal(preferredSatId(43678, 'DIWATA-2B', aliasTable), 'po-101');
    assert.equal(preferredSatId(7530, 'OSCAR 7 (AO-7)', aliasTable), 'ao-7');
    assert.equal(preferredSatId(24278, 'JAS-2 (FO-29)', aliasTable), 'fo-29');
    assert.equal(preferredSatId(57172, 'UMKA 1 (RS40S)', aliasTable), 'umka-1');
    assert.equal(preferredSatId(999999, 'POLYTECH-UNIVERSE 3 (R*)', {}), 'polytech-universe-3');
  });

  it('bundled ids for the popular satellites', () => {
    const cat = new CatalogService({ dataDir: tmpDataDir(), clock: clock() }).current();
    const ids = Object.fromEntries(cat.satellites.map((s) => [s.norad_id, s.sat_id]));
    assert.deepEqual(
      [25544, 27607, 43017, 44909, 24278, 7530, 43678, 39444, 53109, 43700, 61781].map((n) => ids[n]),
      ['iss', 'so-50', 'ao-91', 'rs-44', 'fo-29', 'ao-7', 'po-101', 'ao-73', 'io-117', 'qo-100', 'ao-123'],
    );
    assert.equal(new Set(Object.values(ids)).size, cat.satellites.length);
  });

  it('collisions take a NORAD suffix; given ids are never changed or reused', () => {
    const known = new Map([[27607, 'so-50']]);
    const { ids, added } = assignSatIds(
      [
        { norad: 27607, name: 'RENAMED' },
        { norad: 99001, name: 'OTHER (SO-50)' },
        { norad: 99002, name: 'Twin' },
        { norad: 99003, name: 'TWIN' },
      ],
      known,
      {},
    );
    assert.equal(added, 3);
    assert.equal(ids.get(27607), 'so-50');
    assert.equal(ids.get(99001), 'so-50-99001');
    assert.equal(ids.get(99002), 'twin');
    assert.equal(ids.get(99003), 'twin-99003');
    // An id whose satellite left the catalog stays reserved.
    const later = assignSatIds([{ norad: 99004, name: 'Twin' }], ids, {}).ids;
    assert.equal(later.get(99004), 'twin-99004');
  });
});

describe('CatalogService', () => {
  it('boots from the bundled catalog: spec items, empty status, ISS flagged, radio facts', () => {
    const svc = new CatalogService({ dataDir: tmpDataDir(), clock: clock() });
    const cat = svc.current();
    assert.equal(cat.origin, 'bundled');
    assert.equal(cat.satellites.length, bundledElements.length);
    const iss = cat.byId.get('iss')!;
    assert.equal(iss.is_iss, true);
    assert.equal(iss.has_amateur_radio, true);
    assert.match(iss.repeaters[0], /145\.990 MHz.*437\.800 MHz/);
    const rs44 = cat.byId.get('rs-44')!;
    assert.match(rs44.transponders[0], /145\.935–145\.995 MHz.*435\.670–435\.610 MHz.*inverting/);
    assert.deepEqual(rs44.operational_status, { source: '', summary: '', matched_name: '' });
    assert.equal(cat.byId.get('css')!.has_amateur_radio, true); // Tianhe carries an FM repeater
    assert.match(cat.byId.get('css')!.repeaters.join(' '), /FM repeater/);
    assert.equal(cat.byId.get('fregat-deb')!.has_amateur_radio, false);
    assert.deepEqual(cat.byId.get('fregat-deb')!.repeaters, []);
    // ISS modules repeating the station's elements are not tracked separately.
    assert.equal(cat.byNorad.has(36086), false);
    assert.equal(cat.byNorad.get(25544)!.epoch_ms, Date.parse('2026-08-22T12:00:46.122Z'));
  });

  it('replace() persists atomically, bumps the version only when elements change, notifies subscribers', async () => {
    const dir = tmpDataDir();
    const svc = new CatalogService({ dataDir: dir, clock: clock() });
    const seen: string[] = [];
    svc.onChange((c) => seen.push(c.version));
    const v0 = svc.current().version;
    const same = await svc.replace([...bundledElements], ['test']);
    assert.equal(same.version, v0);
    assert.deepEqual(seen, []);
    const next = await svc.replace([...newerCatalog(0.5), SIX_DIGIT], ['test']);
    assert.notEqual(next.version, v0);
    assert.deepEqual(seen, [next.version]);
    assert.equal(next.byNorad.get(100234)!.sat_id, 'xo-129');
    assert.ok(!readdirSync(join(dir, 'catalog')).some((f) => f.includes('.tmp-')));
    const reboot = new CatalogService({ dataDir: dir, clock: clock() });
    assert.equal(reboot.current().version, next.version);
    assert.equal(reboot.current().origin, 'refreshed');
  });

  it('a corrupt persisted catalog is moved aside and the bundled one used', () => {
    const dir = tmpDataDir();
    mkdirSync(join(dir, 'catalog'), { recursive: true });
    writeFileSync(join(dir, 'catalog', 'catalog.json'), '{"format":1,"elements":[{"NORAD_CAT_ID":');
    const svc = new CatalogService({ dataDir: dir, clock: clock() });
    assert.equal(svc.current().origin, 'bundled');
    assert.ok(readdirSync(join(dir, 'catalog')).some((f) => f.startsWith('catalog.json.corrupt-')));
    assert.ok(!existsSync(join(dir, 'catalog', 'catalog.json')));
  });

  it('bad records in the persisted catalog are skipped, the rest used', () => {
    const dir = tmpDataDir();
    mkdirSync(join(dir, 'catalog'), { recursive: true });
    const elements = [bundledElements[0], { ...bundledElements[1], ECCENTRICITY: 3 }, { junk: true }];
    writeFileSync(join(dir, 'catalog', 'catalog.json'), JSON.stringify({ format: 1, refreshed_at: '2026-08-22T00:00:00Z', sources: ['x'], elements }));
    const cat = new CatalogService({ dataDir: dir, clock: clock() }).current();
    assert.equal(cat.origin, 'refreshed');
    assert.equal(cat.satellites.length, 1);
  });

  it('GET /api/v1/satellites lists spec items without elements', async () => {
    const s = await startServer();
    try {
      const r = await s.get('/api/v1/satellites');
      assert.equal(r.status, 200);
      assert.equal(r.body.count, r.body.items.length);
      assert.equal(r.body.refreshed, false);
      assert.equal(r.body.ephemerisRefreshed, false);
      assert.equal(r.body.refreshError, null);
      const so50 = r.body.items.find((x: { sat_id: string }) => x.sat_id === 'so-50');
      assert.deepEqual(Object.keys(so50).sort(), ['has_amateur_radio', 'is_iss', 'name', 'norad_id', 'operational_status', 'repeaters', 'sat_id', 'transponders']);
      assert.equal(so50.norad_id, 27607);
      assert.equal((await s.get('/api/v1/satellites?refresh_from_sources=maybe')).status, 400);
    } finally {
      await s.stop();
    }
  });
});

describe('the catalog document', () => {
  it('built in steps, its bytes are JSON.stringify of the whole document (id map in NORAD order)', () => {
    const cat = new CatalogService({ dataDir: tmpDataDir(), clock: clock() }).current();
    const doc = catalogDocument(cat, '2026-08-22T12:00:00.000Z', ['https://example.org/a']);
    const expected = JSON.stringify({
      format: 1,
      refreshed_at: '2026-08-22T12:00:00.000Z',
      sources: ['https://example.org/a'],
      version: cat.version,
      sat_ids: Object.fromEntries(cat.satellites.map((s) => [String(s.norad_id), s.sat_id])),
      elements: cat.satellites.map((s) => s.elements),
    });
    assert.equal(doc.toString('utf8'), expected);
  });
});
