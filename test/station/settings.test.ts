import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';

describe('station settings routes', () => {
  let s: TestServer;
  const file = (name: string) => join(s.dataDir, `${name}.json`);
  const onDisk = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8') : null);
  /** A rejected POST: 400 naming the field, and the file unchanged. */
  const rejects = async (path: string, body: unknown, field: string, fileName: string) => {
    const before = onDisk(fileName);
    const r = await s.post(path, body);
    assert.equal(r.status, 400, `${path} ${JSON.stringify(body)} → ${r.status}`);
    assert.equal(r.body.error.code, 'validation_failed');
    assert.equal(r.body.error.details.fields[0].field, field);
    assert.equal(onDisk(fileName), before, 'nothing persisted');
  };

  before(async () => {
    s = await startServer();
  });
  after(() => s.stop());

  describe('/settings/lite', () => {
    it('GET: ISS by default, and the satellites a client may pick (ISS first)', async () => {
      const r = await s.get('/api/v1/settings/lite');
      assert.deepEqual(r.body.state, { tracked_sat_ids: ['iss'], setup_complete: false });
      assert.equal(r.body.availableSatellites[0].sat_id, 'iss');
      assert.ok(r.body.availableSatellites.length > 50);
      assert.deepEqual(Object.keys(r.body.availableSatellites[1]).sort(), ['name', 'sat_id']);
    });

    it('keeps valid ids in order, drops unknown ids and repeats', async () => {
      const r = await s.post('/api/v1/settings/lite', { tracked_sat_ids: ['so-50', 'nope', 'iss', 'so-50', 'ao-91'], setup_complete: true });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.state, { tracked_sat_ids: ['so-50', 'iss', 'ao-91'], setup_complete: true });
      assert.deepEqual(r.body.dropped, ['nope', 'so-50']);
      assert.equal(r.body.fell_back_to_iss, false);
      assert.deepEqual(JSON.parse(onDisk('lite-settings')!).tracked_sat_ids, ['so-50', 'iss', 'ao-91']);
    });

    it('nothing valid (or empty) falls back to the ISS', async () => {
      for (const ids of [[], ['nope', 'NOT-AN-ID']]) {
        const r = await s.post('/api/v1/settings/lite', { tracked_sat_ids: ids });
        assert.equal(r.status, 200);
        assert.deepEqual(r.body.state.tracked_sat_ids, ['iss']);
        assert.equal(r.body.fell_back_to_iss, true);
      }
    });

    it('8 ids are accepted; 9 are a 400 (even with repeats) and nothing is saved', async () => {
      const eight = ['iss', 'so-50', 'ao-91', 'ao-27', 'fo-29', 'ao-7', 'ao-73', 'ao-85'];
      const r = await s.post('/api/v1/settings/lite', { tracked_sat_ids: eight });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.state.tracked_sat_ids, eight);
      await rejects('/api/v1/settings/lite', { tracked_sat_ids: [...eight, 'lo-19'] }, 'tracked_sat_ids', 'lite-settings');
      await rejects('/api/v1/settings/lite', { tracked_sat_ids: [...eight, 'iss'] }, 'tracked_sat_ids', 'lite-settings');
    });

    it('wrong types are a 400', async () => {
      await rejects('/api/v1/settings/lite', { tracked_sat_ids: 'iss' }, 'tracked_sat_ids', 'lite-settings');
      await rejects('/api/v1/settings/lite', { tracked_sat_ids: [1] }, 'tracked_sat_ids.0', 'lite-settings');
      await rejects('/api/v1/settings/lite', { setup_complete: 'yes' }, 'setup_complete', 'lite-settings');
    });
  });

  describe('/settings/iss-display-mode', () => {
    it('GET/POST round trip', async () => {
      assert.equal((await s.get('/api/v1/settings/iss-display-mode')).body.state.iss_display_mode, 'auto');
      const r = await s.post('/api/v1/settings/iss-display-mode', { iss_display_mode: 'track' });
      assert.equal(r.status, 200);
      assert.equal(r.body.state.iss_display_mode, 'track');
      assert.match(r.body.state.stream_url, /^https:\/\//);
      assert.equal(JSON.parse(onDisk('iss-display')!).iss_display_mode, 'track');
    });
    it('rejects unknown modes and non-http URLs', async () => {
      await rejects('/api/v1/settings/iss-display-mode', { iss_display_mode: 'cinema' }, 'iss_display_mode', 'iss-display');
      await rejects('/api/v1/settings/iss-display-mode', { stream_url: 'javascript:alert(1)' }, 'stream_url', 'iss-display');
    });
  });

  describe('/settings/timezone', () => {
    it('UTC by default; IANA zones accepted', async () => {
      assert.equal((await s.get('/api/v1/settings/timezone')).body.state.display_timezone, 'UTC');
      for (const z of ['Europe/London', 'America/New_York', 'Asia/Kolkata', 'Europe/Kyiv', 'Australia/Adelaide', 'UTC']) {
        const r = await s.post('/api/v1/settings/timezone', { display_timezone: z });
        assert.equal(r.status, 200, z);
        assert.equal(r.body.state.display_timezone, z);
      }
    });
    it('unknown zones and offsets are a 400', async () => {
      for (const z of ['Mars/Olympus_Mons', 'GMT+2', '+02:00', 'europe/london', '', 'Local']) {
        await rejects('/api/v1/settings/timezone', { display_timezone: z }, 'display_timezone', 'timezone');
      }
    });
  });

  describe('/settings/pass-filter', () => {
    it('Favorites keeps known ids once', async () => {
      const r = await s.post('/api/v1/settings/pass-filter', { pass_profile: 'Favorites', favorites: ['so-50', 'so-50', 'iss', 'nope'] });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.state, { pass_profile: 'Favorites', favorites: ['so-50', 'iss'], min_el_deg: 5 });
      assert.deepEqual((await s.get('/api/v1/settings/pass-filter')).body.state, r.body.state);
    });
    it('rejects unknown profiles', async () => {
      await rejects('/api/v1/settings/pass-filter', { pass_profile: 'Some' }, 'pass_profile', 'pass-filter');
      await rejects('/api/v1/settings/pass-filter', { favorites: 'iss' }, 'favorites', 'pass-filter');
    });
  });

  describe('/settings/developer-overrides and /settings/gps', () => {
    it('developer overrides: every field round-trips; bad values are 400s', async () => {
      const all = {
        enabled: true,
        force_scene: 'iss_video',
        force_sat_id: 'so-50',
        simulate_pass_phase: 'mid',
        force_iss_video_eligible: true,
        force_iss_stream_healthy: false,
        show_debug_badge: true,
      };
      const r = await s.post('/api/v1/settings/developer-overrides', all);
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.state, all);
      await rejects('/api/v1/settings/developer-overrides', { force_scene: 'disco' }, 'force_scene', 'developer-overrides');
      await rejects('/api/v1/settings/developer-overrides', { simulate_pass_phase: 'peak' }, 'simulate_pass_phase', 'developer-overrides');
      await rejects('/api/v1/settings/developer-overrides', { force_iss_video_eligible: 'yes' }, 'force_iss_video_eligible', 'developer-overrides');
      await s.post('/api/v1/settings/developer-overrides', { enabled: false, force_iss_video_eligible: null, force_iss_stream_healthy: null });
    });
    it('gps settings: round trip and bounds', async () => {
      const r = await s.post('/api/v1/settings/gps', { connection_mode: 'serial', serial_device: '/dev/ttyACM0', baud_rate: 4800 });
      assert.equal(r.status, 200);
      assert.equal(r.body.state.serial_device, '/dev/ttyACM0');
      await rejects('/api/v1/settings/gps', { connection_mode: 'carrier-pigeon' }, 'connection_mode', 'gps-settings');
      await rejects('/api/v1/settings/gps', { baud_rate: 1234 }, 'baud_rate', 'gps-settings');
    });
  });

  describe('/network', () => {
    it('GET shows online state and the switch; POST flips the switch the refresh and iGate read', async () => {
      const r0 = await s.get('/api/v1/network');
      assert.equal(r0.status, 200);
      assert.equal(r0.body.state.offline, false);
      assert.equal(typeof r0.body.online, 'boolean');
      const r = await s.post('/api/v1/network', { offline: true });
      assert.equal(r.status, 200);
      assert.deepEqual(r.body.state, { offline: true });
      assert.equal(r.body.online, false);
      assert.match(r.body.reason, /offline/);
      assert.equal(s.app.services.network.isOffline(), true);
      assert.equal(JSON.parse(onDisk('network')!).offline, true);
      await rejects('/api/v1/network', { offline: 'sometimes' }, 'offline', 'network');
      await s.post('/api/v1/network', { offline: false });
      assert.equal(s.app.services.network.isOffline(), false);
    });
  });
});
