import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildProfileFiles } from '../../src/guidance/tools/profile-files.js';

// The server loads prebuilt profiles at boot instead of the raw SatNOGS snapshot: they must be
// exactly what the builder makes of the snapshot (rerun src/guidance/tools/build-profiles.ts).

describe('prebuilt profile files', () => {
  it('match what the bundled transmitter snapshot builds', () => {
    const { texts } = buildProfileFiles();
    for (const [name, text] of Object.entries(texts)) {
      assert.equal(readFileSync(join(import.meta.dirname, '../../src/guidance/data', name), 'utf8'), text, `${name} is stale: run npx tsx src/guidance/tools/build-profiles.ts`);
    }
  });
});
