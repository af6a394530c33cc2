import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassBytesCache } from '../../src/station/pass-bytes-cache.js';
import { drain } from '../../src/util/loop-slices.js';
import type { PassEvent } from '../../src/orbit/types.js';

// The /passes warm-up (src/station/pass-items-service.ts): PassBytesCache.warm builds the items of passes
// still to come without storing an answer, so the next build serialises none of them again.

const T0 = Date.parse('2026-08-22T12:00:00Z');
const pass = (i: number, aos_ms: number): PassEvent => ({ sat_id: `sat${i}`, name: `SAT ${i}`, aos_ms, tca_ms: aos_ms + 300_000, los_ms: aos_ms + 600_000, max_el_deg: 30, aos: '', tca: '', los: '' });

describe('PassBytesCache.warm', () => {
  it('builds the future items once; a build after it serialises nothing again and reuses no answer', () => {
    const cache = new PassBytesCache(100);
    const basis = {};
    const events = [pass(0, T0 - 60_000), ...Array.from({ length: 20 }, (_, i) => pass(i + 1, T0 + (i + 1) * 60_000))];
    const calls: string[] = [];
    const item = (p: PassEvent) => (calls.push(p.sat_id), { sat_id: p.sat_id });
    assert.equal(drain(cache.warm(basis, events, T0, item)), 20, 'the pass under way is not warmed');
    assert.equal(calls.length, 20);
    assert.equal(cache.answer('k', basis, events.slice(1), T0), null, 'a warm-up stores no answer');
    const bytes = drain(cache.build('k', basis, events.slice(1), T0, item));
    assert.equal(calls.length, 20, 'every item came from the warm-up');
    assert.deepEqual(JSON.parse(bytes.toString()), events.slice(1).map((p) => ({ sat_id: p.sat_id })));
    assert.equal(drain(cache.warm(basis, events, T0, item)), 0, 'a second warm-up builds nothing');
  });

  it('a build of kept items alone (read back after boot) still yields between groups', () => {
    const cache = new PassBytesCache(2000);
    const basis = {};
    const events = Array.from({ length: 1000 }, (_, i) => pass(i, T0 + (i + 1) * 60_000));
    const item = (p: PassEvent) => ({ sat_id: p.sat_id });
    drain(cache.warm(basis, events, T0, item));
    const g = cache.build('k', basis, events, T0, () => assert.fail('every item is kept'));
    let yields = 0;
    let r = g.next();
    for (; !r.done; r = g.next()) yields++;
    assert.ok(yields >= 7, `${yields} yields over 1000 kept items`);
    assert.equal(JSON.parse(r.value.toString()).length, 1000);
  });

  it('a new basis (catalog) drops what was warmed', () => {
    const cache = new PassBytesCache(100);
    const events = [pass(1, T0 + 60_000)];
    let n = 0;
    const item = () => (n++, {});
    drain(cache.warm({}, events, T0, item));
    drain(cache.build('k', {}, events, T0, item));
    assert.equal(n, 2, 'built again against the new catalog');
  });
});

describe('pass table listeners', () => {
  it('hear each new table: the /passes warm-up runs for a recomputed table too', async () => {
    const { startServer } = await import('../helpers/server.js');
    const s = await startServer({ now: '2026-08-22T12:00:00Z' });
    try {
      await s.app.services.orbit.table.ready();
      const seen: number[] = [];
      s.app.services.orbit.table.onTable((t) => seen.push(t.size));
      assert.equal((await s.post('/api/v1/passes/cache/refresh')).status, 200);
      await s.app.services.orbit.table.ready();
      assert.equal(seen.length, 1);
      assert.ok(seen[0] > 100, `a table of ${seen[0]} passes`);
    } finally {
      await s.stop();
    }
  });
});
