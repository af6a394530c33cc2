import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodePassRates, encodePassRates, encodePassRatesParts, PASS_RATES_FILE, readPassRates, type PassRateEntry } from '../../src/guidance/pass-rates-file.js';
import { plainPass } from '../../src/orbit/pass-table.js';
import { startServer, tmpDataDir } from '../helpers/server.js';

// Each pass's phase range rates (five propagations) are kept across restarts: the /passes
// warm-up after boot then costs a file read instead of ~5000 propagations at a tenth of a core.

describe('the pass rates file', () => {
  it('reads back what was written, for its catalog only; bad entries are left out, a bad file is unusable', () => {
    const text = encodePassRates('c1', [
      ['iss|1000|2000', [1, 2, 3, 4, 5]],
      ['so-50|3000|4000', null],
    ]);
    assert.deepEqual(decodePassRates(text, 'c1'), { kind: 'entries', entries: [['iss|1000|2000', [1, 2, 3, 4, 5]], ['so-50|3000|4000', null]] });
    assert.deepEqual(decodePassRates(text, 'c2'), { kind: 'unusable', why: 'for catalog c1' });
    assert.equal(decodePassRates('{"format":1', 'c1').kind, 'unusable');
    assert.equal(decodePassRates('[1,2]', 'c1').kind, 'unusable');
    const mixed = JSON.stringify({ format: 1, catalog_version: 'c1', entries: [['a|1|2', [1, 2, 3]], ['b|1|2', [1, 2, 3, 4, 'x']], [5, null], ['c|1|2', [1, 2, 3, 4, 5]]] });
    assert.deepEqual(decodePassRates(mixed, 'c1'), { kind: 'entries', entries: [['c|1|2', [1, 2, 3, 4, 5]]] });
    const dir = tmpDataDir('satstation-pass-rates-');
    assert.deepEqual(readPassRates(join(dir, PASS_RATES_FILE), 'c1'), { entries: null, note: 'no file yet' });
    rmSync(dir, { recursive: true, force: true });
  });

  it('in parts, the same text as at once', () => {
    const entries: PassRateEntry[] = Array.from({ length: 457 }, (_, i) => [`sat-${i}|${i * 1000}|${i * 1000 + 600}`, i % 7 === 0 ? null : [i / 3, -i, 0.1 * i, 1e-9 * i, i]]);
    for (const n of [0, 1, 200, 457]) {
      const parts = [...encodePassRatesParts('c1', entries.slice(0, n))];
      assert.equal(parts.join(''), encodePassRates('c1', entries.slice(0, n)), `${n} entries`);
      assert.equal(parts.length, 2 + Math.ceil(n / 200));
    }
  });
});

describe('guidance keeps its pass rates across a restart', () => {
  const dataDir = tmpDataDir('satstation-pass-rates-app-');
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const NOW = '2026-08-22T12:00:00Z';

  /** The next rs-44 pass and the range rate guidance reads for its middle, on a fresh server. */
  async function midRate(): Promise<{ rate: number; rows: unknown; key: string; version: string }> {
    const s = await startServer({ dataDir, now: NOW });
    try {
      await s.app.services.orbit.table.ready();
      const g = s.app.services.guidance;
      g.loadPassRates();
      const pass = s.app.services.orbit.currentOrNextPass('rs-44', s.clock.now())!;
      const r = g.recommend('rs-44', (pass.aos_ms + pass.los_ms) / 2, { pass })!;
      assert.equal(r.track.range_rate_source, 'path');
      return { rate: r.track.range_rate_km_s, rows: r.matrix!.rows, key: `rs-44|${pass.aos_ms}|${pass.los_ms}`, version: s.app.services.catalog.current().version };
    } finally {
      await s.stop(); // the stop keeps what was computed
    }
  }

  it('a restart reads the rates the last run computed and gives the same guidance; a file for another catalog is ignored', async () => {
    const first = await midRate();
    const file = join(dataDir, PASS_RATES_FILE);
    assert.ok(existsSync(file), 'the stop kept the rates');
    const kept = decodePassRates(readFileSync(file, 'utf8'), first.version);
    assert.equal(kept.kind, 'entries');
    const entry = kept.kind === 'entries' ? kept.entries.find(([k]) => k === first.key) : undefined;
    assert.ok(entry?.[1], `the pass ${first.key} is in the file`);
    assert.equal(entry[1][2], first.rate, 'the middle phase reads the third rate');

    const again = await midRate();
    assert.deepEqual(again, first, 'the same guidance from the file');

    // A rate only the file can have: the restart reads it, not a fresh propagation.
    writeFileSync(file, encodePassRates(first.version, [[first.key, [1, 2, 3.5, 4, 5]]]));
    assert.equal((await midRate()).rate, 3.5);
    // The same file for another catalog: computed again.
    writeFileSync(file, encodePassRates('another-catalog', [[first.key, [1, 2, 3.5, 4, 5]]]));
    assert.equal((await midRate()).rate, first.rate);
  });

  it('a running station writes them in turns: the last run\'s file read in one, each part of the text in another', async () => {
    const first = await midRate(); // a file from a last run
    const s = await startServer({ dataDir, now: NOW });
    try {
      await s.app.services.orbit.table.ready();
      const g = s.app.services.guidance;
      // A rate of this run, on a pass the last run did not see.
      const next = s.app.services.orbit.currentOrNextPass('ao-91', s.clock.now())!;
      const pass = { ...plainPass(next), aos_ms: next.aos_ms + 7 };
      assert.equal(g.recommend('ao-91', (pass.aos_ms + pass.los_ms) / 2, { pass })!.track.range_rate_source, 'path');
      let pauses = 0;
      await g.persistPassRates(s.clock.now(), async () => {
        pauses++;
        await new Promise((r) => setImmediate(r));
      });
      const kept = decodePassRates(readFileSync(join(dataDir, PASS_RATES_FILE), 'utf8'), first.version);
      assert.equal(kept.kind, 'entries');
      const keys = new Set(kept.kind === 'entries' ? kept.entries.map(([k]) => k) : []);
      assert.ok(keys.has(first.key), 'what the last run kept stays');
      assert.ok(keys.has(`ao-91|${pass.aos_ms}|${pass.los_ms}`), 'what this run computed is added');
      // The read, the head, each part of 200 entries and the tail.
      assert.equal(pauses, 1 + 2 + Math.ceil(keys.size / 200), `${pauses} pauses for ${keys.size} entries`);
    } finally {
      await s.stop();
    }
  });

  it('a stop during that background write lets it finish at once, with this run\'s rates', async () => {
    await midRate(); // a file from a last run
    const s = await startServer({ dataDir, now: NOW });
    await s.app.services.orbit.table.ready();
    const g = s.app.services.guidance;
    const next = s.app.services.orbit.currentOrNextPass('ao-91', s.clock.now())!;
    const pass = { ...plainPass(next), aos_ms: next.aos_ms + 11 };
    g.recommend('ao-91', (pass.aos_ms + pass.los_ms) / 2, { pass });
    g.loadPassRates(); // read already: the first pause is the text's
    let pauses = 0;
    let stopping: Promise<void> | null = null;
    const writing = g.persistPassRates(s.clock.now(), async () => {
      pauses++;
      // The station stops while the write waits between two parts of its text.
      stopping ??= s.stop();
      await new Promise((r) => setTimeout(r, 20));
    });
    await writing;
    await stopping;
    assert.equal(pauses, 1, 'no pause after the stop began');
    const version = s.app.services.catalog.current().version;
    const kept = decodePassRates(readFileSync(join(dataDir, PASS_RATES_FILE), 'utf8'), version);
    assert.ok(kept.kind === 'entries' && kept.entries.some(([k]) => k === `ao-91|${pass.aos_ms}|${pass.los_ms}`), 'the rate computed before the stop is kept');
  });

  it('nothing is written once stopped: the data directory may be gone by then', async () => {
    const s = await startServer({ dataDir, now: NOW });
    const g = s.app.services.guidance;
    await s.app.services.orbit.table.ready();
    await s.stop();
    rmSync(join(dataDir, PASS_RATES_FILE), { force: true });
    // Rates computed after the stop (a late caller; a pass no warm-up has seen) stay in memory.
    const next = s.app.services.orbit.currentOrNextPass('ao-91', s.clock.now())!;
    const pass = { ...plainPass(next), aos_ms: next.aos_ms + 1 };
    assert.equal(g.recommend('ao-91', (pass.aos_ms + pass.los_ms) / 2, { pass })!.track.range_rate_source, 'path');
    await g.persistPassRates(s.clock.now());
    assert.ok(!existsSync(join(dataDir, PASS_RATES_FILE)));
  });
});
