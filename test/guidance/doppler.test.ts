import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  correctDownlinkHz,
  correctPair,
  correctUplinkHz,
  dopplerShiftHz,
  hzToMhz3,
  quantizeHz,
  SPEED_OF_LIGHT_M_S,
} from '../../src/guidance/doppler.js';
import type { CorrectionSide } from '../../src/guidance/schemas.js';

// K km/s is exactly 1e-5 of c: rr = -K (approaching) makes every shift 1e-5 of the carrier,
// so the golden numbers below are read off by hand.
const K = 2.99792458;
const V = 145_900_000; // 1e-5 → 1459 Hz
const V2 = 145_800_000; // 1e-5 → 1458 Hz
const U = 435_800_000; // 1e-5 → 4358 Hz
const U2 = 437_800_000; // 1e-5 → 4378 Hz

describe('Doppler sign (rule 5, physics sign)', () => {
  it('approaching (range_rate < 0): downlink heard above nominal, uplink sent below', () => {
    // shift = -(-2997.92458 m/s / 299792458 m/s) * 437.8e6 = +4378 Hz
    assert.equal(Math.round(dopplerShiftHz(U2, -K)), 4378);
    assert.equal(Math.round(correctDownlinkHz(U2, -K)), 437_804_378); // 437 800 000 + 4378
    assert.equal(Math.round(correctUplinkHz(U2, -K)), 437_795_622); // 437 800 000 - 4378
  });

  it('receding (range_rate > 0): downlink below nominal, uplink above', () => {
    // shift = -(+2997.92458 / 299792458) * 145.9e6 = -1459 Hz
    assert.equal(Math.round(dopplerShiftHz(V, K)), -1459);
    assert.equal(Math.round(correctDownlinkHz(V, K)), 145_898_541); // 145 900 000 - 1459
    assert.equal(Math.round(correctUplinkHz(V, K)), 145_901_459); // 145 900 000 + 1459
  });

  it('zero range rate leaves both sides on nominal', () => {
    assert.equal(correctDownlinkHz(U, 0), U);
    assert.equal(correctUplinkHz(V, 0), V);
  });

  it('uses c = 299 792 458 m/s', () => assert.equal(SPEED_OF_LIGHT_M_S, 299_792_458));
});

describe('correction_side × band combination (rule 6), approaching at rr = -K, step 1 Hz', () => {
  // [side, uplink, downlink, expected uplink, expected downlink]
  const cases: [CorrectionSide, string, number, number, number, number][] = [
    // full_duplex corrects both sides whatever the band
    ['full_duplex', 'V/U', V, U, V - 1459, U + 4358], // 145 898 541 / 435 804 358
    ['full_duplex', 'U/V', U, V, U - 4358, V + 1459], // 435 795 642 / 145 901 459
    ['full_duplex', 'U/U', U, U2, U - 4358, U2 + 4378], // 435 795 642 / 437 804 378
    ['full_duplex', 'V/V', V, V2, V - 1459, V2 + 1458], // 145 898 541 / 145 801 458
    // downlink_only: the uplink stays on its nominal channel
    ['downlink_only', 'V/U', V, U, V, U + 4358],
    ['downlink_only', 'U/V', U, V, U, V + 1459],
    ['downlink_only', 'U/U', U, U2, U, U2 + 4378],
    ['downlink_only', 'V/V', V, V2, V, V2 + 1458],
    // uhf_only: only carriers ≥ 400 MHz move
    ['uhf_only', 'V/U', V, U, V, U + 4358], // VHF up, UHF down → downlink only
    ['uhf_only', 'U/V', U, V, U - 4358, V], // UHF up, VHF down → uplink only
    ['uhf_only', 'U/U', U, U2, U - 4358, U2 + 4378], // both
    ['uhf_only', 'V/V', V, V2, V, V2], // neither: quantized nominal
  ];
  for (const [side, bands, up, down, expUp, expDown] of cases) {
    it(`${side} ${bands}`, () => {
      const p = correctPair(up, down, -K, side, 1, 1);
      assert.deepEqual(p, { uplink_hz: expUp, downlink_hz: expDown });
    });
  }

  it('uhf_only threshold is 400 MHz inclusive', () => {
    // 400 000 000 * 1e-5 = 4000 Hz; 399 999 999 is below the threshold and stays put
    assert.deepEqual(correctPair(399_999_999, 400_000_000, -K, 'uhf_only', 1, 1), { uplink_hz: 399_999_999, downlink_hz: 400_004_000 });
    assert.deepEqual(correctPair(400_000_000, 399_999_999, -K, 'uhf_only', 1, 1), { uplink_hz: 399_996_000, downlink_hz: 399_999_999 });
  });
});

describe('quantization and MHz output (rule 7)', () => {
  it('snaps to the step: round(hz / step) * step', () => {
    // 437 804 378 / 5000 = 87 560.8756 → 87 561 × 5000 = 437 805 000
    assert.equal(quantizeHz(437_804_378, 5000), 437_805_000);
    // 435 648 712.8 / 1000 = 435 648.7128 → 435 649 × 1000
    assert.equal(quantizeHz(435_648_712.8, 1000), 435_649_000);
  });

  it('zero, negative and non-finite steps fall back to plain rounding', () => {
    assert.equal(quantizeHz(145_990_123.6, 0), 145_990_124);
    assert.equal(quantizeHz(145_990_123.4, -5000), 145_990_123);
    assert.equal(quantizeHz(145_990_123.5, Number.NaN), 145_990_124);
    assert.equal(quantizeHz(145_990_123.5, Number.POSITIVE_INFINITY), 145_990_124);
  });

  it('odd steps', () => {
    assert.equal(quantizeHz(100, 7), 98); // 100 / 7 = 14.29 → 14 × 7
    assert.equal(quantizeHz(104, 7), 105); // 104 / 7 = 14.86 → 15 × 7
    assert.equal(quantizeHz(437_804_378, 12_500), 437_800_000); // 35 024.35 → 35 024 × 12 500
    assert.equal(quantizeHz(145_898_541, 3), 145_898_541); // 48 632 847 × 3 exactly
    assert.equal(quantizeHz(145_898_542, 3), 145_898_541); // 48 632 847.33 → 48 632 847 × 3
  });

  it('MHz with 3 decimals', () => {
    assert.equal(hzToMhz3(437_805_000), 437.805);
    assert.equal(hzToMhz3(145_898_541), 145.899); // 145 898.541 kHz → 145 899
    assert.equal(hzToMhz3(437_804_499), 437.804);
    assert.equal(hzToMhz3(10_489_575_000), 10489.575);
  });

  it('the quantization steps apply per side', () => {
    // V/U FM at rr = -K: downlink 437 804 378 → 5 kHz → 437 805 000; uplink VHF untouched 145 990 000
    assert.deepEqual(correctPair(145_990_000, U2, -K, 'uhf_only', 5000, 5000), { uplink_hz: 145_990_000, downlink_hz: 437_805_000 });
    // same with a zero downlink step: plain rounding keeps 437 804 378
    assert.deepEqual(correctPair(145_990_000, U2, -K, 'uhf_only', 5000, 0), { uplink_hz: 145_990_000, downlink_hz: 437_804_378 });
  });
});

describe('property: the downlink moves with the approach', () => {
  // Deterministic PRNG (mulberry32) so a failure reproduces.
  let seed = 0x5eed;
  const rnd = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };

  it('corrected downlink − nominal > 0 while the range shrinks, < 0 while it grows (5000 cases)', () => {
    for (let i = 0; i < 5000; i++) {
      const carrier = 28e6 + rnd() * (11e9 - 28e6);
      const rr = (rnd() < 0.5 ? -1 : 1) * (0.001 + rnd() * 8); // km/s, never zero
      const dDown = correctDownlinkHz(carrier, rr) - carrier;
      const dUp = correctUplinkHz(carrier, rr) - carrier;
      const approaching = rr < 0;
      assert.equal(dDown > 0, approaching, `carrier ${carrier} rr ${rr}: downlink moved ${dDown}`);
      assert.equal(dUp < 0, approaching, `carrier ${carrier} rr ${rr}: uplink moved ${dUp}`);
      // and the size is the first-order |rr/c| × carrier
      assert.ok(Math.abs(Math.abs(dDown) - (Math.abs(rr) * 1000 * carrier) / SPEED_OF_LIGHT_M_S) < 1e-6 * carrier);
      // through the full rule chain (full_duplex, 1 Hz steps) the sign survives quantization too
      const q = correctPair(carrier, carrier, rr, 'full_duplex', 1, 1);
      const qd = q.downlink_hz - Math.round(carrier);
      if (Math.abs(dDown) >= 1) assert.equal(Math.sign(qd), approaching ? 1 : -1);
    }
  });
});
