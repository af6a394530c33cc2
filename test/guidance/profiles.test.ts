import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { CatalogService } from '../../src/catalog/catalog-service.js';
import { radioEligibility } from '../../src/guidance/eligibility.js';
import bundled from '../../src/guidance/data/profiles.json';
import { indexProfiles, parseProfileFile } from '../../src/guidance/profiles.js';
import type { ProfileEntry } from '../../src/guidance/schemas.js';
import { FixedClock } from '../../src/util/clock.js';
import { tmpDataDir } from '../helpers/server.js';

const parsed = parseProfileFile(bundled);
const byNorad = new Map(parsed.entries.map((e) => [e.norad_id, e]));
const pair = (e: ProfileEntry | undefined, i = 0) => [e!.columns[i].uplink_hz, e!.columns[i].downlink_hz];

describe('bundled profiles (src/guidance/data/profiles.json)', () => {
  it('every entry passes the schema', () => assert.deepEqual(parsed.skipped, []));

  it('FM repeaters named in the issue, with their CTCSS tones', () => {
    assert.deepEqual(pair(byNorad.get(25544)), [145_990_000, 437_800_000]); // ISS cross-band repeater
    assert.equal(byNorad.get(25544)!.ctcss_hz, 67);
    assert.deepEqual(pair(byNorad.get(27607)), [145_850_000, 436_795_000]); // SO-50
    assert.equal(byNorad.get(27607)!.ctcss_hz, 67);
    assert.deepEqual(pair(byNorad.get(43017)), [435_250_000, 145_960_000]); // AO-91
    assert.equal(byNorad.get(43017)!.ctcss_hz, 67);
    assert.deepEqual(pair(byNorad.get(43678)), [437_500_000, 145_900_000]); // PO-101
    assert.equal(byNorad.get(43678)!.ctcss_hz, 141.3);
    for (const n of [25544, 27607, 43017, 43678]) assert.equal(byNorad.get(n)!.mode, 'fm');
  });

  it('linear transponders named in the issue: passband, inversion, 5 columns centred by default', () => {
    const rs44 = byNorad.get(44909)!;
    assert.deepEqual(rs44.passband, { uplink_low_hz: 145_935_000, uplink_high_hz: 145_995_000, downlink_low_hz: 435_610_000, downlink_high_hz: 435_670_000 });
    assert.deepEqual(pair(rs44, 2), [145_965_000, 435_640_000]);
    const fo29 = byNorad.get(24278)!;
    assert.deepEqual(pair(fo29, 0), [145_910_000, 435_890_000]); // 145.900 + 10 kHz ↔ 435.900 − 10 kHz
    const ao7 = byNorad.get(7530)!; // mode B: 432.125–432.175 up, 145.975–145.925 down
    assert.deepEqual(ao7.passband, { uplink_low_hz: 432_125_000, uplink_high_hz: 432_175_000, downlink_low_hz: 145_925_000, downlink_high_hz: 145_975_000 });
    assert.deepEqual(pair(ao7, 0), [432_130_000, 145_970_000]);
    for (const p of [rs44, fo29, ao7]) {
      assert.equal(p.mode, 'linear');
      assert.equal(p.inverting, true);
      assert.equal(p.columns.length, 5);
      assert.equal(p.default_column_index, 2);
      assert.deepEqual([p.uplink_mode, p.downlink_mode], ['LSB', 'USB']);
    }
  });

  it('every other FM repeater and linear satellite of the bundled catalog with a usable record', () => {
    const fmSet = parsed.entries.filter((e) => e.mode === 'fm').map((e) => e.norad_id).sort((a, b) => a - b);
    const linSet = parsed.entries.filter((e) => e.mode === 'linear').map((e) => e.norad_id).sort((a, b) => a - b);
    // AO-27, ISS, SO-50, HO-68, AO-91, PO-101, CSS, AO-123, TEVEL2-1…9
    assert.deepEqual(fmSet, [22825, 25544, 27607, 36122, 43017, 43678, 48274, 61781, 63213, 63214, 63215, 63217, 63218, 63219, 63237, 63238, 63239]);
    // AO-7, FO-29, AO-73, EO-79, QO-100, JO-97, TO-108, RS-44, MO-122
    assert.deepEqual(linSet, [7530, 24278, 39444, 40025, 43700, 43803, 44881, 44909, 60209]);
  });

  it('bundled profiles use uhf_only; linear columns lie in their passband and follow the inversion', () => {
    for (const e of parsed.entries) {
      assert.equal(e.correction_side, 'uhf_only', e.name);
      if (e.mode !== 'linear') continue;
      const pb = e.passband!;
      for (const c of e.columns) {
        assert.ok(c.uplink_hz > pb.uplink_low_hz && c.uplink_hz < pb.uplink_high_hz, `${e.name} uplink ${c.uplink_hz}`);
        assert.ok(c.downlink_hz > pb.downlink_low_hz && c.downlink_hz < pb.downlink_high_hz, `${e.name} downlink ${c.downlink_hz}`);
      }
      const d = e.columns[1].downlink_hz - e.columns[0].downlink_hz;
      assert.equal(d < 0, e.inverting, `${e.name}: downlink moves ${d} for a higher uplink`);
    }
  });

  it('QO-100 is guided but never radio-eligible', () => {
    const qo = byNorad.get(43700)!;
    assert.equal(qo.inverting, false);
    assert.equal(radioEligibility(qo.columns[2]).is_eligible, false);
  });
});

describe('profile file validation', () => {
  const good = { norad_id: 1, name: 'X', mode: 'fm', correction_side: 'uhf_only', columns: [{ uplink_hz: 145_000_000, downlink_hz: 435_000_000, label: 'FM' }], uplink_step_hz: 5000, downlink_step_hz: 5000, uplink_mode: 'FM', downlink_mode: 'FM' };
  const lin = { ...good, norad_id: 2, mode: 'linear', inverting: true, columns: [good.columns[0], good.columns[0]] };

  it('a bad entry is skipped with its reason, the rest load', () => {
    const r = parseProfileFile({
      version: 1,
      profiles: [
        good,
        { ...good, norad_id: 3, columns: [good.columns[0], good.columns[0]] }, // fm with two pairs
        { ...lin, norad_id: 4, inverting: undefined }, // linear without inverting
        { ...lin, norad_id: 5, default_column_index: 2 }, // only columns 0 and 1
        { ...good, norad_id: 6, columns: [{ uplink_hz: -1, downlink_hz: 435_000_000, label: 'FM' }] },
        { ...good, norad_id: 7, mode: 'am' },
        { ...good }, // duplicate norad 1
        lin,
        'not an object',
        { ...good, norad_id: 8, uplink_step_hz: 0, downlink_step_hz: -5 }, // odd steps are legal (rule 7 falls back)
      ],
    });
    assert.deepEqual(r.entries.map((e) => e.norad_id), [1, 2, 8]);
    const reasons = new Map(r.skipped.map((s) => [s.index, s]));
    assert.match(reasons.get(1)!.reason, /exactly one column/);
    assert.match(reasons.get(2)!.reason, /inverting/);
    assert.match(reasons.get(3)!.reason, /default_column_index/);
    assert.match(reasons.get(4)!.reason, /columns\.0\.uplink_hz/);
    assert.match(reasons.get(5)!.reason, /mode/);
    assert.match(reasons.get(6)!.reason, /duplicate norad_id/);
    assert.equal(reasons.get(8)!.norad_id, null);
    assert.equal(reasons.get(4)!.norad_id, 6);
  });

  it('a file of the wrong shape loads nothing and says why', () => {
    const r = parseProfileFile({ version: 2, profiles: [] });
    assert.deepEqual(r.entries, []);
    assert.match(r.skipped[0].reason, /profile file: version/);
  });
});

describe('profiles keyed by norad_id, sat_id from the catalog', () => {
  const dir = tmpDataDir();
  after(() => rmSync(dir, { recursive: true, force: true }));
  const catalog = new CatalogService({ dataDir: dir, clock: new FixedClock(Date.parse('2026-08-22T12:00:00Z')) });

  it('every bundled profile resolves to a catalog satellite', () => {
    const idx = indexProfiles(parsed.entries, catalog.current());
    assert.deepEqual(idx.unresolved.map((e) => e.name), []);
    for (const [id, p] of idx.bySatId) {
      assert.equal(p.sat_id, id);
      assert.equal(catalog.current().byId.get(id)!.norad_id, p.norad_id);
    }
    for (const id of ['iss', 'so-50', 'ao-91', 'po-101', 'rs-44', 'fo-29', 'ao-7']) assert.ok(idx.bySatId.has(id), id);
  });

  it('a profile whose norad_id the catalog lacks stays unresolved', () => {
    const idx = indexProfiles([{ ...parsed.entries[0], norad_id: 99_999_999 }], catalog.current());
    assert.equal(idx.bySatId.size, 0);
    assert.equal(idx.unresolved.length, 1);
  });

  it('the sat_id follows whatever slug the catalog gives the norad_id', () => {
    const sat = catalog.current().byNorad.get(44909)!;
    const idx = indexProfiles([byNorad.get(44909)!], { byNorad: new Map([[44909, { ...sat, sat_id: 'dosaaf-85' }]]) });
    assert.equal(idx.bySatId.get('dosaaf-85')!.name, 'RS-44');
  });
});
