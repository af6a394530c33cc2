import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

// /passes keeps its items' bytes (src/station/pass-bytes-cache.ts). A repeated query is served from
// stored bytes (X-Cache: HIT) and must be byte-identical to a fresh build; everything the items
// depend on (the passes selected, the clock passing an AOS, a pass under way, the location, the
// pass filter) must give a fresh answer equal to what a server that never cached anything says.

const NOW = '2026-08-22T12:00:00Z';
const T0 = Date.parse(NOW);
const LOCATION = {
  add_profile: { id: 'sydney', name: 'Sydney', point: { lat: -33.8688, lon: 151.2093, alt_m: 58 } },
  selected_profile_id: 'sydney',
  source_mode: 'manual',
};
let srv: TestServer;

async function text(s: TestServer, path: string): Promise<{ cache: string | null; body: string }> {
  const r = await fetch(s.base + path);
  assert.equal(r.status, 200, path);
  return { cache: r.headers.get('x-cache'), body: await r.text() };
}

/**
 * The answer of a server that has asked nothing before, after `setup`, at `now_ms`. It boots at
 * NOW like `srv`, so its pass table is the same (a table started later finds the same passes
 * with a millisecond here and there).
 */
async function fresh(now_ms: number, path: string, setup?: (s: TestServer) => Promise<void>): Promise<string> {
  const s = await startServer({ now: NOW });
  try {
    await s.app.services.orbit.table.ready();
    await setup?.(s);
    (s.clock as FixedClock).set(now_ms);
    const r = await text(s, path);
    assert.equal(r.cache, 'MISS', 'a first answer is built');
    return r.body;
  } finally {
    await s.stop();
  }
}

before(async () => {
  srv = await startServer({ now: NOW });
  await srv.app.services.orbit.table.ready();
});
after(() => srv.stop());

test('/passes: the same query again is served from stored bytes, identical to the first build', async () => {
  const q = '/api/v1/passes?hours=48';
  const first = await text(srv, q);
  assert.equal(first.cache, 'MISS');
  const again = await text(srv, q);
  assert.equal(again.cache, 'HIT');
  assert.equal(again.body, first.body, 'byte-identical');
  const doc = JSON.parse(again.body);
  assert.ok(doc.count > 100 && doc.items.length === doc.count);
  assert.ok(doc.items.some((p: { frequencyMatrix: unknown }) => p.frequencyMatrix !== null), 'guidance is embedded');
  // Another query keeps its own answer; the first one is still stored.
  const other = await text(srv, '/api/v1/passes?hours=12&include_all_sats=true');
  assert.equal(other.cache, 'MISS');
  assert.equal((await text(srv, '/api/v1/passes?hours=12&include_all_sats=true')).cache, 'HIT');
  assert.equal((await text(srv, q)).cache, 'HIT');
});

test('/passes: the clock passing the first AOS gives a fresh answer equal to an uncached server', async () => {
  const clock = srv.clock as FixedClock;
  const q = '/api/v1/passes?hours=24&include_all_sats=true';
  const first = JSON.parse((await text(srv, q)).body);
  assert.equal((await text(srv, q)).cache, 'HIT');
  const later = Date.parse(first.items[0].aos) + 1000;
  try {
    clock.set(later);
    const moved = await text(srv, q);
    assert.equal(moved.cache, 'MISS', 'the first pass has started: not the same passes');
    assert.equal(moved.body, await fresh(later, q));
  } finally {
    clock.set(T0);
  }
});

test('/passes?include_ongoing: a pass under way follows its phase; never served from stored bytes', async () => {
  const clock = srv.clock as FixedClock;
  const guided = JSON.parse((await text(srv, '/api/v1/passes?hours=24&include_all_sats=true&min_max_el=0')).body).items.find(
    (p: { frequencyMatrix: unknown }) => p.frequencyMatrix !== null,
  );
  assert.ok(guided, 'a pass with a guidance matrix');
  const q = '/api/v1/passes?hours=24&include_all_sats=true&include_ongoing=true&min_max_el=0';
  const at = (f: number) => Date.parse(guided.aos) + f * (Date.parse(guided.los) - Date.parse(guided.aos));
  try {
    clock.set(at(0.1));
    const early = await text(srv, q);
    assert.equal((await text(srv, q)).cache, 'MISS', 'a pass under way is built every time');
    clock.set(at(0.5));
    const mid = await text(srv, q);
    const phase = (body: string) => JSON.parse(body).items.find((p: { sat_id: string; aos: string }) => p.sat_id === guided.sat_id && p.aos === guided.aos).frequencyRecommendation.phase;
    assert.equal(phase(early.body), 'aos');
    assert.equal(phase(mid.body), 'mid');
    assert.equal(mid.body, await fresh(at(0.5), q));
  } finally {
    clock.set(T0);
  }
});

test('/passes: a pass filter change and a location change give fresh answers equal to an uncached server', async () => {
  const q = '/api/v1/passes?hours=48';
  await text(srv, q);
  assert.equal((await text(srv, q)).cache, 'HIT');
  const filter = { pass_profile: 'IssOnly', min_el_deg: 10 };
  try {
    assert.equal((await srv.post('/api/v1/settings/pass-filter', filter)).status, 200);
    const filtered = await text(srv, q);
    assert.equal(filtered.cache, 'MISS');
    assert.ok(JSON.parse(filtered.body).items.every((p: { sat_id: string; max_el_deg: number }) => p.sat_id === 'iss' && p.max_el_deg >= 10));
    assert.equal(filtered.body, await fresh(T0, q, async (s) => void (await s.post('/api/v1/settings/pass-filter', filter))));
  } finally {
    await srv.post('/api/v1/settings/pass-filter', { pass_profile: 'All', min_el_deg: 5 });
  }
  assert.equal((await srv.post('/api/v1/location', LOCATION)).status, 200);
  const moved = await text(srv, q); // waits for the table of the new place
  assert.equal(moved.cache, 'MISS');
  assert.equal(moved.body, await fresh(T0, q, async (s) => {
    assert.equal((await s.post('/api/v1/location', LOCATION)).status, 200);
    await s.app.services.orbit.table.ready();
  }));
});
