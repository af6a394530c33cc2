import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { radioEligibility } from '../../src/guidance/eligibility.js';

describe('radio eligibility (VHF 144.000–148.000, UHF 420.000–450.000 MHz)', () => {
  it('both sides in range (V/U repeater)', () => {
    assert.deepEqual(radioEligibility({ uplink_hz: 145_990_000, downlink_hz: 437_800_000 }), { is_eligible: true, eligibility_reason: null });
  });

  it('either side is enough (AO-7 mode A: 145.9 up, 29.45 down)', () => {
    assert.equal(radioEligibility({ uplink_hz: 145_900_000, downlink_hz: 29_450_000 }).is_eligible, true);
    assert.equal(radioEligibility({ uplink_hz: 1_267_600_000, downlink_hz: 437_475_000 }).is_eligible, true);
  });

  it('receive-only: a downlink in range stays eligible', () => {
    assert.deepEqual(radioEligibility({ uplink_hz: null, downlink_hz: 145_825_000 }), { is_eligible: true, eligibility_reason: null });
    assert.equal(radioEligibility({ downlink_hz: 437_500_000 }).is_eligible, true);
  });

  it('receive-only out of range: ineligible with a reason naming it', () => {
    const e = radioEligibility({ uplink_hz: null, downlink_hz: 29_400_000 });
    assert.equal(e.is_eligible, false);
    assert.match(e.eligibility_reason!, /receive-only downlink 29\.400 MHz is outside/);
    assert.match(e.eligibility_reason!, /VHF 144\.000–148\.000 MHz or UHF 420\.000–450\.000 MHz/);
  });

  it('neither side (QO-100): ineligible, both named', () => {
    const e = radioEligibility({ uplink_hz: 2_400_175_000, downlink_hz: 10_489_675_000 });
    assert.equal(e.is_eligible, false);
    assert.match(e.eligibility_reason!, /neither uplink 2400\.175 MHz nor downlink 10489\.675 MHz/);
  });

  it('no frequency at all', () => {
    assert.match(radioEligibility({}).eligibility_reason!, /no uplink or downlink frequency/);
  });

  it('band edges are inclusive', () => {
    const down = (hz: number) => radioEligibility({ uplink_hz: null, downlink_hz: hz }).is_eligible;
    assert.equal(down(144_000_000), true);
    assert.equal(down(143_999_999), false);
    assert.equal(down(148_000_000), true);
    assert.equal(down(148_000_001), false);
    assert.equal(down(420_000_000), true);
    assert.equal(down(419_999_999), false);
    assert.equal(down(450_000_000), true);
    assert.equal(down(450_000_001), false);
  });

  it('takes a recommendation as is (it carries uplink_hz / downlink_hz)', () => {
    const rec = { uplink_hz: 435_250_000, downlink_hz: 145_960_000, uplink_mhz: 435.25, downlink_mhz: 145.96 };
    assert.equal(radioEligibility(rec).is_eligible, true);
  });
});
