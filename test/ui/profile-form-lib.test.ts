import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bodyFrom, draftFrom, hzFromMhz, mhzText, withMode, type GuideProfile } from '../../ui/lib/profile-form.js';

// The profile editor's conversions (issue 27): MHz as the operator types it, integer Hz as the
// API takes it, and the receive-only switch as null uplinks with no tone.

const so50: GuideProfile = {
  mode: 'fm',
  correction_side: 'uhf_only',
  columns: [{ uplink_hz: 145_850_000, downlink_hz: 436_795_000, label: 'FM' }],
  uplink_step_hz: 5000,
  downlink_step_hz: 5000,
  uplink_mode: 'FM',
  downlink_mode: 'FM',
  ctcss_hz: 67,
};

describe('profile form', () => {
  it('shows MHz to the last Hz that matters and reads it back as integer Hz', () => {
    assert.equal(mhzText(145_850_000), '145.850');
    assert.equal(mhzText(435_812_500), '435.8125');
    assert.equal(mhzText(437_000_001), '437.000001');
    assert.equal(mhzText(null), '');
    assert.equal(hzFromMhz('145.85'), 145_850_000);
    assert.equal(hzFromMhz(' 435,8125 '), 435_812_500);
    assert.equal(hzFromMhz('437.0000001'), 437_000_000, 'rounded to the Hz');
    assert.ok(Number.isNaN(hzFromMhz('')), 'empty: the API names the field');
    assert.ok(Number.isNaN(hzFromMhz('145.8.5')));
  });

  it('round-trips a profile through the form into the POST body', () => {
    const body = bodyFrom('so-50', draftFrom(so50));
    assert.deepEqual(body, {
      sat_id: 'so-50',
      mode: 'fm',
      columns: [{ label: 'FM', uplink_hz: 145_850_000, downlink_hz: 436_795_000 }],
      default_column_index: 0,
      uplink_step_hz: 5000,
      downlink_step_hz: 5000,
      uplink_mode: 'FM',
      downlink_mode: 'FM',
      ctcss_hz: 67,
    });
  });

  it('receive only: null uplinks, no tone, the uplink mode following the downlink', () => {
    const d = { ...draftFrom(so50), receive_only: true, downlink_mode: 'FM-D' };
    const body = bodyFrom('so-50', d);
    assert.deepEqual(body.columns, [{ label: 'FM', uplink_hz: null, downlink_hz: 436_795_000 }]);
    assert.equal('ctcss_hz' in body, false);
    assert.equal(body.uplink_mode, 'FM-D');
    assert.equal(draftFrom({ ...so50, columns: [{ uplink_hz: null, downlink_hz: 145_825_000, label: '↓ only' }], ctcss_hz: undefined }).receive_only, true);
  });

  it('switching to fm keeps one column; linear sends inverting', () => {
    const lin = { ...draftFrom(null), mode: 'linear' as const, columns: [1, 2, 3].map((i) => ({ label: `c${i}`, uplink_mhz: '435.1', downlink_mhz: '145.9' })), default_column_index: 2, inverting: true };
    assert.equal(bodyFrom('x', lin).inverting, true);
    const fm = withMode(lin, 'fm');
    assert.equal(fm.columns.length, 1);
    assert.equal(fm.default_column_index, 0);
    assert.equal('inverting' in bodyFrom('x', fm), false);
  });
});
