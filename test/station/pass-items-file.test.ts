import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PASS_RATES_FILE } from '../../src/guidance/pass-rates-file.js';
import { decodePassItems, encodePassItems, PASS_ITEMS_FILE, passItemKey, readPassItems } from '../../src/station/pass-items-file.js';
import type { PassEvent } from '../../src/orbit/types.js';
import { startServer, tmpDataDir } from '../helpers/server.js';

// The /passes items of passes still to come are kept across restarts (issue 36): the first
// /passes after boot is then a concatenation of what the last run built, for the same catalog and
// profile set only, and a damaged file is never served.

const event = (sat_id: string, aos_ms: number, name = sat_id.toUpperCase()): PassEvent => ({
  sat_id,
  name,
  aos_ms,
  tca_ms: aos_ms + 300_000,
  los_ms: aos_ms + 600_000,
  max_el_deg: 42.5,
  aos: new Date(aos_ms).toISOString(),
  tca: new Date(aos_ms + 300_000).toISOString(),
  los: new Date(aos_ms + 600_000).toISOString(),
});

describe('the pass items file', () => {
  const a = event('iss', 5_000);
  const b = event('so-50', 9_000, 'SO-50 "q"\\x');
  const items: [string, string][] = [
    [passItemKey(a), JSON.stringify({ sat_id: 'iss', note: 'tab\there, line\nthere' })],
    [passItemKey(b), JSON.stringify({ sat_id: 'so-50', name: b.name })],
  ];

  it('reads back what was written for its basis, only passes still to come, every field of the event in the key', () => {
    const text = encodePassItems('c1|h1', items);
    const d = decodePassItems(text, 'c1|h1', 0);
    assert.equal(d.kind, 'entries');
    assert.deepEqual(d.kind === 'entries' ? [...d.entries] : [], items);
    const later = decodePassItems(text, 'c1|h1', 6_000);
    assert.deepEqual(later.kind === 'entries' ? [...later.entries.keys()] : [], [passItemKey(b)], 'a pass already begun is left out');
    assert.deepEqual(decodePassItems(text, 'c1|h2', 0), { kind: 'unusable', why: 'for another catalog or profile set' });
    for (const change of [{ max_el_deg: 42.6 }, { tca_ms: a.tca_ms + 1 }, { los_ms: a.los_ms + 1 }, { name: 'ISS (ZARYA)' }]) assert.notEqual(passItemKey({ ...a, ...change }), passItemKey(a));
    // A key that would break a line is left out rather than written.
    const odd = encodePassItems('c1|h1', [...items, ['bad\tkey|1|2|3|4|x', '{}']]);
    assert.equal(decodePassItems(odd, 'c1|h1', 0).kind === 'entries' && (decodePassItems(odd, 'c1|h1', 0) as { entries: Map<string, string> }).entries.size, 2);
  });

  it('a file cut short, with a line changed, or not ours is unusable; none is "no file yet"', () => {
    const text = encodePassItems('c1|h1', items);
    assert.deepEqual(decodePassItems(text.slice(0, -5), 'c1|h1', 0), { kind: 'unusable', why: 'cut short or damaged' });
    assert.equal(decodePassItems(text.replace('{"sat_id":"so-50"', 'x"sat_id":"so-50"'), 'c1|h1', 0).kind, 'unusable');
    assert.equal(decodePassItems('{"format":2}\n', 'c1|h1', 0).kind, 'unusable');
    assert.equal(decodePassItems('not json', 'c1|h1', 0).kind, 'unusable');
    const dir = tmpDataDir('satstation-pass-items-');
    try {
      assert.deepEqual(readPassItems(join(dir, PASS_ITEMS_FILE), 'c1|h1', 0), { entries: null, note: 'no file yet' });
      writeFileSync(join(dir, PASS_ITEMS_FILE), text);
      assert.equal(readPassItems(join(dir, PASS_ITEMS_FILE), 'c1|h1', 0).note, '2 items');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('/passes after a restart takes the items the last run kept', () => {
  const dataDir = tmpDataDir('satstation-pass-items-app-');
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const NOW = '2026-08-22T12:00:00Z';
  const Q = '/api/v1/passes?hours=48';

  async function run(before?: (s: Awaited<ReturnType<typeof startServer>>) => Promise<void>) {
    const s = await startServer({ dataDir, now: NOW });
    try {
      await before?.(s);
      await s.app.services.orbit.table.ready();
      await s.app.services.passItems.settled();
      const stats = { ...s.app.services.passItems.bytes.stats };
      const r = await s.get(Q);
      assert.equal(r.status, 200);
      const after = s.app.services.passItems.bytes.stats;
      return { body: r.body, built: after.itemsBuilt - stats.itemsBuilt, read: after.itemsRead, builtAtWarm: stats.itemsBuilt };
    } finally {
      await s.stop();
    }
  }

  it('the second start builds no item for its first answer and answers the same bytes; another profile set is not read back', async () => {
    const first = await run();
    assert.ok(first.body.count > 20, `${first.body.count} passes`);
    assert.ok(first.builtAtWarm >= first.body.count, 'the first run built the items in its warm-up');
    assert.ok(existsSync(join(dataDir, PASS_ITEMS_FILE)));
    const second = await run();
    assert.equal(second.builtAtWarm, 0, 'the warm-up read every item back');
    assert.equal(second.built, 0, 'the answer built none');
    assert.ok(second.read >= second.body.count, `${second.read} items read back`);
    assert.deepEqual(second.body, first.body);
    const dataFile = readFileSync(join(dataDir, PASS_ITEMS_FILE), 'utf8');
    // An operator profile changes the basis at once in the running server, whose stop keeps the
    // items it built with it (the next start reads them back).
    const third = await run(async (s) => {
      const put = await s.post('/api/v1/frequency-guides/profiles', { sat_id: 'iss', mode: 'fm', columns: [{ uplink_hz: null, downlink_hz: 437_800_000, label: 'beacon' }], uplink_step_hz: 0, downlink_step_hz: 1000, downlink_mode: 'FM-D', note: 'test' });
      assert.equal(put.status, 200);
    });
    const issOf = (body: { items: { sat_id: string; frequencyRecommendation: { uplink_mhz: number | null } }[] }) => body.items.find((p) => p.sat_id === 'iss')!;
    assert.equal(issOf(third.body).frequencyRecommendation.uplink_mhz, null, 'built with the operator profile');
    const fourth = await run();
    assert.equal(fourth.built, 0);
    assert.deepEqual(fourth.body, third.body);
    // A file made for the data's profiles is not read back by a start with the operator's.
    writeFileSync(join(dataDir, PASS_ITEMS_FILE), dataFile);
    const fifth = await run();
    assert.equal(fifth.read, 0, 'nothing read back from a file for another profile set');
    assert.equal(issOf(fifth.body).frequencyRecommendation.uplink_mhz, null);
    assert.deepEqual(fifth.body, third.body);
    assert.match(readFileSync(join(dataDir, PASS_ITEMS_FILE), 'utf8').split('\n')[0], /"format":1/);
  });
});

describe('an answer made only of kept items reads no pass rates', () => {
  const dataDir = tmpDataDir('satstation-pass-items-rates-');
  after(() => rmSync(dataDir, { recursive: true, force: true }));
  const NOW = '2026-08-22T12:00:00Z';

  it('the first /passes before the warm-up takes the kept items; the rates file is read only to be written again, whole', async () => {
    const a = await startServer({ dataDir, now: NOW });
    await a.app.services.orbit.table.ready();
    await a.app.services.passItems.settled();
    const first = await a.get('/api/v1/passes?hours=48');
    await a.stop();
    const ratesFile = join(dataDir, PASS_RATES_FILE);
    const keptRates = JSON.parse(readFileSync(ratesFile, 'utf8')).entries.length as number;
    assert.ok(keptRates > 100, `${keptRates} passes' rates kept`);

    // No quiet spell before it: the request reads the items back itself.
    const b = await startServer({ dataDir, now: NOW });
    try {
      await b.app.services.orbit.table.ready();
      const again = await b.get('/api/v1/passes?hours=48');
      assert.deepEqual(again.body, first.body);
      assert.equal(b.app.services.passItems.bytes.stats.itemsBuilt, 0, 'no item built');
      assert.equal(b.app.services.guidance.passRatesRead, false, 'no rates read: no item needed them');
      // Guidance for a pass of its own (a snapshot's focus) computes that pass's rates, and the
      // write that keeps them keeps the last run's too.
      const pass = b.app.services.orbit.currentOrNextPass('rs-44', b.clock.now())!;
      b.app.services.guidance.recommend('rs-44', (pass.aos_ms + pass.los_ms) / 2, { pass });
    } finally {
      await b.stop();
    }
    const after = JSON.parse(readFileSync(ratesFile, 'utf8')).entries.length as number;
    assert.ok(after >= keptRates, `${after} passes' rates kept after the second run (${keptRates} before)`);
  });
});

describe('a stop keeps the items requests built', () => {
  const dataDir = tmpDataDir('satstation-pass-items-stop-');
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('a server stopped right after its first /passes (its warm-up cut short) leaves them for the next start', async () => {
    const a = await startServer({ dataDir, now: '2026-08-22T12:00:00Z' });
    const first = await a.get('/api/v1/passes?hours=48');
    assert.equal(first.status, 200);
    assert.ok(a.app.services.passItems.bytes.stats.itemsBuilt >= first.body.count);
    await a.stop();
    assert.ok(existsSync(join(dataDir, PASS_ITEMS_FILE)), 'written at the stop');
    const b = await startServer({ dataDir, now: '2026-08-22T12:00:00Z' });
    try {
      await b.app.services.orbit.table.ready();
      await b.app.services.passItems.settled();
      const stats = b.app.services.passItems.bytes.stats;
      const builtBefore = stats.itemsBuilt;
      const again = await b.get('/api/v1/passes?hours=48');
      assert.deepEqual(again.body, first.body);
      assert.equal(stats.itemsBuilt - builtBefore, 0, 'the answer built nothing');
      assert.ok(stats.itemsRead >= first.body.count, 'its items were read back');
    } finally {
      await b.stop();
    }
  });
});
