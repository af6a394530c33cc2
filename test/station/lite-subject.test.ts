import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FixedClock } from '../../src/util/clock.js';
import { startServer, type TestServer } from '../helpers/server.js';

// The lite snapshot is about one satellite: whatever the focus rules pick, its track, pass, cue,
// path and pair name the same one (issue 23, lite screen item 1); its passes honour the
// operator's minimum elevation; its location carries the Maidenhead locator.

// The ISS is first in the list, but at this moment the next pass is SO-50's (01:01 UTC, 27°).
const SIX = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7'];
const NOW = '2026-08-22T00:00:00Z';

interface Snap {
  focusSatId: string | null;
  focusTrack: { sat_id: string } | null;
  focusPass: { sat_id: string; aos: string; max_el_deg: number } | null;
  focusCue?: { sat_id: string };
  focusPath: Array<{ sat_id: string }>;
  frequencyRecommendation: { sat_id: string } | null;
  frequencyMatrix: { sat_id: string } | null;
  passes: Array<{ sat_id: string; aos: string; max_el_deg: number }>;
  radioControl: { focused: boolean };
  location: { locator: string };
}

/** Every satellite a focus field names; one subject means exactly one. */
function subjects(b: Snap): string[] {
  const ids = new Set<string>();
  const add = (id: string | null | undefined) => id != null && ids.add(id);
  add(b.focusSatId);
  add(b.focusTrack?.sat_id);
  add(b.focusPass?.sat_id);
  add(b.focusCue?.sat_id);
  for (const p of b.focusPath) add(p.sat_id);
  add(b.frequencyRecommendation?.sat_id);
  add(b.frequencyMatrix?.sat_id);
  return [...ids];
}

describe('lite snapshot: one subject, minimum elevation, locator', () => {
  let s: TestServer;
  let clock: FixedClock;
  const snap = async (q = ''): Promise<Snap> => {
    const r = await s.get('/api/v1/lite/snapshot' + q);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body;
  };
  const setMinEl = async (min_el_deg: number) => assert.equal((await s.post('/api/v1/settings/pass-filter', { min_el_deg })).status, 200);
  before(async () => {
    s = await startServer({ now: NOW });
    clock = s.clock as FixedClock;
    await s.app.services.orbit.table.ready();
    assert.equal((await s.post('/api/v1/settings/lite', { tracked_sat_ids: SIX })).status, 200);
  });
  after(() => s.stop());

  it('by default names the satellite of the next pass everywhere, although the ISS is tracked first', async () => {
    const b = await snap();
    assert.equal(b.passes[0].sat_id, 'so-50', 'fixture: the next pass is SO-50’s');
    assert.deepEqual(subjects(b), ['so-50']);
    assert.equal(b.focusPass!.aos, b.passes[0].aos);
    assert.ok(b.focusCue, 'before AOS there is a cue');
    assert.ok(b.focusPath.length > 1);
  });

  it('stays one subject across a day of moments and for every tracked satellite asked for', async () => {
    for (let h = 0; h < 24; h += 3) {
      clock.set(Date.parse(NOW) + h * 3_600_000);
      s.app.services.invalidateLite();
      assert.equal(subjects(await snap()).length, 1, `default focus at +${h} h`);
      for (const id of SIX) assert.deepEqual(subjects(await snap(`?sat_id=${id}`)), [id], `${id} at +${h} h`);
    }
    clock.set(NOW);
    s.app.services.invalidateLite();
  });

  it('a tracked satellite with no pass in 24 h has no focus pass rather than another satellite’s', async () => {
    await setMinEl(80); // only three passes in 24 h peak that high; none is SO-50's
    try {
      const all = await snap();
      assert.ok(all.passes.length > 0 && all.passes.every((p) => p.sat_id !== 'so-50'), 'fixture');
      const b = await snap('?sat_id=so-50');
      assert.equal(b.focusPass, null);
      assert.equal(b.focusTrack!.sat_id, 'so-50');
      assert.deepEqual(subjects(b), ['so-50']);
      // Its pair is the live reference, not cued to a pass the screen does not show.
      assert.equal((b.frequencyRecommendation as { label?: string } | null)?.label, 'Reference');
    } finally {
      await setMinEl(5);
    }
  });

  it('the ISS fallback (asked for, not tracked) brings the ISS’s own pass and pair', async () => {
    await s.post('/api/v1/settings/lite', { tracked_sat_ids: ['so-50', 'ao-91'] });
    try {
      const b = await snap('?sat_id=iss');
      assert.deepEqual(subjects(b), ['iss']);
      assert.ok(b.focusPass, 'the ISS passes Greenwich within 24 h');
      assert.ok(b.passes.every((p) => p.sat_id !== 'iss'), 'the pass list stays the tracked set’s');
    } finally {
      await s.post('/api/v1/settings/lite', { tracked_sat_ids: SIX });
    }
  });

  it('lists no pass peaking below the operator’s minimum elevation (default 5°), and follows a change', async () => {
    const b = await snap();
    assert.ok(b.passes.length > 0);
    for (const p of b.passes) assert.ok(p.max_el_deg >= 5, `${p.sat_id} ${p.aos} peaks at ${p.max_el_deg}°`);
    await setMinEl(0);
    const low = (await snap()).passes.filter((p) => p.max_el_deg < 5);
    assert.ok(low.length > 0, 'fixture: grazing passes exist when the operator asks for them');
    await setMinEl(30);
    const high = await snap();
    assert.ok(high.passes.length > 0);
    for (const p of high.passes) assert.ok(p.max_el_deg >= 30, `${p.sat_id} ${p.aos} peaks at ${p.max_el_deg}°`);
    assert.ok(high.focusPass!.max_el_deg >= 30);
    await setMinEl(5);
  });

  it('carries the station’s 6-character Maidenhead locator, following the location', async () => {
    assert.equal((await snap()).location.locator, 'IO91xl'); // Greenwich
    const r = await s.post('/api/v1/location', { add_profile: { id: 'w1aw', name: 'W1AW', point: { lat: 41.7147, lon: -72.7272, alt_m: 30 } }, selected_profile_id: 'w1aw' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await snap()).location.locator, 'FN31pr'); // Newington, Connecticut
  });
});
