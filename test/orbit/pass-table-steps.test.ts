// Large pass tables are walked in steps (the extension's copy of the kept rows yields every few
// thousand passes) and saved from their own columns (no text, nothing copied), so neither a long
// stall nor a second copy of the table at once.
import assert from 'node:assert/strict';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadPassTable, PASS_CACHE_FILE, savePassTable } from '../../src/orbit/pass-table-file.js';
import { PassTable, tableKey } from '../../src/orbit/pass-table.js';
import { tmpDataDir } from '../helpers/server.js';
import { T0 } from './helpers.js';

const H = 3600_000;
const SATS = 500;
const PASSES = 80_000;

/** A big table of made-up passes (PASSES over SATS satellites, 48 h). */
function bigTable(): PassTable {
  const rows = new Float64Array(PASSES * 5);
  for (let k = 0; k < PASSES; k++) {
    const aos = T0 + Math.floor((k * 48 * H) / PASSES);
    rows.set([k % SATS, aos, aos + 240_000, aos + 480_000, (k % 900) / 10], k * 5);
  }
  const ids = Array.from({ length: SATS }, (_, i) => `sat-${i}`);
  return new PassTable(tableKey('v1', 51.4779, -0.0015, 46, 48), ids, ids, T0 - H, T0 + 54 * H, rows);
}

test('rowsSteps copies the kept rows in bounded steps and gives the same rows', () => {
  const t = bigTable();
  const keep = (k: number) => t.los[k] > T0 + 12 * H;
  const steps = t.rowsSteps(keep);
  let yields = 0;
  let r = steps.next();
  while (!r.done) {
    yields++;
    r = steps.next();
  }
  assert.ok(yields >= PASSES / 10_000 - 1, `${yields} yields over ${PASSES} passes`);
  assert.deepEqual(r.value, t.rows(keep));
  assert.equal(r.value.length / 5, t.size - t.select({ from_ms: -Infinity, to_ms: Infinity, min_max_el_deg: -90, include_ongoing: false, sats: null }).filter((p) => p.los_ms <= T0 + 12 * H).length);
});

test('a large pass table is written from its own columns and loads back the same, the loop turning meanwhile', async () => {
  const t = bigTable();
  const dir = tmpDataDir('pass-steps-');
  const path = join(dir, PASS_CACHE_FILE);
  try {
    let done = false;
    const saving = savePassTable(path, t).finally(() => (done = true));
    let turns = 0;
    while (!done) {
      await new Promise<void>((r) => setImmediate(r));
      turns++;
    }
    await saving;
    assert.ok(turns > 1, `the loop turned ${turns} times while the file was written`);
    assert.equal(statSync(path).size % 4, 0);
    assert.ok(readdirSync(dir).every((f) => f === PASS_CACHE_FILE), 'no temp file left');
    const back = await loadPassTable(path);
    assert.ok(back);
    assert.deepEqual(back.rows(), t.rows());
    assert.deepEqual(back.satIds, t.satIds);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
