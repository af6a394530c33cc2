import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// The operator's minimum elevation (pass filter min_el_deg, default 5°) wherever the server picks
// a pass by itself: the system state the main screen and the kiosk follow (activePass and its
// frequencyRecommendation) and GET /api/v1/frequency-guides/recommendation. Real server, bundled
// elements, Greenwich, clock fixed at 2026-08-22T12:00:00Z; the satellites are found from what
// /passes answers, not named here.

type Pass = { sat_id: string; aos: string; max_el_deg: number; frequencyRecommendation: unknown };
const MIN = 5;
const REC = '/api/v1/frequency-guides/recommendation';

describe("the operator's minimum elevation where a pass is picked server-side", () => {
  let s: TestServer;
  let now: number;
  /** Every pass of the next 24 h, grazes and passes under way included, per satellite in AOS order. */
  let bySat: Map<string, Pass[]>;

  before(async () => {
    s = await startServer();
    await s.app.services.orbit.table.ready();
    now = s.clock.now();
    const every = await s.get('/api/v1/passes?min_max_el=0&include_all_sats=true&include_ongoing=true&hours=24&limit=2000');
    assert.equal(every.status, 200);
    assert.equal(every.body.truncated, false);
    bySat = new Map();
    for (const p of every.body.items as Pass[]) bySat.set(p.sat_id, [...(bySat.get(p.sat_id) ?? []), p]);
  });
  after(() => s.stop());

  const state = async () => (await s.get('/api/v1/system/state')).body;
  const setFilter = async (body: object) => assert.equal((await s.post('/api/v1/settings/pass-filter', body)).status, 200);
  const workable = (sat_id: string) => bySat.get(sat_id)!.find((p) => p.max_el_deg >= MIN)!;
  /** Satellites with a guidance profile whose current or next pass peaks below 5°, a workable one following. */
  const grazingFirst = (underWay: boolean) =>
    [...bySat].filter(([, ps]) => ps[0].frequencyRecommendation && ps[0].max_el_deg < MIN && Date.parse(ps[0].aos) <= now === underWay && ps.some((p) => p.max_el_deg >= MIN)).map(([id]) => id);

  it('a satellite whose next pass is a graze: its next workable pass is followed, the graze only with min_el_deg 0', async () => {
    const [low] = grazingFirst(false);
    assert.ok(low, 'a satellite with a profile whose next pass peaks below 5°');
    const graze = bySat.get(low)![0];
    try {
      await setFilter({ pass_profile: 'Favorites', favorites: [low] });
      let b = await state();
      assert.equal(b.activeTrack.sat_id, low);
      assert.equal(b.activePass.sat_id, low);
      assert.notEqual(b.activePass.aos, graze.aos, `the ${graze.max_el_deg}° graze is not the pass followed`);
      assert.equal(b.activePass.aos, workable(low).aos);
      assert.ok(b.activePass.max_el_deg >= MIN);
      // The pair on the screen is the one for that pass: the direct route picks the same pass and pair.
      const rec = (await s.get(`${REC}?sat_id=${low}`)).body;
      assert.equal(rec.pass.aos, b.activePass.aos);
      assert.deepEqual(b.frequencyRecommendation, rec.recommendation);

      await setFilter({ min_el_deg: 0 });
      b = await state();
      assert.equal(b.activePass.sat_id, low);
      assert.equal(b.activePass.aos, graze.aos, 'with no minimum the graze is the next pass');
    } finally {
      await setFilter({ pass_profile: 'All', favorites: [], min_el_deg: MIN });
    }
  });

  it('a graze under way does not take the screen from another candidate with a workable pass', async () => {
    const [low] = grazingFirst(true);
    assert.ok(low, 'a satellite with a profile in the middle of a pass that peaks below 5°');
    const other = [...bySat.keys()].find((id) => id !== low && bySat.get(id)![0].max_el_deg >= MIN && Date.parse(bySat.get(id)![0].aos) > now);
    assert.ok(other, 'another satellite whose next pass is workable');
    try {
      await setFilter({ pass_profile: 'Favorites', favorites: [low, other] });
      let b = await state();
      const expected = [workable(low), workable(other!)].sort((x, y) => Date.parse(x.aos) - Date.parse(y.aos))[0];
      assert.equal(b.activePass.sat_id, expected.sat_id);
      assert.equal(b.activePass.aos, expected.aos);
      assert.equal(b.activeTrack.sat_id, expected.sat_id);
      // The same pass /passes lists first by default for these favourites.
      const listed = (await s.get('/api/v1/passes?include_ongoing=true&limit=1')).body;
      assert.equal(listed.min_max_el, MIN);
      assert.deepEqual([listed.items[0].sat_id, listed.items[0].aos], [expected.sat_id, expected.aos]);

      await setFilter({ min_el_deg: 0 });
      b = await state();
      assert.equal(b.activePass.sat_id, low, 'with no minimum the pass under way wins');
      assert.equal(b.activePass.aos, bySat.get(low)![0].aos);
    } finally {
      await setFilter({ pass_profile: 'All', favorites: [], min_el_deg: MIN });
    }
  });

  it('a pinned satellite (force_sat_id) gets its next workable pass too', async () => {
    const [low] = grazingFirst(false);
    try {
      await s.post('/api/v1/settings/developer-overrides', { enabled: true, force_sat_id: low });
      const b = await state();
      assert.equal(b.activeTrack.sat_id, low);
      assert.equal(b.activePass.aos, workable(low).aos);
      await setFilter({ min_el_deg: 0 });
      assert.equal((await state()).activePass.aos, bySat.get(low)![0].aos);
    } finally {
      await s.post('/api/v1/settings/developer-overrides', { enabled: false, force_sat_id: null });
      await setFilter({ min_el_deg: MIN });
    }
  });

  it('the recommendation route guides for the next workable pass unless the caller asks for another minimum', async () => {
    const [low] = grazingFirst(false);
    const graze = bySat.get(low)![0];
    let r = await s.get(`${REC}?sat_id=${low}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.min_max_el, MIN);
    assert.equal(r.body.pass.aos, workable(low).aos);
    assert.ok(r.body.pass.max_el_deg >= MIN);
    r = await s.get(`${REC}?sat_id=${low}&min_max_el=0`);
    assert.equal(r.body.min_max_el, 0);
    assert.equal(r.body.pass.aos, graze.aos, 'min_max_el=0 takes the graze');
    const high = bySat.get(low)!.find((p) => p.max_el_deg >= 40);
    if (high) assert.equal((await s.get(`${REC}?sat_id=${low}&min_max_el=40`)).body.pass.aos, high.aos);
    try {
      await setFilter({ min_el_deg: 0 });
      r = await s.get(`${REC}?sat_id=${low}`);
      assert.equal(r.body.min_max_el, 0);
      assert.equal(r.body.pass.aos, graze.aos, "the operator's setting is the default");
    } finally {
      await setFilter({ min_el_deg: MIN });
    }
    for (const bad of ['min_max_el=91', 'min_max_el=-1', 'min_max_el=low']) {
      const e = await s.get(`${REC}?sat_id=${low}&${bad}`);
      assert.equal(e.status, 400, bad);
      assert.equal(e.body.error.code, 'validation_failed');
    }
  });

  it('the API docs say where min_el_deg applies', async () => {
    const paths = (await s.get('/docs', { accept: 'application/json' })).body.paths;
    assert.match(paths['/api/v1/settings/pass-filter'].post.summary, /min_el_deg/);
    assert.match(paths['/api/v1/settings/pass-filter'].get.summary, /min_el_deg/);
    assert.match(paths[REC].get.summary, /min_el_deg/);
  });
});
