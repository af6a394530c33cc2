import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { focusCue, focusPass, focusSubject, focusTrack } from '../../src/station/lite-focus.js';
import type { LiveSample, PassEvent, PathPoint } from '../../src/orbit/types.js';

const T0 = Date.parse('2026-08-22T12:00:00Z');
const track = (sat_id: string): LiveSample => ({ sat_id, name: sat_id.toUpperCase(), timestamp: '', az_deg: 0, el_deg: -10, range_km: 3000, range_rate_km_s: 0, sunlit: true });
const pass = (sat_id: string, aosMin: number, losMin: number): PassEvent => {
  const aos_ms = T0 + aosMin * 60_000;
  const los_ms = T0 + losMin * 60_000;
  const tca_ms = (aos_ms + los_ms) / 2;
  return { sat_id, name: sat_id, aos_ms, tca_ms, los_ms, max_el_deg: 40, aos: new Date(aos_ms).toISOString(), tca: new Date(tca_ms).toISOString(), los: new Date(los_ms).toISOString() };
};
const point = (sat_id: string, t_ms: number, az: number, el: number): PathPoint => ({ sat_id, timestamp: new Date(t_ms).toISOString(), t_ms, az_deg: az, el_deg: el, range_km: 2000, range_rate_km_s: -5, sunlit: true });

describe('lite focus rules', () => {
  const tracks = [track('so-50'), track('ao-91'), track('iss')];
  const iss = tracks[2];

  it('focus track: explicit sat_id matching a tracked live track', () => {
    assert.equal(focusTrack(tracks, 'ao-91', iss)?.sat_id, 'ao-91');
  });
  it('focus track: without a match, the first tracked live track', () => {
    assert.equal(focusTrack(tracks, undefined, iss)?.sat_id, 'so-50');
    assert.equal(focusTrack(tracks, 'fo-29', iss)?.sat_id, 'so-50');
  });
  it('focus track: ISS fallback when it is asked for but untracked, or nothing tracked has a track', () => {
    const untracked = tracks.slice(0, 2);
    assert.equal(focusTrack(untracked, 'iss', iss)?.sat_id, 'iss');
    assert.equal(focusTrack([], undefined, iss)?.sat_id, 'iss');
    assert.equal(focusTrack([], undefined, null), null);
  });

  const passes = [pass('so-50', -5, 5), pass('ao-91', 20, 32), pass('iss', 40, 50), pass('ao-91', 110, 122)];
  it('focus pass: the requested satellite’s first pass', () => {
    assert.equal(focusPass(passes, 'ao-91', T0), passes[1]);
  });
  it('focus pass: else a pass under way', () => {
    assert.equal(focusPass(passes, 'fo-29', T0), passes[0]);
    assert.equal(focusPass(passes, undefined, T0), passes[0]);
  });
  it('focus pass: else the first of the ordered list', () => {
    const later = passes.slice(1);
    assert.equal(focusPass(later, undefined, T0), later[0]);
    assert.equal(focusPass([], undefined, T0), null);
  });

  it('focusCue: only for a focus pass that has not started; az/el from the path sample nearest AOS', () => {
    const p = passes[1];
    const path = [point('ao-91', p.aos_ms - 20_000, 10, -1), point('ao-91', p.aos_ms + 3_000, 12.5, 0.2), point('ao-91', p.aos_ms + 30_000, 15, 2)];
    assert.deepEqual(focusCue(p, path, T0), { type: 'aos', sat_id: 'ao-91', az_deg: 12.5, el_deg: 0.2, aos: p.aos });
    assert.equal(focusCue(passes[0], path, T0), null, 'under way: no cue');
    assert.equal(focusCue(null, path, T0), null);
    assert.equal(focusCue(p, path, p.aos_ms), null, 'at AOS it has started');
  });

  it('focus subject: track and pass always name one satellite', () => {
    const none = () => null;
    const later = passes.slice(1); // ao-91 next, nothing under way
    const d = focusSubject(tracks, later, undefined, iss, T0, none);
    assert.deepEqual([d.track?.sat_id, d.pass], ['ao-91', later[0]], 'the pass decides, its satellite’s track follows');
    const asked = focusSubject(tracks, later, 'so-50', iss, T0, none);
    assert.deepEqual([asked.track?.sat_id, asked.pass], ['so-50', null], 'no pass of its own: none, not another’s');
    assert.equal(focusSubject(tracks, passes, 'iss', iss, T0, none).pass, passes[2]);
    const issPass = pass('iss', 70, 80);
    const fallback = focusSubject(tracks.slice(0, 2), later, 'iss', iss, T0, (id) => (id === 'iss' ? issPass : null));
    assert.deepEqual([fallback.track?.sat_id, fallback.pass], ['iss', issPass], 'the ISS fallback brings its own pass');
    assert.deepEqual(focusSubject(tracks, [], undefined, iss, T0, none), { track: tracks[0], pass: null }, 'no pass: the first tracked track');
  });
});
