import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { closedUdpPort, lanFixture, radioWifi, type LanFixture } from './lan-fixture.js';
import { until } from '../rig-fixture.js';
import type { PassEvent } from '../../../src/orbit/types.js';

// Radio control over the IC-705's Wi-Fi: the same routes, controller and session as on USB, the
// CI-V riding the LAN session to the emulator. Preflight, a rejected login, a radio that goes
// away and comes back, a clean release, and a whole pass on a fast clock.

describe('radio over Wi-Fi (Icom LAN session)', () => {
  let f: LanFixture;
  const state = async () => (await f.s.get('/api/v1/radio/state')).body;
  before(async () => {
    f = await lanFixture();
  });
  after(() => f?.stop());

  it('preflight: a host that does not answer is a clear 504 and no login is tried', async () => {
    const port = await closedUdpPort();
    await f.s.post('/api/v1/settings/radio', radioWifi(f, { wifi_control_port: port }));
    const r = await f.s.post('/api/v1/radio/connect');
    assert.equal(r.status, 504, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'rig_unreachable');
    assert.match(r.body.error.message, /host 127\.0\.0\.1 did not respond/);
    const st = await state();
    assert.equal(st.runtime.connected, false);
    assert.match(st.runtime.last_error, /did not respond/);
    assert.equal(f.lan.events.filter((e) => e.kind.startsWith('login')).length, 0);
    await f.s.post('/api/v1/radio/disconnect');
  });

  it('a wrong password is refused plainly, once (no retry hammering the radio)', async () => {
    await f.s.post('/api/v1/settings/radio', radioWifi(f, { wifi_password: 'wrong' }));
    const r = await f.s.post('/api/v1/radio/connect');
    assert.equal(r.status, 502, JSON.stringify(r.body));
    assert.equal(r.body.error.code, 'rig_login_rejected');
    assert.match(r.body.error.message, /user name and password/);
    await f.clock.run(30_000, 1000, 2);
    await new Promise((res) => setTimeout(res, 200));
    assert.equal(f.lan.events.filter((e) => e.kind === 'login_rejected').length, 1);
    assert.equal(f.lan.clientConnected, false);
  });

  it('connects, polls, writes, and releases the radio cleanly for the next client', async () => {
    f.rig.state.vfoA.freq = 145_500_000;
    await f.s.post('/api/v1/settings/radio', radioWifi(f));
    const c = await f.s.post('/api/v1/radio/connect');
    assert.equal(c.status, 200, JSON.stringify(c.body));
    assert.equal(c.body.runtime.connected, true);
    assert.equal(c.body.settings.wifi_password, '********');
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.equal(p.body.runtime.targets.vfo_a_freq_hz, 145_500_000);
    const w = await f.s.post('/api/v1/radio/frequency', { vfo: 'A', freq_hz: 145_800_000 });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    assert.equal(f.rig.state.vfoA.freq, 145_800_000);
    assert.equal(f.lan.clientConnected, true);
    const d = await f.s.post('/api/v1/radio/disconnect');
    assert.equal(d.status, 200);
    await until(() => !f.lan.clientConnected, 'the radio released');
    assert.ok(f.lan.events.some((e) => e.kind === 'disconnect'), 'a clean disconnect reached the radio');
    const again = await f.s.post('/api/v1/radio/connect');
    assert.equal(again.status, 200, 'the released radio takes the next login');
  });

  it('a radio that goes away is reported and reconnected with backoff when it is back', async () => {
    f.lan.powerOff();
    await until(async () => (await state()).runtime.connected === false, 'the lost session noticed', 15_000);
    assert.match((await state()).runtime.last_error, /lost|went away|did not respond/);
    f.lan.powerOn();
    for (let i = 0; i < 40 && !(await state()).runtime.connected; i++) {
      await f.clock.run(1000, 500, 20);
    }
    assert.equal((await state()).runtime.connected, true, JSON.stringify((await state()).runtime));
    const p = await f.s.post('/api/v1/radio/poll');
    assert.equal(p.status, 200);
  });

  it('a whole pass-pinned session over Wi-Fi on a fast clock: tracked, then restored at LOS', async () => {
    const passes: PassEvent[] = await f.s.app.services.orbit.passesWhenReady({ from_ms: f.clock.now(), hours: 48, min_max_el_deg: 5, sat_ids: ['iss'], include_ongoing: false });
    const pass = passes[0];
    f.rig.state.vfoA.freq = 14_074_000;
    f.rig.state.vfoA.mode = 'USB';
    f.rig.state.split = false;
    const sel = await f.s.post('/api/v1/radio/session/select', { sat_id: pass.sat_id, sat_name: pass.name, pass_aos: pass.aos, pass_los: pass.los, max_el_deg: pass.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    const st = await f.s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    assert.equal(st.body.session.screen_state, 'armed');
    f.clock.set(pass.aos_ms - 1000);
    await f.clock.run(2000, 1000, 5);
    const session = async () => (await f.s.get('/api/v1/radio/session')).body;
    await until(async () => (await session()).session.screen_state === 'active', 'tracking at AOS', 5000);
    const seen = new Set<number>();
    while (f.clock.now() < pass.los_ms - 2000) {
      await f.clock.run(1500, 1500, 0);
      await new Promise((r) => setTimeout(r, 15));
      seen.add(f.rig.state.vfoA.freq);
    }
    assert.ok(seen.size > 3, `the downlink followed Doppler over Wi-Fi (${seen.size} distinct)`);
    f.clock.set(pass.los_ms + 100);
    await until(async () => (await session()).session.screen_state === 'completed', 'end at LOS', 5000);
    await until(() => f.rig.state.vfoA.freq === 14_074_000 && f.rig.state.vfoA.mode === 'USB', 'the rig restored', 5000);
    assert.equal(f.rig.state.split, false);
  });
});
