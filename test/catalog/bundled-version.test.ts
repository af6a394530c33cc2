import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BUNDLED_CATALOG_VERSION, bundledElements } from '../../src/catalog/bundled.js';
import { catalogVersion } from '../../src/catalog/catalog-build.js';
import { CatalogService } from '../../src/catalog/catalog-service.js';
import { FixedClock } from '../../src/util/clock.js';
import { rmSync } from 'node:fs';
import { tmpDataDir } from '../helpers/server.js';

// A station on the bundled data takes its version as shipped instead of hashing the elements at
// every boot: it must be the version they hash to (make-bundled.ts writes it with the data).
describe('the bundled catalogue version', () => {
  it('is the version of the bundled elements', () => {
    assert.equal(BUNDLED_CATALOG_VERSION, catalogVersion(bundledElements));
  });

  it('is the version a station on the bundled data runs with', () => {
    const dir = tmpDataDir();
    const svc = new CatalogService({ dataDir: dir, clock: new FixedClock(Date.parse('2026-07-24T12:00:00Z')) });
    try {
      assert.equal(svc.current().origin, 'bundled');
      assert.equal(svc.current().version, BUNDLED_CATALOG_VERSION);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
