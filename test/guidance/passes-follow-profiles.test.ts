import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

// /passes keeps its items' bytes (src/station/pass-bytes-cache.ts) and the lite snapshot is cached
// 15 s; an operator profile added or removed changes what both embed, so the next answer shows it,
// never the kept bytes.

const NOW = '2026-08-22T12:00:00Z';

describe('/passes and the lite snapshot follow a guidance profile change', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: NOW });
  });
  after(() => s?.stop());

  const issItem = async () => {
    const r = await s.get('/api/v1/passes?hours=48&include_all_sats=true&min_max_el=0');
    assert.equal(r.status, 200);
    const item = r.body.items.find((p: { sat_id: string }) => p.sat_id === 'iss');
    assert.ok(item, 'the ISS has a pass in the answer');
    return { item, cache: r.headers.get('x-cache') };
  };

  it('an operator profile shows in the next /passes, and its removal too', async () => {
    const lite = async () => (await s.get('/api/v1/lite/snapshot')).body;
    const liteBefore = await lite();
    assert.notEqual(liteBefore.frequencyRecommendation?.uplink_mhz ?? null, null, 'the lite focus (the ISS by default) has the data\'s uplink');
    const first = await issItem();
    const again = await issItem();
    assert.equal(again.cache, 'HIT', 'the same query again is served from the kept bytes');
    assert.notEqual(first.item.frequencyRecommendation?.uplink_mhz ?? null, null, 'the data\'s ISS profile has an uplink');
    const put = await s.post('/api/v1/frequency-guides/profiles', {
      sat_id: 'iss',
      mode: 'fm',
      columns: [{ uplink_hz: null, downlink_hz: 437_800_000, label: 'beacon' }],
      uplink_step_hz: 0,
      downlink_step_hz: 1000,
      downlink_mode: 'FM-D',
      note: 'operator test',
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const changed = await issItem();
    assert.equal(changed.item.frequencyRecommendation.uplink_mhz, null, 'the receive-only operator profile is embedded');
    assert.ok(Math.abs(changed.item.frequencyRecommendation.downlink_mhz - 437.8) < 0.02);
    assert.notDeepEqual((await lite()).frequencyRecommendation, liteBefore.frequencyRecommendation, 'the lite snapshot is built again');
    assert.equal((await lite()).frequencyRecommendation.uplink_mhz, null);
    assert.equal((await s.post('/api/v1/frequency-guides/profiles/delete', { sat_id: 'iss' })).status, 200);
    const back = await issItem();
    assert.deepEqual(back.item.frequencyRecommendation?.uplink_mhz, first.item.frequencyRecommendation.uplink_mhz);
  });
});
