import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultDeveloperOverrides, type DeveloperOverrides } from '../../src/station/developer-overrides.js';
import { defaultIssDisplay, type IssDisplay } from '../../src/station/display-settings.js';
import { issState } from '../../src/station/iss-state.js';
import type { LiveSample } from '../../src/orbit/types.js';

const sample = (el_deg: number, sunlit: boolean): LiveSample => ({
  sat_id: 'iss',
  name: 'ISS (ZARYA)',
  timestamp: '2026-08-22T12:00:00.000Z',
  az_deg: 120,
  el_deg,
  range_km: 1500,
  range_rate_km_s: -3,
  sunlit,
});
const display = (mode: IssDisplay['iss_display_mode'], stream_url = defaultIssDisplay().stream_url): IssDisplay => ({ iss_display_mode: mode, stream_url });
const overrides = (o: Partial<DeveloperOverrides>): DeveloperOverrides => ({ ...defaultDeveloperOverrides(), ...o });

describe('ISS state rules', () => {
  it('auto: video while the ISS is sunlit, online and below the horizon', () => {
    const st = issState(sample(-30, true), display('auto'), defaultDeveloperOverrides(), true);
    assert.deepEqual(st, {
      sunlit: true,
      aboveHorizon: false,
      videoEligible: true,
      streamHealthy: true,
      mode: 'video',
      activeStreamUrl: defaultIssDisplay().stream_url,
    });
  });

  it('auto: track in the Earth shadow, or offline', () => {
    assert.equal(issState(sample(-30, false), display('auto'), defaultDeveloperOverrides(), true).mode, 'track');
    const offline = issState(sample(-30, true), display('auto'), defaultDeveloperOverrides(), false);
    assert.equal(offline.streamHealthy, false);
    assert.equal(offline.mode, 'track');
  });

  it('above the horizon the pass wins over the video', () => {
    const st = issState(sample(12.5, true), display('auto'), defaultDeveloperOverrides(), true);
    assert.equal(st.aboveHorizon, true);
    assert.equal(st.mode, 'pass');
  });

  it('video mode ignores eligibility but needs a healthy stream; track mode never shows video', () => {
    assert.equal(issState(sample(-30, false), display('video'), defaultDeveloperOverrides(), true).mode, 'video');
    assert.equal(issState(sample(-30, false), display('video'), defaultDeveloperOverrides(), false).mode, 'track');
    assert.equal(issState(sample(-30, true), display('track'), defaultDeveloperOverrides(), true).mode, 'track');
  });

  it('developer overrides force eligibility and stream health, only when enabled', () => {
    const forced = overrides({ enabled: true, force_iss_video_eligible: true, force_iss_stream_healthy: true });
    const st = issState(sample(-30, false), display('auto'), forced, false);
    assert.equal(st.videoEligible, true);
    assert.equal(st.streamHealthy, true);
    assert.equal(st.mode, 'video');
    const off = issState(sample(-30, true), display('auto'), overrides({ enabled: true, force_iss_stream_healthy: false }), true);
    assert.equal(off.streamHealthy, false);
    assert.equal(off.mode, 'track');
    const disabled = issState(sample(-30, false), display('auto'), { ...forced, enabled: false }, true);
    assert.equal(disabled.videoEligible, false);
  });

  it('no ISS in the catalog: all false, track mode', () => {
    const st = issState(null, display('auto'), defaultDeveloperOverrides(), true);
    assert.equal(st.sunlit, false);
    assert.equal(st.aboveHorizon, false);
    assert.equal(st.videoEligible, false);
    assert.equal(st.mode, 'track');
  });
});
