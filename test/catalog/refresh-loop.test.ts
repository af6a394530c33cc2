// A refresh to a catalogue as large as the station holds (29k objects: parse, validate, merge, 29k
// new sat ids written, the catalog built and persisted) must leave the event loop turning: the rig
// and TNC drivers and every HTTP answer wait about a slice (8 ms), not the whole of a step. Checked
// against the old figure, not a budget: the event-loop thread's CPU time between two turns of a
// 5 ms timer (wall time would count a loaded machine's scheduling). Before, the longest such
// stretch was 75–90 ms here (29k sat ids validated and serialised twice in one go, the body
// joined in one copy); sliced, it is a slice plus a GC pause (20–30 ms here).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { bundledElements } from '../../src/catalog/bundled.js';
import { CatalogService, CATALOG_FILE } from '../../src/catalog/catalog-service.js';
import { parseCatalogText } from '../../src/catalog/parse.js';
import { CatalogRefresh } from '../../src/catalog/refresh-service.js';
import { SnapshotService } from '../../src/catalog/snapshots.js';
import { CatalogSourcesSchema, defaultCatalogSources } from '../../src/catalog/sources.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { loadConfig } from '../../src/config.js';
import { JsonStore } from '../../src/store/json-store.js';
import { FixedClock } from '../../src/util/clock.js';
import { loopProbe, loopProbeAvailable } from '../helpers/loop-probe.js';
import { tmpDataDir } from '../helpers/server.js';
import { shiftEpoch } from './fixtures/catalog-data.js';
import { startSourceServer, type SourceServer } from './fixtures/source-server.js';

const T0 = Date.parse('2026-08-22T12:00:00Z');
/** Under MAX_CATALOG_RECORDS (30k): the largest catalogue a refresh accepts. */
const OBJECTS = 29_000;

/** Distinct, valid objects: the bundled element sets under new NORAD ids, names and phases. */
function generatedCatalog(): OmmElements[] {
  const out: OmmElements[] = [];
  for (let i = 0; i < OBJECTS; i++) {
    const e = bundledElements[i % bundledElements.length];
    out.push({ ...e, NORAD_CAT_ID: 200_000 + i, OBJECT_NAME: `GENSAT ${i}`, OBJECT_ID: `2026-${String(i).padStart(5, '0')}`, EPOCH: shiftEpoch(e.EPOCH, 0.5), MEAN_ANOMALY: (e.MEAN_ANOMALY + i * 0.01) % 360 });
  }
  return out;
}

describe('a whole-catalogue refresh keeps the event loop turning', () => {
  let src: SourceServer;
  const records = generatedCatalog();
  before(async () => {
    src = await startSourceServer();
    // Bytes, not a string: the source server shares this process and its own encoding is not the refresh's work.
    const bytes = Buffer.from(JSON.stringify(records));
    src.set('/all.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bytes);
    });
  });
  after(() => src.close());

  it('timers keep firing through parse, merge, 29k new sat ids, build and persist; the result is the whole source', { skip: !loopProbeAvailable && 'needs Linux schedstat' }, async () => {
    const dataDir = tmpDataDir();
    const clock = new FixedClock(T0);
    const config = { ...loadConfig({}), dataDir, catalogSources: [src.base + '/all.json'] };
    const catalogSources = new JsonStore({ dir: dataDir, name: 'catalog-sources', schema: CatalogSourcesSchema, defaults: defaultCatalogSources });
    await catalogSources.update({ status_url: '' });
    const catalog = new CatalogService({ dataDir, clock });
    const refresh = new CatalogRefresh({ config, clock, stores: { catalogSources }, catalog, snapshots: new SnapshotService(dataDir, clock, catalog), isOffline: () => false });

    // A running station has run SGP4 already (its boot computed passes): the first use compiles it.
    parseCatalogText(JSON.stringify(bundledElements), { nowMs: T0 });

    const probe = loopProbe(5);
    const report = await refresh.refresh('test');
    await catalog.stop(); // the sat-ids write the refresh started is part of the work
    const { turns, maxCpuMs } = probe.stop();

    assert.equal(report.error, null);
    assert.equal(report.replaced, true);
    assert.equal(report.count, OBJECTS); // the one source names every object: the bundled ones leave
    const sat = catalog.current().byNorad.get(200_123);
    assert.equal(sat?.name, 'GENSAT 123');
    // Persisted: the catalog file and every new id.
    const persisted = JSON.parse(readFileSync(join(catalog.dir, CATALOG_FILE), 'utf8'));
    assert.equal(persisted.elements.length, report.count);
    const ids = JSON.parse(readFileSync(join(catalog.dir, 'sat-ids.json'), 'utf8'));
    assert.equal(ids['200123'], sat?.sat_id);
    assert.ok(Object.keys(ids).length >= OBJECTS);

    assert.ok(turns >= 50, `only ${turns} timer turns ran during the refresh`);
    assert.ok(maxCpuMs < 50, `the loop ran ${maxCpuMs.toFixed(1)} ms of CPU without a timer turn (75–90 ms before slicing)`);
  });
});
