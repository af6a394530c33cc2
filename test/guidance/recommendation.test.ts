import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildLinearColumns, downlinkForUplink } from '../../src/guidance/columns.js';
import { chooseRates } from '../../src/guidance/range-rate.js';
import { buildGuidance, buildMatrix, flatRates, selectColumnIndex, type PhaseRates } from '../../src/guidance/recommendation.js';
import type { FrequencyProfile, LinearProfile } from '../../src/guidance/schemas.js';

const K = 2.99792458; // km/s; K/c = 1e-5 exactly, so a shift is 1e-5 of the carrier per K

// RS-44: inverting V/U, uplink 145.935–145.995, downlink 435.610–435.670.
const RS44_PASSBAND = { uplink_low_hz: 145_935_000, uplink_high_hz: 145_995_000, downlink_low_hz: 435_610_000, downlink_high_hz: 435_670_000, inverting: true };

function linear(over: Partial<LinearProfile> = {}): LinearProfile {
  return {
    sat_id: 'rs-44',
    norad_id: 44909,
    name: 'RS-44',
    mode: 'linear',
    correction_side: 'uhf_only',
    columns: buildLinearColumns(RS44_PASSBAND),
    default_column_index: 2,
    uplink_step_hz: 1000,
    downlink_step_hz: 1000,
    uplink_mode: 'LSB',
    downlink_mode: 'USB',
    inverting: true,
    ...over,
  };
}

const fm: FrequencyProfile = {
  sat_id: 'iss',
  norad_id: 25544,
  name: 'ISS',
  mode: 'fm',
  correction_side: 'uhf_only',
  columns: [{ uplink_hz: 145_990_000, downlink_hz: 437_800_000, label: 'FM' }],
  uplink_step_hz: 5000,
  downlink_step_hz: 5000,
  uplink_mode: 'FM',
  downlink_mode: 'FM',
  ctcss_hz: 67,
};

describe('linear columns', () => {
  it('five presets at 10/30/50/70/90% of the uplink passband; an inverting transponder maps up to down', () => {
    // uplink 145.935 + {6, 18, 30, 42, 54} kHz; downlink 435.670 − the same offsets
    assert.deepEqual(
      buildLinearColumns(RS44_PASSBAND).map((c) => [c.uplink_hz, c.downlink_hz, c.label]),
      [
        [145_941_000, 435_664_000, 'low'],
        [145_953_000, 435_652_000, 'low-mid'],
        [145_965_000, 435_640_000, 'centre'],
        [145_977_000, 435_628_000, 'high-mid'],
        [145_989_000, 435_616_000, 'high'],
      ],
    );
  });

  it('a non-inverting transponder maps up to up', () => {
    const pb = { ...RS44_PASSBAND, inverting: false };
    assert.equal(downlinkForUplink(pb, 145_941_000), 435_616_000); // 435.610 + 6 kHz
    assert.equal(downlinkForUplink(pb, 145_995_000), 435_670_000);
  });
});

describe('column selection (rule 8)', () => {
  const five = linear({ default_column_index: 3 });
  it('the requested column when valid', () => assert.equal(selectColumnIndex(five, 4), 4));
  it('else default_column_index', () => {
    assert.equal(selectColumnIndex(five, 5), 3); // out of range
    assert.equal(selectColumnIndex(five, -1), 3);
    assert.equal(selectColumnIndex(five, 1.5), 3); // not an integer
    assert.equal(selectColumnIndex(five, null), 3);
    assert.equal(selectColumnIndex(five, undefined), 3);
  });
  it('else the middle column', () => {
    assert.equal(selectColumnIndex(linear({ default_column_index: undefined }), 9), 2); // 5 columns → index 2
    const four = linear({ default_column_index: undefined, columns: buildLinearColumns(RS44_PASSBAND, 4) });
    assert.equal(selectColumnIndex(four, undefined), 1); // 4 columns → floor(3 / 2) = 1
    assert.equal(selectColumnIndex(linear({ default_column_index: 7 }), undefined), 2); // a bad default is ignored
  });
  it('null for fm, whatever was requested', () => assert.equal(selectColumnIndex(fm, 0), null));
});

describe('fm recommendation', () => {
  it('ISS repeater approaching at mid pass (uhf_only: downlink moves, VHF uplink stays)', () => {
    // downlink 437 800 000 × (1 + 1e-5) = 437 804 378 → 5 kHz step → 437 805 000
    const g = buildGuidance(fm, { phase: 'mid', label: 'Tune now' }, flatRates(-K), 3);
    assert.deepEqual(g.frequencyRecommendation, {
      sat_id: 'iss',
      mode: 'fm',
      phase: 'mid',
      label: 'Tune now',
      correction_side: 'uhf_only',
      uplink_mhz: 145.99,
      downlink_mhz: 437.805,
      uplink_hz: 145_990_000,
      downlink_hz: 437_805_000,
      uplink_mode: 'FM',
      downlink_mode: 'FM',
      ctcss_hz: 67,
      range_rate_km_s: -K,
      selected_column_index: null,
    });
    assert.equal(g.frequencyMatrix, null);
  });

  it('no profile: both null', () => {
    assert.deepEqual(buildGuidance(null, { phase: 'aos', label: 'Reference' }, flatRates(0)), { frequencyRecommendation: null, frequencyMatrix: null });
  });
});

describe('linear matrix (rule 9), inverting transponder', () => {
  // aos −2K, early −K, mid 0, late +K, los +2K; uplinks are VHF (not corrected under uhf_only).
  const rates: PhaseRates = { range_rate_km_s: [-2 * K, -K, 0, K, 2 * K], target: ['a', 'b', 'c', 'd', 'e'] };

  it('one row per phase with the selected column and every column', () => {
    const m = buildMatrix(linear(), 'early', rates, 2);
    assert.equal(m.active_phase, 'early');
    assert.equal(m.selected_column_index, 2);
    assert.deepEqual(m.rows.map((r) => r.phase), ['aos', 'early', 'mid', 'late', 'los']);
    // centre column, downlink 435 640 000; shift 4 356.4 Hz per K:
    //   aos  +8 712.8 → 435 648 712.8 → 435 649 000     early +4 356.4 → 435 644 356.4 → 435 644 000
    //   mid  0        → 435 640 000                      late  −4 356.4 → 435 635 643.6 → 435 636 000
    //   los  −8 712.8 → 435 631 287.2 → 435 631 000
    assert.deepEqual(m.rows.map((r) => r.downlink_mhz), [435.649, 435.644, 435.64, 435.636, 435.631]);
    assert.deepEqual(m.rows.map((r) => r.uplink_mhz), [145.965, 145.965, 145.965, 145.965, 145.965]);
    assert.deepEqual(m.rows.map((r) => r.target), ['a', 'b', 'c', 'd', 'e']);
    // every row has every column; the low column (435 664 000) in the aos row:
    //   435 664 000 × 1e-5 × 2 = 8 713.28 → 435 672 713.28 → 435 673 000
    assert.equal(m.rows[0].cells.length, 5);
    assert.deepEqual(m.rows[0].cells[0], { uplink_mhz: 145.941, downlink_mhz: 435.673 });
    assert.deepEqual(m.rows[2].cells.map((c) => c.downlink_mhz), [435.664, 435.652, 435.64, 435.628, 435.616]);
    assert.deepEqual(m.rows[2].cells[2], { uplink_mhz: m.rows[2].uplink_mhz, downlink_mhz: m.rows[2].downlink_mhz });
    assert.deepEqual(m.columns[0], { index: 0, label: 'low', uplink_mhz: 145.941, downlink_mhz: 435.664 });
  });

  it('the recommendation is the active row of the selected column', () => {
    const g = buildGuidance(linear(), { phase: 'aos', label: 'AOS cue' }, rates, 0);
    assert.equal(g.frequencyRecommendation!.selected_column_index, 0);
    assert.equal(g.frequencyRecommendation!.downlink_mhz, 435.673);
    assert.equal(g.frequencyRecommendation!.uplink_mhz, 145.941);
    assert.equal(g.frequencyRecommendation!.uplink_mode, 'LSB');
    assert.equal(g.frequencyRecommendation!.ctcss_hz, null);
    assert.deepEqual(g.frequencyMatrix!.rows[0].cells[0], { uplink_mhz: 145.941, downlink_mhz: 435.673 });
    assert.equal(g.frequencyMatrix!.selected_column_index, 0);
  });

  it('U/V inverting (AO-7 mode B): the UHF uplink is the side that moves', () => {
    const ao7 = linear({
      sat_id: 'ao-7',
      columns: buildLinearColumns({ uplink_low_hz: 432_125_000, uplink_high_hz: 432_175_000, downlink_low_hz: 145_925_000, downlink_high_hz: 145_975_000, inverting: true }),
    });
    // centre 432 150 000 / 145 950 000; approaching at K: uplink 432 150 000 − 4 321.5 = 432 145 678.5 → 432 146 000
    const g = buildGuidance(ao7, { phase: 'early', label: 'Tune now' }, flatRates(-K), undefined);
    assert.equal(g.frequencyRecommendation!.uplink_mhz, 432.146);
    assert.equal(g.frequencyRecommendation!.downlink_mhz, 145.95);
    assert.deepEqual(g.frequencyMatrix!.columns.map((c) => [c.uplink_mhz, c.downlink_mhz]), [
      [432.13, 145.97],
      [432.14, 145.96],
      [432.15, 145.95],
      [432.16, 145.94],
      [432.17, 145.93],
    ]);
  });

  it('no pass / no path: every row carries the same (live or zero) rate', () => {
    const { rates: live } = chooseRates(null, -K);
    const m = buildMatrix(linear(), 'aos', live, 2);
    assert.deepEqual(m.rows.map((r) => r.downlink_mhz), [435.644, 435.644, 435.644, 435.644, 435.644]);
    assert.deepEqual(m.rows.map((r) => r.target), [null, null, null, null, null]);
    const zero = buildMatrix(linear(), 'aos', chooseRates(null, null).rates, 2);
    assert.deepEqual(zero.rows.map((r) => r.downlink_mhz), [435.64, 435.64, 435.64, 435.64, 435.64]);
  });
});
