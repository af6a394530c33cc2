import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { activeTlePath } from '../../bench/data.js';
import { elementTexts, plainElements, rowPlace } from '../../src/catalog/element-table.js';
import { parseOffThread } from '../../src/catalog/parse-job.js';
import type { OmmElements } from '../../src/catalog/types.js';
import { jsonArraySteps } from '../../src/util/json-bytes.js';
import { drain } from '../../src/util/loop-slices.js';
import { parseCatalogText } from '../../src/catalog/parse.js';
import { OFF_THREAD_PARSE_BYTES, pollSource } from '../../src/catalog/poll-source.js';
import { SourceStateStore } from '../../src/catalog/source-state.js';
import { tmpDataDir } from '../helpers/server.js';
import { newerCatalog, ommText, SIX_DIGIT } from './fixtures/catalog-data.js';
import { tinyObjects } from './fixtures/hostile.js';
import { body, startSourceServer } from './fixtures/source-server.js';

// A large source body parsed on a worker thread (issue 36): the same result as the parse on the
// loop, the body handed over rather than copied, and pollSource choosing by the body's size.

const NOW = Date.parse('2026-07-24T12:00:00Z'); // active.tle's data date
const signal = () => new AbortController().signal;

async function bothWays(text: string, nowMs = NOW) {
  const here = parseCatalogText(text, { nowMs });
  const buf = Buffer.from(text);
  const off = await parseOffThread(buf, { nowMs }, signal());
  assert.equal(off.kind, 'done', JSON.stringify(off));
  assert.equal(buf.length, 0, 'the body was handed to the worker, not copied');
  return { here, off: off.kind === 'done' ? off.value : null! };
}

test('parse on a worker thread: the whole active catalogue (TLE) gives the records, skips and format of the parse here', async () => {
  const { here, off } = await bothWays(readFileSync(activeTlePath(), 'utf8'));
  assert.ok(here.records.length > 15_000);
  assert.deepEqual({ ...off, records: off.records.map(plainElements) }, { ...here, records: here.records.map(plainElements) });
  // The worker's records are views of one element table; a file written from either is the same bytes.
  assert.ok(rowPlace(off.records[0]) && !rowPlace(here.records[0]));
  const written = (records: readonly OmmElements[]) => drain(jsonArraySteps(elementTexts(records))).toString();
  assert.equal(written(off.records), written(here.records));
});

test('parse on a worker thread: OMM JSON with and without the optional fields, numeric text included', async () => {
  const { OBJECT_ID: _id, CLASSIFICATION_TYPE: _c, EPHEMERIS_TYPE: _e, ...bare } = SIX_DIGIT;
  const els = [...newerCatalog(), { ...bare, NORAD_CAT_ID: 100235 }, { ...SIX_DIGIT, BSTAR: '0.00021', OBJECT_NAME: 'ODD\u0000NAME' }];
  const { here, off } = await bothWays(ommText(els));
  assert.equal(here.records.length, els.length);
  assert.equal(off.records.length, here.records.length);
  const plainOff = off.records.map(plainElements);
  assert.deepEqual(plainOff.slice(0, -1), here.records.slice(0, -1));
  const bareOff = off.records[els.length - 2];
  assert.ok(!('OBJECT_ID' in plainOff[els.length - 2]) && !('EPHEMERIS_TYPE' in plainOff[els.length - 2]), 'absent stays absent');
  assert.ok(bareOff.OBJECT_ID === undefined && bareOff.EPHEMERIS_TYPE === undefined && bareOff.CLASSIFICATION_TYPE === undefined, 'the view reads an absent optional as undefined');
  // The packing's own separators never occur in a real catalogue: a name carrying one is mended.
  assert.deepEqual(plainOff.at(-1), { ...here.records.at(-1), OBJECT_NAME: 'ODD\uFFFDNAME' });
});

test('parse on a worker thread: a hostile body of 15 MiB of tiny objects is refused as the parse here refuses it', async () => {
  const { here, off } = await bothWays(tinyObjects(15 * 1024 * 1024));
  assert.match(here.error ?? '', /more than 30000 records/);
  assert.deepEqual(off, here);
});

test('pollSource parses a large body on a worker thread and a group of a few hundred objects here', async () => {
  const src = await startSourceServer();
  const dir = tmpDataDir();
  try {
    const active = readFileSync(activeTlePath(), 'utf8');
    const small = ommText(newerCatalog());
    assert.ok(active.length >= OFF_THREAD_PARSE_BYTES && small.length < OFF_THREAD_PARSE_BYTES);
    src.set('/active.tle', body(active, 'text/plain'));
    src.set('/small.json', body(small));
    const state = new SourceStateStore(dir, () => NOW);
    const o = { nowMs: NOW, timeoutMs: 10_000, maxBytes: 32 * 1024 * 1024 };
    const big = await pollSource(src.base + '/active.tle', state, o);
    assert.equal(big.status, 'fetched', big.message);
    assert.equal(big.parsedOffThread, true);
    assert.equal(big.records?.length, parseCatalogText(active, { nowMs: NOW }).records.length);
    const group = await pollSource(src.base + '/small.json', state, o);
    assert.equal(group.status, 'fetched', group.message);
    assert.equal(group.parsedOffThread, false);
    await state.flush();
  } finally {
    await src.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
