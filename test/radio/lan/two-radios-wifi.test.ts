import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lanFixture, radioWifi, type LanFixture } from './lan-fixture.js';
import { until } from '../rig-fixture.js';
import { openPtyPair, type PtyPair } from '../../sims/pty-pair.js';
import { CivRigSim } from '../../sims/civ-rig.js';
import type { FixedClock } from '../../../src/util/clock.js';

// Two IC-705s, one over Wi-Fi (issue 34's "ordinary case"): the USB one receives the downlink,
// the Wi-Fi one transmits the uplink over its LAN session; PTT and the emergency stop reach the
// transmit radio through the LAN session's CI-V.

describe('two IC-705s: the downlink on USB, the uplink over Wi-Fi', () => {
  let f: LanFixture;
  let pty: PtyPair;
  let usb: CivRigSim;
  const state = async () => (await f.s.get('/api/v1/radio/state')).body;
  const tick = async (ms: number) => {
    const clock = f.clock as FixedClock;
    const armed = clock.pendingTimers;
    clock.advance(ms);
    await until(() => clock.pendingTimers >= armed, `the loops re-armed after ${ms} ms`);
  };
  before(async () => {
    f = await lanFixture();
    pty = await openPtyPair();
    usb = new CivRigSim({ kind: 'IC-705', transceive: true });
    await usb.open(pty.rigPath);
  });
  after(async () => {
    await f?.stop();
    await usb?.close().catch(() => {});
    await pty?.close();
  });

  it('tracks with both, and the emergency stop unkeys the radio on Wi-Fi', async () => {
    const { enabled: _, ...wifiLink } = radioWifi(f);
    const set = await f.s.post('/api/v1/settings/radio', {
      enabled: true,
      rig_model: 'rigA',
      transport: 'usb',
      serial_device: pty.ctlPath,
      baud_rate: 115200,
      civ_address: '0xA4',
      uplink_rig: { serial_device: '', baud_rate: 19200, hamlib_model: 0, hamlib_address: '', ...wifiLink },
    });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.state.uplink_rig.wifi_password, '********', 'write-only on the uplink radio too');
    assert.equal((await f.s.post('/api/v1/radio/connect')).status, 200);
    await until(async () => {
      const l = (await state()).runtime.legs;
      return l.downlink.connected && l.uplink?.connected;
    }, 'both radios connected', 10_000);
    const clock = f.clock as FixedClock;
    const [p] = await f.s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 30, sat_ids: ['rs-44'], include_ongoing: false });
    clock.set(p.tca_ms - 120_000);
    const start = await f.s.post('/api/v1/radio/auto-track/start', { sat_id: 'rs-44', interval_ms: 1000 });
    assert.equal(start.status, 200, JSON.stringify(start.body));
    const rxSeen = new Set<number>();
    for (let i = 0; i < 4; i++) {
      await tick(5000);
      rxSeen.add(usb.state.vfoA.freq);
    }
    assert.ok(rxSeen.size >= 3, `the USB radio followed Doppler (${[...rxSeen]})`);
    assert.ok(Math.abs(f.rig.state.vfoA.freq - 145_965_000) < 60_000, `the Wi-Fi radio on the uplink: ${f.rig.state.vfoA.freq}`);
    assert.equal(f.rig.state.split, false);
    f.rig.state.transmitting = true;
    assert.equal((await f.s.post('/api/v1/aprs/emergency-stop')).status, 200);
    await until(() => f.rig.state.transmitting === false, 'the Wi-Fi radio unkeyed');
    assert.equal(usb.state.transmitting, false);
    assert.equal((await f.s.post('/api/v1/radio/auto-track/stop')).status, 200);
  });
});
