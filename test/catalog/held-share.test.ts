import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { radioTable } from '../../src/catalog/bundled.js';
import { buildCatalog } from '../../src/catalog/catalog-build.js';
import { packElements, plainElements, rowPlace, sameElements } from '../../src/catalog/element-table.js';
import { SourceStateStore } from '../../src/catalog/source-state.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { drain } from '../../src/util/loop-slices.js';
import { newerCatalog, shiftEpoch, SIX_DIGIT } from './fixtures/catalog-data.js';

// A source's held records and the catalog built from them hold the same elements; after a refresh
// the held list is the catalog's own records, so a 16k source is not in memory twice.

const SOURCE = 'http://127.0.0.1:1/group.json';

test('held records the catalog holds too become its own; the others a small table of their own', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'held-share-'));
  try {
    const parsed = packElements(newerCatalog());
    const records = Array.from({ length: parsed.count }, (_, i) => parsed.row(i));
    const state = new SourceStateStore(dir, () => 0);
    await state.hold(SOURCE, records);
    // The catalog leaves out the first record (a repeat the merge dropped) and holds a newer epoch
    // of the second (another source's).
    const newer = { ...plainElements(records[1]), EPOCH: shiftEpoch(records[1].EPOCH, 1) };
    const elements = [newer, ...records.slice(2)];
    const ids = new Map(elements.map((e) => [e.NORAD_CAT_ID, `sat-${e.NORAD_CAT_ID}`]));
    const catalog = buildCatalog({ elements, ids, radio: radioTable, statuses: new Map(), origin: 'test', loadedAtMs: 0 });

    drain(state.shareHeldSteps(catalog));
    const held = (await state.held(SOURCE))!;
    assert.equal(held.length, records.length);
    for (let i = 0; i < records.length; i++) assert.deepEqual(plainElements(held[i]), plainElements(records[i]), `record ${i}: its elements and place kept`);
    for (let i = 2; i < records.length; i++) assert.equal(held[i], catalog.byNorad.get(records[i].NORAD_CAT_ID)!.elements, `record ${i}: the catalog's own`);
    const catalogTable = rowPlace(catalog.satellites[0].elements)!.table;
    for (const i of [0, 1]) {
      const place = rowPlace(held[i])!;
      assert.ok(place.table !== parsed && place.table !== catalogTable && place.table.count === 2, `record ${i}: in a table of the two left over`);
    }
    assert.ok(held.every((r) => rowPlace(r)!.table !== parsed), "nothing keeps the parse's table");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('sameElements: every field, an absent optional only equal to an absent one', () => {
  const row = packElements([SIX_DIGIT]).row(0);
  assert.ok(sameElements(row, SIX_DIGIT));
  for (const k of Object.keys(SIX_DIGIT) as (keyof OmmElements)[]) {
    const v = SIX_DIGIT[k];
    const changed = { ...SIX_DIGIT, [k]: typeof v === 'number' ? v + 1 : `${v}x` };
    assert.ok(!sameElements(row, changed), `${k} changed`);
    const { [k]: _gone, ...absent } = SIX_DIGIT;
    assert.ok(!sameElements(row, absent as OmmElements), `${k} absent`);
  }
});
