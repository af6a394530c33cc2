import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { json2satrec, sgp4, twoline2satrec, type OMMJsonObject } from 'satellite.js';
import { ommRecord } from '../../src/catalog/omm.js';
import { detectFormat, KEPT_SKIPPED, parseCatalogText } from '../../src/catalog/parse.js';
import { parseCatalogNumber, tleChecksumOk, tleEpochToIso, tleToElements } from '../../src/catalog/tle.js';
import { satrecFromElements } from '../../src/catalog/validate.js';
import { ISS, SO50, patchTleLine } from './fixtures/tle-helpers.js';

const NOW = Date.parse('2026-08-22T12:00:00Z');
const crlf = (...sets: string[][]) => sets.flat().join('\r\n') + '\r\n';
const lf = (...sets: string[][]) => sets.flat().join('\n') + '\n';

describe('TLE → OMM elements', () => {
  it('converts the ISS set exactly (golden values)', () => {
    const r = parseCatalogText(crlf(ISS), { nowMs: NOW });
    assert.equal(r.format, 'tle');
    assert.equal(r.error, null);
    assert.deepEqual(r.records, [
      {
        OBJECT_NAME: 'ISS (ZARYA)',
        OBJECT_ID: '1998-067A',
        EPOCH: '2026-08-22T12:00:46.122912',
        MEAN_MOTION: 15.49570248,
        ECCENTRICITY: 0.0007668,
        INCLINATION: 51.6331,
        RA_OF_ASC_NODE: 331.8814,
        ARG_OF_PERICENTER: 72.6488,
        MEAN_ANOMALY: 287.5339,
        EPHEMERIS_TYPE: 0,
        CLASSIFICATION_TYPE: 'U',
        NORAD_CAT_ID: 25544,
        ELEMENT_SET_NO: 999,
        REV_AT_EPOCH: 58203,
        BSTAR: 0.00017025,
        MEAN_MOTION_DOT: 0.00009133,
        MEAN_MOTION_DDOT: 0,
      },
    ]);
  });

  it('epoch conversion matches CelesTrak OMM to the microsecond', () => {
    // AO-7 in amateur.omm.json: EPOCH 2025-06-28T13:39:45.451584 is TLE epoch 25179.56927606.
    assert.equal(tleEpochToIso(25, '179.56927606'), '2025-06-28T13:39:45.451584');
    assert.equal(tleEpochToIso(99, '  1.00000000'), '1999-01-01T00:00:00.000000');
    assert.equal(tleEpochToIso(56, '366.99999999'), '2056-12-31T23:59:59.999136');
  });

  it('negative exponent fields and negative ndot', () => {
    const l1 = patchTleLine(ISS[1], 33, '-.00001234 -12345-5 -11606-4');
    const el = tleToElements({ name: 'X', line1: l1, line2: ISS[2] });
    assert.ok(!('reason' in el));
    assert.equal(el.MEAN_MOTION_DOT, -0.00001234);
    assert.equal(el.MEAN_MOTION_DDOT, -0.12345e-5);
    assert.equal(el.BSTAR, -0.11606e-4);
  });

  it('propagates like satellite.js twoline2satrec on the same set (within a metre)', () => {
    const el = parseCatalogText(lf(ISS)).records[0];
    const a = sgp4(satrecFromElements(el), 90)!.position as { x: number; y: number; z: number };
    const b = sgp4(twoline2satrec(ISS[1], ISS[2]), 90)!.position as { x: number; y: number; z: number };
    assert.ok(Math.hypot(a.x - b.x, a.y - b.y, a.z - b.z) < 0.001);
  });

  it('CRLF and LF give identical records; space-padded names are trimmed', () => {
    const a = parseCatalogText(crlf(ISS, SO50));
    const b = parseCatalogText(lf(ISS, SO50));
    assert.deepEqual(a.records, b.records);
    assert.deepEqual(a.records.map((r) => r.OBJECT_NAME), ['ISS (ZARYA)', 'SAUDISAT 1C (SO-50)']);
  });

  it('a checksum failure skips that set only, with a reason', () => {
    const bad = [SO50[0], SO50[1], SO50[2].slice(0, 68) + String((Number(SO50[2][68]) + 1) % 10)];
    const r = parseCatalogText(lf(ISS, bad));
    assert.deepEqual(r.records.map((x) => x.NORAD_CAT_ID), [25544]);
    assert.equal(r.skipped.length, 1);
    assert.equal(r.skipped[0].norad_id, 27607);
    assert.match(r.skipped[0].reason, /line 2 checksum/);
    assert.equal(tleChecksumOk(SO50[2]), true);
  });

  it('Alpha-5 catalogue numbers: A0001 = 100001, Z9999 = 339999', () => {
    assert.equal(parseCatalogNumber('A0001'), 100001);
    assert.equal(parseCatalogNumber('J2931'), 182931);
    assert.equal(parseCatalogNumber('Z9999'), 339999);
    assert.equal(parseCatalogNumber('I0001'), null); // I and O are not used
    assert.equal(parseCatalogNumber('00005'), 5);
    const set = ['ALPHA FIVE', patchTleLine(ISS[1], 2, 'A0001'), patchTleLine(ISS[2], 2, 'A0001')];
    const r = parseCatalogText(lf(set), { nowMs: NOW });
    assert.equal(r.records.length, 1);
    assert.equal(r.records[0].NORAD_CAT_ID, 100001);
    assert.equal(satrecFromElements(r.records[0]).satnum, '100001');
  });

  it('garbage lines, orphan lines and a truncated last set are reported, never fatal', () => {
    const text = ['# comment', 'hello world', ...ISS, 'junk', '1 27607U lonely line one  with nothing after it xxxxxxxxxxxxxxxxxxx', ...SO50, SO50[0], SO50[1].slice(0, 40)].join('\n');
    const r = parseCatalogText(text, { nowMs: NOW });
    assert.deepEqual(r.records.map((x) => x.NORAD_CAT_ID), [25544, 27607]);
    assert.ok(r.skipped.length >= 3);
    assert.ok(r.skipped.every((s) => s.reason.length > 0));
  });

  it('two-line sets without name lines and the "0 NAME" 3LE variant', () => {
    const r = parseCatalogText(lf([ISS[1], ISS[2]], ['0 SO-50 BIRD', SO50[1], SO50[2]]));
    assert.deepEqual(r.records.map((x) => x.OBJECT_NAME), ['25544', 'SO-50 BIRD']);
  });
});

describe('OMM JSON', () => {
  const base = {
    OBJECT_NAME: 'FUTURE SAT', OBJECT_ID: '2026-123A', EPOCH: '2026-08-21T10:00:00.123456', MEAN_MOTION: 15.1,
    ECCENTRICITY: 0.001, INCLINATION: 97.5, RA_OF_ASC_NODE: 10, ARG_OF_PERICENTER: 20, MEAN_ANOMALY: 30,
    EPHEMERIS_TYPE: 0, CLASSIFICATION_TYPE: 'U', NORAD_CAT_ID: 123456, ELEMENT_SET_NO: 999, REV_AT_EPOCH: 12,
    BSTAR: 0.0001, MEAN_MOTION_DOT: 0.00001, MEAN_MOTION_DDOT: 0,
  };

  it('six-digit NORAD ids pass through and propagate', () => {
    const r = parseCatalogText(JSON.stringify([base]), { nowMs: NOW });
    assert.equal(r.format, 'omm-json');
    assert.equal(r.records.length, 1);
    assert.equal(r.records[0].NORAD_CAT_ID, 123456);
    assert.equal(r.records[0].EPOCH, '2026-08-21T10:00:00.123456');
    const rec = satrecFromElements(r.records[0]);
    assert.ok(sgp4(rec, 60));
  });

  it('Space-Track style numeric strings are accepted', () => {
    const s = Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)]));
    const r = parseCatalogText(JSON.stringify([s]));
    assert.equal(r.records[0].MEAN_MOTION, 15.1);
    assert.equal(r.records[0].NORAD_CAT_ID, 123456);
  });

  it('impossible elements are skipped with the reason, the rest kept', () => {
    const recs = [
      base,
      { ...base, NORAD_CAT_ID: 2, ECCENTRICITY: 1.2 },
      { ...base, NORAD_CAT_ID: 3, MEAN_MOTION: 0 },
      { ...base, NORAD_CAT_ID: 4, MEAN_MOTION: 45 },
      { ...base, NORAD_CAT_ID: 5, INCLINATION: 200 },
      { ...base, NORAD_CAT_ID: 6, EPOCH: 'yesterday' },
      { ...base, NORAD_CAT_ID: 7, MEAN_MOTION: 'fast' },
      { ...base, NORAD_CAT_ID: 8, DECAY_DATE: '2026-05-01' },
      { ...base, NORAD_CAT_ID: 9, MEAN_MOTION: 16.4, BSTAR: 0.05, EPOCH: '2026-05-01T00:00:00' },
      'not an object',
    ];
    const r = parseCatalogText(JSON.stringify(recs), { nowMs: NOW });
    assert.deepEqual(r.records.map((x) => x.NORAD_CAT_ID), [123456]);
    const why = new Map(r.skipped.map((s) => [s.norad_id, s.reason]));
    assert.match(why.get(2)!, /eccentricity/);
    assert.match(why.get(3)!, /mean motion/);
    assert.match(why.get(4)!, /absurd/);
    assert.match(why.get(5)!, /inclination/);
    assert.match(why.get(6)!, /EPOCH/);
    assert.match(why.get(7)!, /MEAN_MOTION/);
    assert.match(why.get(8)!, /decayed/);
    assert.match(why.get(9)!, /decayed|SGP4/);
    assert.equal(r.skipped.length, 9);
  });

  it('duplicates keep the newest epoch', () => {
    const r = parseCatalogText(JSON.stringify([base, { ...base, EPOCH: '2026-08-22T00:00:00', MEAN_ANOMALY: 99 }, { ...base, EPOCH: '2026-08-01T00:00:00' }]));
    assert.equal(r.records.length, 1);
    assert.equal(r.records[0].MEAN_ANOMALY, 99);
  });

  it('the real amateur OMM file parses and matches satellite.js json2satrec', () => {
    const text = readFileSync(new URL('../../src/catalog/data/bundled-catalog.json', import.meta.url), 'utf8');
    const r = parseCatalogText(text, { nowMs: NOW });
    assert.ok(r.records.length > 90);
    assert.equal(r.skipped.length, 0);
    const iss = r.records.find((x) => x.NORAD_CAT_ID === 25544)!;
    const a = sgp4(satrecFromElements(iss), 0)!.position as { x: number };
    const b = sgp4(json2satrec(iss as unknown as OMMJsonObject), 0)!.position as { x: number };
    assert.equal(a.x, b.x);
  });
});

describe('format detection by content', () => {
  it('recognises JSON, TLE, HTML, empty and garbage regardless of any name', () => {
    assert.equal(detectFormat(' \n[{"a":1}]'), 'omm-json');
    assert.equal(detectFormat('\uFEFF' + lf(ISS)), 'tle');
    assert.equal(detectFormat('<!DOCTYPE html><html><body>Forbidden</body></html>'), 'html');
    assert.equal(detectFormat('   '), 'empty');
    assert.equal(detectFormat('No GP data found'), 'unknown');
  });

  it('HTML, truncated JSON and garbage are errors with a clear message', () => {
    assert.match(parseCatalogText('<html><body>rate limited</body></html>').error!, /HTML/);
    const full = JSON.stringify([{ NORAD_CAT_ID: 1 }, { NORAD_CAT_ID: 2 }]);
    assert.match(parseCatalogText(full.slice(0, full.length - 5)).error!, /not valid JSON/);
    assert.match(parseCatalogText('lorem ipsum\ndolor').error!, /neither/);
    assert.match(parseCatalogText('[]').error!, /no usable records/);
  });
});

describe('junk records past the kept sample', () => {
  it('only the kept skipped records have every problem named; the rest stop at the first (less garbage per junk object)', () => {
    const junk = { a: 1 };
    const full = ommRecord(junk);
    const brief = ommRecord(junk, true);
    assert.ok('reason' in full && 'reason' in brief);
    assert.ok(full.reason.split(';').length > 3, full.reason);
    assert.equal(brief.reason.split(';').length, 1, brief.reason);
    const r = parseCatalogText(JSON.stringify(Array.from({ length: 200 }, () => junk)));
    assert.equal(r.skippedCount, 200);
    assert.equal(r.skipped.length, KEPT_SKIPPED);
    for (const s of r.skipped) assert.equal(s.reason, full.reason);
  });
});
