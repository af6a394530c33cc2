import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

const LIVE_KEYS = ['az_deg', 'el_deg', 'name', 'range_km', 'range_rate_km_s', 'sat_id', 'sunlit', 'timestamp'];

describe('GET /api/v1/system/state', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer();
    await s.app.services.orbit.table.ready();
  });
  after(() => s.stop());

  it('carries every block of the spec', async () => {
    const r = await s.get('/api/v1/system/state');
    assert.equal(r.status, 200);
    const b = r.body;
    for (const k of [
      'timestamp', 'location', 'settings', 'iss', 'activeTrack', 'activePass', 'frequencyRecommendation', 'frequencyMatrix',
      'radioSettings', 'radioRuntime', 'radioControlSession', 'aprsSettings', 'aprsRuntime', 'aprsPreviewTarget', 'stationIdentity', 'bodies',
    ]) {
      assert.ok(k in b, `missing ${k}`);
    }
    assert.equal(b.timestamp, '2026-08-22T12:00:00.000Z');
    assert.deepEqual(b.location, { source: 'manual', lat: 51.4779, lon: -0.0015, alt_m: 46, locator: 'IO91xl' });
    assert.deepEqual(b.settings, { iss_display_mode: 'auto', display_timezone: 'UTC', pass_profile: 'All' });
    assert.deepEqual(Object.keys(b.iss).sort(), ['aboveHorizon', 'activeStreamUrl', 'mode', 'streamHealthy', 'sunlit', 'videoEligible']);
    // Default: the lite tracked set is the ISS, so the screen follows the ISS.
    assert.deepEqual(Object.keys(b.activeTrack).sort(), LIVE_KEYS);
    assert.equal(b.activeTrack.sat_id, 'iss');
    assert.deepEqual(Object.keys(b.activePass).sort(), ['aos', 'los', 'max_el_deg', 'sat_id', 'tca']);
    assert.equal(b.activePass.sat_id, 'iss');
    assert.ok(Date.parse(b.activePass.los) > Date.parse(b.timestamp));
    assert.equal(b.frequencyRecommendation.sat_id, 'iss');
    assert.equal(b.frequencyRecommendation.mode, 'fm');
    assert.equal(b.frequencyMatrix, null);
    assert.equal(b.radioSettings.rig_model, 'rigA');
    assert.equal(b.radioRuntime.connected, false);
    assert.equal(b.radioRuntime.control_mode, 'idle');
    assert.equal(b.radioControlSession.screen_state, 'idle');
    assert.equal(b.radioControlSession.control_state, 'not_connected');
    assert.equal(b.aprsSettings.ssid, 0);
    assert.equal(b.aprsRuntime.connected, false);
    assert.equal(b.aprsPreviewTarget.can_transmit, false);
    assert.match(b.aprsPreviewTarget.tx_block_reason, /callsign not valid: no callsign set/);
    assert.deepEqual({ valid: b.stationIdentity.valid, callsign: b.stationIdentity.callsign }, { valid: false, callsign: '' });
    for (const body of [b.bodies.sun, b.bodies.moon]) {
      assert.ok(body.az_deg >= 0 && body.az_deg < 360);
      assert.ok(body.el_deg >= -90 && body.el_deg <= 90);
    }
    // 12:00 UTC at Greenwich on 22 August: the Sun is near the meridian at 90° − 51.48° + 11.6° (declination).
    assert.ok(Math.abs(b.bodies.sun.az_deg - 180) < 3, `sun az ${b.bodies.sun.az_deg}`);
    assert.ok(Math.abs(b.bodies.sun.el_deg - 50.1) < 0.5, `sun el ${b.bodies.sun.el_deg}`);
  });

  it('iss block equals /iss/state and /iss/state carries the live track', async () => {
    const sys = await s.get('/api/v1/system/state');
    const iss = await s.get('/api/v1/iss/state');
    assert.equal(iss.status, 200);
    assert.deepEqual(iss.body.state, sys.body.iss);
    assert.deepEqual(Object.keys(iss.body.issTrack).sort(), LIVE_KEYS);
    assert.equal(iss.body.issTrack.sat_id, 'iss');
    assert.equal(iss.body.state.sunlit, iss.body.issTrack.sunlit);
    assert.equal(iss.body.state.aboveHorizon, iss.body.issTrack.el_deg > 0);
  });

  it('settings changes show up; the ISS video overrides apply', async () => {
    await s.post('/api/v1/settings/timezone', { display_timezone: 'Europe/London' });
    await s.post('/api/v1/settings/iss-display-mode', { iss_display_mode: 'video', stream_url: 'https://example.org/iss.m3u8' });
    await s.post('/api/v1/settings/developer-overrides', { enabled: true, force_iss_video_eligible: false, force_iss_stream_healthy: false });
    const b = (await s.get('/api/v1/system/state')).body;
    assert.equal(b.settings.display_timezone, 'Europe/London');
    assert.equal(b.settings.iss_display_mode, 'video');
    assert.equal(b.iss.videoEligible, false);
    assert.equal(b.iss.streamHealthy, false);
    assert.equal(b.iss.activeStreamUrl, 'https://example.org/iss.m3u8');
    assert.notEqual(b.iss.mode, 'video');
    await s.post('/api/v1/settings/developer-overrides', { force_iss_stream_healthy: true });
    const c = (await s.get('/api/v1/iss/state')).body;
    assert.equal(c.state.streamHealthy, true);
    assert.equal(c.state.mode, c.state.aboveHorizon ? 'pass' : 'video');
    await s.post('/api/v1/settings/developer-overrides', { enabled: false });
  });

  it('activeTrack follows force_sat_id, then the pass filter candidates', async () => {
    await s.post('/api/v1/settings/developer-overrides', { enabled: true, force_sat_id: 'rs-44' });
    let b = (await s.get('/api/v1/system/state')).body;
    assert.equal(b.activeTrack.sat_id, 'rs-44');
    assert.equal(b.activePass?.sat_id ?? 'rs-44', 'rs-44');
    assert.equal(b.frequencyRecommendation.mode, 'linear');
    assert.equal(b.frequencyMatrix.sat_id, 'rs-44');
    await s.post('/api/v1/settings/developer-overrides', { enabled: false, force_sat_id: null });
    await s.post('/api/v1/settings/pass-filter', { pass_profile: 'Favorites', favorites: ['so-50', 'ao-91'] });
    b = (await s.get('/api/v1/system/state')).body;
    assert.ok(['so-50', 'ao-91'].includes(b.activeTrack.sat_id));
    assert.equal(b.settings.pass_profile, 'Favorites');
    // The chosen one is the favourite whose pass is under way or comes first, among the passes
    // reaching the operator's minimum elevation (5° by default): SO-50's next pass is a graze.
    const workable = (await s.get('/api/v1/passes?include_ongoing=true')).body.items as { sat_id: string; aos: string }[];
    const now = s.clock.now();
    const first = (id: string) => workable.find((p) => p.sat_id === id)!;
    const [so50, ao91] = [first('so-50'), first('ao-91')];
    const expected = Date.parse(so50.aos) <= now ? so50 : Date.parse(ao91.aos) <= now ? ao91 : Date.parse(so50.aos) <= Date.parse(ao91.aos) ? so50 : ao91;
    assert.equal(b.activeTrack.sat_id, expected.sat_id);
    assert.deepEqual([b.activePass.sat_id, b.activePass.aos], [expected.sat_id, expected.aos]);
    await s.post('/api/v1/settings/pass-filter', { pass_profile: 'All', favorites: [] });
  });

  it('stationIdentity follows the APRS callsign and SSID', async () => {
    await s.app.services.stores.aprs.update({ callsign: 'dl1abc', ssid: 7 });
    let b = (await s.get('/api/v1/system/state')).body;
    assert.deepEqual(b.stationIdentity, { valid: true, callsign: 'DL1ABC-7' });
    assert.equal(b.aprsSettings.callsign, 'DL1ABC');
    await s.app.services.stores.aprs.update({ callsign: 'N0CALL', ssid: 0 });
    b = (await s.get('/api/v1/system/state')).body;
    assert.equal(b.stationIdentity.valid, false);
    assert.equal(b.stationIdentity.callsign, 'N0CALL');
  });

  it('the station and the APRS side read one identity, computed once (not each their own)', async () => {
    await s.app.services.stores.aprs.update({ callsign: 'g4abc', ssid: 3 });
    const { station, aprs } = s.app.services;
    assert.equal(station.identity(), aprs.identity());
    assert.deepEqual(aprs.identity(), { valid: true, callsign: 'G4ABC-3' });
  });

  it('location changes move the bodies and the resolved location', async () => {
    const before = (await s.get('/api/v1/system/state')).body;
    await s.post('/api/v1/location', { add_profile: { id: 'syd', name: 'Sydney', point: { lat: -33.8688, lon: 151.2093, alt_m: 58 } }, selected_profile_id: 'syd' });
    const after = (await s.get('/api/v1/system/state')).body;
    assert.deepEqual(after.location, { source: 'manual', lat: -33.8688, lon: 151.2093, alt_m: 58, locator: 'QF56od' });
    // 22:00 local in Sydney: the Sun is well below the horizon.
    assert.ok(after.bodies.sun.el_deg < -30, `sun el ${after.bodies.sun.el_deg}`);
    assert.notDeepEqual(after.bodies, before.bodies);
    // The orbit engine follows: its observer moved and the pass table re-keys for it.
    const orbit = s.app.services.orbit;
    assert.deepEqual(orbit.observer(), { lat_deg: -33.8688, lon_deg: 151.2093, alt_m: 58 });
    const table = await orbit.table.ready();
    assert.ok(table, 'a pass table for the new location');
    assert.deepEqual(table.key, orbit.table.key());
    assert.equal(after.activePass.sat_id, after.activeTrack.sat_id);
  });
});
