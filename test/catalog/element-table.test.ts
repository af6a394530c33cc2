import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { json2satrec } from 'satellite.js';
import { activeTlePath } from '../../bench/data.js';
import { bundledElements } from '../../src/catalog/bundled.js';
import { catalogVersion } from '../../src/catalog/catalog-build.js';
import { elementTexts, packElements, plainElements, rowPlace } from '../../src/catalog/element-table.js';
import { parseCatalogText } from '../../src/catalog/parse.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { SIX_DIGIT } from './fixtures/catalog-data.js';

// The catalogue's elements in columns (issue 36): a view reads what the record held, field by
// field; a record written from the table is the bytes JSON.stringify gives the record.

const active = parseCatalogText(readFileSync(activeTlePath(), 'utf8'), { nowMs: Date.parse('2026-07-24T12:00:00Z') }).records;
const FIELDS = Object.keys(SIX_DIGIT) as (keyof OmmElements)[];

test('element table: every view of the whole active catalogue reads its record, absent optionals as undefined', () => {
  const t = packElements(active);
  assert.equal(t.count, active.length);
  for (let i = 0; i < active.length; i++) {
    const row = t.row(i);
    for (const k of FIELDS) if (row[k] !== active[i][k]) assert.fail(`record ${i} ${k}: ${row[k]} ≠ ${active[i][k]}`);
  }
  const { OBJECT_ID: _i, EPHEMERIS_TYPE: _e, CLASSIFICATION_TYPE: _c, ELEMENT_SET_NO: _s, REV_AT_EPOCH: _r, ...bare } = SIX_DIGIT;
  const row = packElements([bare]).row(0);
  for (const k of ['OBJECT_ID', 'EPHEMERIS_TYPE', 'CLASSIFICATION_TYPE', 'ELEMENT_SET_NO', 'REV_AT_EPOCH'] as const) assert.equal(row[k], undefined, k);
  assert.deepEqual(plainElements(row), bare, 'absent stays absent in the plain copy');
  assert.deepEqual(Object.keys(plainElements(row)), Object.keys(plainElements(bare)));
});

test('element table: a record written from the table is the bytes JSON.stringify gives its plain copy, in the interface order', () => {
  const t = packElements(active);
  const texts = elementTexts(Array.from({ length: t.count }, (_, i) => t.row(i)));
  for (let i = 0; i < t.count; i++) {
    const plain = t.plain(i);
    if (texts.text(i) !== JSON.stringify(plain)) assert.fail(`record ${i}: ${texts.text(i)} ≠ ${JSON.stringify(plain)}`);
  }
  assert.equal(JSON.stringify(t.row(0)), JSON.stringify(t.plain(0)), 'toJSON');
  assert.deepEqual(Object.keys(t.plain(0)), ['OBJECT_NAME', 'OBJECT_ID', 'EPOCH', 'MEAN_MOTION', 'ECCENTRICITY', 'INCLINATION', 'RA_OF_ASC_NODE', 'ARG_OF_PERICENTER', 'MEAN_ANOMALY', 'EPHEMERIS_TYPE', 'CLASSIFICATION_TYPE', 'NORAD_CAT_ID', 'ELEMENT_SET_NO', 'REV_AT_EPOCH', 'BSTAR', 'MEAN_MOTION_DOT', 'MEAN_MOTION_DDOT']);
  // A plain record is written in the same order as a view of it.
  assert.equal(elementTexts([active[0]]).text(0), texts.text(0));
  // Odd texts survive: quotes, backslashes, control characters and non-ASCII.
  const odd = packElements([{ ...SIX_DIGIT, OBJECT_NAME: 'A "Q" \\ \u0002 É 🛰', EPOCH: '2026-08-22T01:02:03.456789' }]);
  assert.equal(odd.json(0), JSON.stringify(odd.plain(0)));
  assert.equal(JSON.parse(odd.json(0)).OBJECT_NAME, 'A "Q" \\ \u0002 É 🛰');
});

test('element table: views give the same satrecs and catalogue version as the records, and repack from their columns', () => {
  const t = packElements(bundledElements);
  const views = Array.from({ length: t.count }, (_, i) => t.row(i));
  assert.equal(catalogVersion(views), catalogVersion(bundledElements));
  for (let i = 0; i < t.count; i++) assert.deepEqual({ ...json2satrec(views[i] as never) }, { ...json2satrec(bundledElements[i] as never) });
  // Packing views (a catalog built from another table's records) copies their columns.
  const again = packElements([...views].reverse());
  assert.equal(rowPlace(again.row(0))?.table, again);
  assert.deepEqual(plainElements(again.row(0)), plainElements(bundledElements.at(-1)!));
  assert.deepEqual(Array.from(again.nums.subarray(0, 13)), Array.from(t.nums.subarray((t.count - 1) * 13, t.count * 13)));
});

test('element table: a table whose columns do not fit its count is refused', async () => {
  const { ElementTable } = await import('../../src/catalog/element-table.js');
  assert.throws(() => new ElementTable(2, new Float64Array(13), ['a', 'b', 'c', 'd']), /2 records/);
});
