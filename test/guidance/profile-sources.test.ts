import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { GuidanceService } from '../../src/guidance/guidance-service.js';
import snapshot from '../../src/guidance/data/satnogs-transmitters.json';
import { AppError } from '../../src/util/errors.js';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';

// Sources and precedence on the real catalog: transmitters data, operator edits persisted in a
// data dir (a new service on the same dir is a restart), refreshes that would lose a profile.
describe('guidance profile sources', () => {
  let s: TestServer;
  const dir = tmpDataDir('guidance-sources-');
  const records = snapshot as Array<{ norad_cat_id: number }>;
  const make = () => new GuidanceService({ catalog: s.app.services.catalog, orbit: s.app.services.orbit, transmitters: { records, date: '2026-08-08T00:00:00.000Z' }, dataDir: dir });
  before(async () => {
    s = await startServer({ now: '2026-08-22T12:00:00Z' });
  });
  after(() => {
    s.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a beacon-only satellite gets a receive-only profile from the transmitters source', () => {
    const lo19 = make().profilesList().find((p) => p.norad_id === 20442)!;
    assert.equal(lo19.source, 'transmitters');
    assert.equal(lo19.receive_only, true);
    assert.equal(lo19.profile.columns[0].uplink_hz, null);
  });

  it('operator profile: fields named in errors, wins, survives a restart and a refresh, delete returns to the data', async () => {
    const g = make();
    await assert.rejects(
      g.setOperatorProfile({ sat_id: 'so-50', mode: 'linear', columns: [{ uplink_hz: 145_850_000, downlink_hz: 436_795_000, label: 'x' }], uplink_step_hz: 1000, downlink_step_hz: 1000, downlink_mode: 'FM', default_column_index: 3, ctcss_hz: 5 }, s.clock.now()),
      (e: AppError) => {
        const fields = (e.details as { fields: { field: string }[] }).fields.map((f) => f.field);
        assert.equal(e.status, 400);
        assert.ok(fields.includes('ctcss_hz'), fields.join());
        return true;
      },
    );
    const saved = await g.setOperatorProfile({ sat_id: 'so-50', mode: 'fm', columns: [{ uplink_hz: 145_850_000, downlink_hz: 436_800_000, label: 'FM' }], uplink_step_hz: 5000, downlink_step_hz: 5000, downlink_mode: 'FM', ctcss_hz: 67 }, s.clock.now());
    assert.equal(saved.source, 'operator');
    const restarted = make();
    assert.equal(restarted.profile('so-50')!.columns[0].downlink_hz, 436_800_000);
    restarted.setTransmitters(records, '2026-08-09T00:00:00.000Z');
    assert.equal(restarted.profilesList().find((p) => p.sat_id === 'so-50')!.source, 'operator');
    const back = await restarted.deleteOperatorProfile('so-50');
    assert.equal(back!.source, 'transmitters');
    assert.equal(make().profile('so-50')!.columns[0].downlink_hz, 436_795_000);
  });

  it('a refresh that would lose a working profile keeps it and says why', () => {
    const g = make();
    const before = g.profile('iss')!;
    const r = g.setTransmitters(records.filter((t) => t.norad_cat_id !== 25544), '2026-08-10T00:00:00.000Z');
    assert.ok(r.kept.some((k) => k.norad_id === 25544 && /kept the previous profile/.test(k.reason)));
    assert.deepEqual(g.profile('iss'), before);
  });
});
