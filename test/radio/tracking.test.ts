import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { KnobWatch, TRACK_RESOLUTION, followKnob, initialPosition, legNeedsWrite, targetsFor, type TrackPlan } from '../../src/radio/tracking.js';
import { correctDownlinkHz, correctUplinkHz } from '../../src/guidance/doppler.js';
import type { FrequencyProfile } from '../../src/guidance/schemas.js';

// An inverting linear transponder like RS-44 (VHF up, UHF down) and a non-inverting one.
const rs44: FrequencyProfile = {
  sat_id: 'rs-44',
  norad_id: 44909,
  name: 'RS-44',
  mode: 'linear',
  correction_side: 'full_duplex',
  columns: [{ uplink_hz: 145_965_000, downlink_hz: 435_640_000, label: 'centre' }],
  default_column_index: 0,
  uplink_step_hz: 1000,
  downlink_step_hz: 1000,
  uplink_mode: 'LSB',
  downlink_mode: 'USB',
  inverting: true,
  passband: { uplink_low_hz: 145_935_000, uplink_high_hz: 145_995_000, downlink_low_hz: 435_610_000, downlink_high_hz: 435_670_000 },
};
const straight: FrequencyProfile = { ...rs44, sat_id: 'x', inverting: false, columns: [{ uplink_hz: 145_925_000, downlink_hz: 435_825_000, label: 'c' }], passband: { uplink_low_hz: 145_910_000, uplink_high_hz: 145_940_000, downlink_low_hz: 435_810_000, downlink_high_hz: 435_840_000 } };
const fm: FrequencyProfile = { ...rs44, sat_id: 'so-50', mode: 'fm', correction_side: 'uhf_only', inverting: undefined, passband: undefined, columns: [{ uplink_hz: 145_850_000, downlink_hz: 436_795_000, label: 'fm' }], uplink_mode: 'FM', downlink_mode: 'FM' };

describe('auto-track targets', () => {
  it('apply the shared Doppler model, quantized to the tracking quantum', () => {
    const plan: TrackPlan = { profile: rs44, position: initialPosition(rs44, 0) };
    const t = targetsFor(plan, -5.5, { rx_hz: 0, tx_hz: null });
    assert.equal(t.rx_hz, Math.round(correctDownlinkHz(435_640_000, -5.5) / 10) * 10);
    assert.equal(t.tx_hz, Math.round(correctUplinkHz(145_965_000, -5.5) / 10) * 10);
    assert.ok(t.rx_hz > 435_640_000, 'approaching: downlink heard high');
    assert.ok(t.tx_hz! < 145_965_000, 'approaching: uplink sent low');
  });

  it('uhf_only FM leaves the VHF uplink on its channel', () => {
    const t = targetsFor({ profile: fm, position: initialPosition(fm, null) }, 6, { rx_hz: 0, tx_hz: null });
    assert.equal(t.tx_hz, 145_850_000);
    assert.notEqual(t.rx_hz, 436_795_000);
    assert.equal(t.rx_hz % TRACK_RESOLUTION.fm.quantum_hz, 0);
  });

  it('deadbands: FM legs move by a few hundred Hz, linear by tens; never an unchanged target', () => {
    assert.equal(legNeedsWrite('linear', 100_000, 100_020), false);
    assert.equal(legNeedsWrite('linear', 100_000, 100_030), true);
    assert.equal(legNeedsWrite('fm', 100_000, 100_200), false);
    assert.equal(legNeedsWrite('fm', 100_000, 100_300), true);
    assert.equal(legNeedsWrite('fm', 100_000, 100_000), false);
    assert.equal(legNeedsWrite('linear', null, 5), true);
    assert.equal(legNeedsWrite('linear', 5, null), false);
  });
});

describe('knob-follow', () => {
  it('an inverting transponder mirrors the uplink: receive 5 kHz up, uplink 5 kHz down', () => {
    const plan: TrackPlan = { profile: rs44, position: initialPosition(rs44, 0) };
    const rr = 3.2;
    const heard = correctDownlinkHz(435_645_000, rr);
    const f = followKnob(plan, heard, rr);
    assert.equal(f.uplink_follows, true);
    assert.ok(Math.abs(f.position.down_hz - 435_645_000) <= 1);
    assert.ok(Math.abs(f.position.up_hz! - 145_960_000) <= 1);
  });

  it('a non-inverting transponder shifts the uplink the same way', () => {
    const plan: TrackPlan = { profile: straight, position: initialPosition(straight, 0) };
    const f = followKnob(plan, 435_830_000, 0);
    assert.equal(f.position.up_hz, 145_930_000);
  });

  it('outside the passband only the receive side follows', () => {
    const plan: TrackPlan = { profile: rs44, position: initialPosition(rs44, 0) };
    const f = followKnob(plan, 435_700_000, 0);
    assert.equal(f.uplink_follows, false);
    assert.equal(f.position.up_hz, 145_965_000);
    assert.equal(f.position.down_hz, 435_700_000);
  });

  it('acts only after two stable reads that differ from what was written', () => {
    const k = new KnobWatch('linear');
    assert.equal(k.observe(435_640_010, 435_640_000), null, 'where we put it');
    assert.equal(k.moving, false);
    assert.equal(k.observe(435_641_000, 435_640_000), null, 'first read of a new value');
    assert.equal(k.moving, true);
    assert.equal(k.observe(435_642_500, 435_640_000), null, 'still turning');
    assert.equal(k.observe(435_642_505, 435_640_000), 435_642_505, 'settled');
  });
});
