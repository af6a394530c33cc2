import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import type { Catalog, Satellite } from '../../src/catalog/types.js';
import { DEFAULT_LOCATION } from '../../src/orbit/location-types.js';
import { OrbitEngine } from '../../src/orbit/orbit-service.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';
import { loadTle, T0 } from './helpers.js';

// /live of every satellite on a worker thread (issue 36): the same bytes the loop makes, so the
// answer does not depend on where it was made.

const sats = loadTle('amateur.tle');
const satellites = sats.map((s) => ({ ...s, sat_id: `n${s.sat_id}`, name: `${s.name} "q"`, norad_id: s.elements.NORAD_CAT_ID }) as unknown as Satellite);
const cat: Catalog = { version: 'v1', satellites, byId: new Map(), byNorad: new Map(), origin: 'test', loaded_at_ms: T0 };

function engine(workerFromSatellites?: number) {
  const dir = tmpDataDir();
  const e = new OrbitEngine({
    clock: new FixedClock(T0),
    dataDir: dir,
    catalog: { current: () => cat, onChange: () => () => {} },
    location: { resolved: () => DEFAULT_LOCATION, onChange: () => () => {} },
    workerFromSatellites,
  });
  return { e, done: async () => (await e.stop(), rmSync(dir, { recursive: true, force: true })) };
}

test('live of every satellite: the worker thread gives the bytes the loop gives, at the whole second', async () => {
  const onLoop = engine();
  const off = engine(1);
  try {
    const t = T0 + 12_345;
    const a = await onLoop.e.liveAllJson(t);
    const b = await off.e.liveAllJson(t);
    assert.equal(off.e.lastWorkerFailure, null);
    assert.deepEqual([onLoop.e.liveSweepsOffThread, off.e.liveSweepsOffThread], [0, 1]);
    assert.equal(b.second_ms, T0 + 12_000);
    assert.equal(b.items.count, sats.length);
    assert.equal(b.items.json.toString(), a.items.json.toString());
    assert.deepEqual(JSON.parse(b.items.json.toString()), onLoop.e.live(t), 'the samples /live?sat_ids gives one by one');
    // The document around the array: the same bytes whether written in the worker's room or joined.
    const doc = { timestamp: new Date(b.second_ms).toISOString(), count: b.items.count };
    const joined = a.items.document(doc, 'items');
    const inPlace = b.items.document(doc, 'items');
    assert.equal(inPlace.buffer, b.items.json.buffer, 'written around the array, not copied');
    assert.notEqual(joined.buffer, a.items.json.buffer);
    assert.equal(inPlace.toString(), joined.toString());
    assert.deepEqual(JSON.parse(inPlace.toString()), { ...doc, items: onLoop.e.live(t) });
  } finally {
    await onLoop.done();
    await off.done();
  }
});
