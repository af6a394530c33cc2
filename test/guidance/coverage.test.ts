import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { correctDownlinkHz } from '../../src/guidance/doppler.js';
import { radioEligibility } from '../../src/guidance/eligibility.js';
import { GuidanceService } from '../../src/guidance/guidance-service.js';
import snapshot from '../../src/guidance/data/satnogs-transmitters.json';
import { BUNDLED_TRANSMITTERS_DATE } from '../../src/guidance/transmitters/bundled.js';
import { bundledTransmitterRecords } from '../../src/guidance/transmitters/bundled-records.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Coverage goal of issue 27 over the real bundled data: of the catalog satellites with an active
// record in 144–148 or 420–450 MHz, at least 95% get a recommendation matching a record. The
// eligible count and the expected modes are worked out here from the raw JSON, not by the builder.

interface Raw { norad_cat_id: number; status: string; alive: boolean; uplink_low: number | null; downlink_low: number | null; downlink_high: number | null; mode: string | null; invert: boolean }
const inBand = (hz: number | null) => hz !== null && ((hz >= 144e6 && hz <= 148e6) || (hz >= 420e6 && hz <= 450e6));
const centre = (t: Raw) => (t.downlink_low === null ? null : t.downlink_high ? (t.downlink_low + t.downlink_high) / 2 : t.downlink_low);
// The rig mode an operator would pick for each SatNOGS modulation (by hand, independent of rig-mode.ts).
const MODE: Record<string, string[]> = { CW: ['CW'], FM: ['FM'], FMN: ['FM'], SSTV: ['FM'], DUV: ['FM'], USB: ['USB'], AFSK: ['FM-D'], FSK: ['FM-D'], GFSK: ['FM-D'], GMSK: ['FM-D'], DOKA: ['FM-D'], BPSK: ['USB-D', 'USB'] };
const expectedModes = (m: string | null) => (m ? (MODE[m] ?? MODE[m.split(' ')[0]] ?? []) : []);

describe('coverage of the bundled transmitter data (issue 27 goal ≥ 95%)', () => {
  let s: TestServer;
  let g: GuidanceService;
  before(async () => {
    s = await startServer({ now: '2026-08-22T12:00:00Z' });
    g = new GuidanceService({ catalog: s.app.services.catalog, orbit: s.app.services.orbit, transmitters: { records: bundledTransmitterRecords, date: BUNDLED_TRANSMITTERS_DATE } });
  });
  after(() => s.stop());

  it('counts, prints and checks every recommendation against the data', () => {
    const catalog = s.app.services.catalog.current();
    const records = (snapshot as Raw[]).filter((t) => t.status === 'active' && t.alive && catalog.byNorad.has(t.norad_cat_id));
    const eligible = [...new Set(records.filter((t) => inBand(t.uplink_low) || inBand(centre(t))).map((t) => t.norad_cat_id))];
    const now = s.clock.now();
    const matched: string[] = [];
    const missing: string[] = [];
    for (const norad of eligible) {
      const sat = catalog.byNorad.get(norad)!;
      const r = g.recommend(sat.sat_id, now, { pass: null });
      const rec = r?.recommendation;
      if (!rec) {
        missing.push(`${norad} ${sat.name}: no recommendation`);
        continue;
      }
      const p = g.profile(sat.sat_id)!;
      const col = p.columns[rec.selected_column_index ?? 0];
      // the nominal downlink the recommendation was corrected from matches a record within 1 kHz, with its invert and mode
      const hit = records.find(
        (t) =>
          t.norad_cat_id === norad &&
          Math.abs(centre(t)! - col.downlink_hz) <= 1000 &&
          (p.mode === 'linear' ? t.invert === p.inverting : !t.invert || t.uplink_low === t.downlink_low) &&
          (p.mode === 'linear' || expectedModes(t.mode).includes(rec.downlink_mode)),
      );
      if (!hit) {
        missing.push(`${norad} ${sat.name}: ${rec.downlink_mhz} MHz ${rec.downlink_mode} matches no record`);
        continue;
      }
      // Doppler: the downlink the live range rate gives, quantized to the profile's step
      const rr = r!.track.range_rate_km_s;
      // rule 6 by hand: uhf_only leaves a VHF downlink on its nominal channel
      const corrects = p.correction_side !== 'uhf_only' || col.downlink_hz >= 400e6;
      const expected = corrects ? correctDownlinkHz(col.downlink_hz, rr) : col.downlink_hz;
      assert.ok(Math.abs(rec.downlink_hz - expected) <= Math.max(p.downlink_step_hz / 2, 1), `${sat.name} Doppler`);
      if (rec.receive_only) {
        assert.equal(rec.uplink_mhz, null, `${sat.name} receive-only has no uplink`);
        assert.equal(rec.uplink_hz, null);
        assert.equal(rec.correction_side, 'downlink_only');
        assert.ok(radioEligibility(rec).is_eligible, `${sat.name} receive-only downlink in range is eligible`);
      }
      matched.push(sat.sat_id);
    }
    const pct = (100 * matched.length) / eligible.length;
    console.log(`coverage: ${eligible.length} catalog satellites with an active transmitter in 144–148/420–450 MHz; ${matched.length} get a matching recommendation (${pct.toFixed(1)}%)`);
    for (const m of missing) console.log(`  not covered: ${m}`);
    assert.ok(eligible.length >= 85, `the bundled data has ${eligible.length} eligible satellites`);
    assert.ok(pct >= 95, `coverage ${pct.toFixed(1)}% below 95%: ${missing.join('; ')}`);
  });

  it('the app serves the transmitter-built set: receive-only profiles, and the two-way ones keep uhf_only', () => {
    const list = s.app.services.guidance.profilesList();
    assert.ok(list.length >= 85, `${list.length} profiles`);
    assert.ok(list.some((p) => p.receive_only && p.profile.correction_side === 'downlink_only'));
    assert.ok(list.filter((p) => !p.receive_only && p.profile.mode === 'fm').every((p) => p.profile.correction_side === 'uhf_only'));
    assert.ok(list.every((p) => p.source === 'transmitters' || p.source === 'bundled'));
  });
});
