import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { rigFixture, setOperatorState, until, type RigFixture } from '../radio/rig-fixture.js';
import { FixedClock } from '../../src/util/clock.js';
import type { PassEvent } from '../../src/orbit/types.js';

// Logging during a radio session, through the real server and a simulated IC-705 on a
// pseudo-terminal: without sat_id the QSO takes the session's satellite (not the lite focus,
// which is the ISS), its frequencies and mode from the rig's own targets while the session
// tracks, and from the frequency guide once the rig is released.

const SAT = 'so-50';

describe('logbook during a radio session', () => {
  let f: RigFixture;
  let clock: FixedClock;
  let pass: PassEvent;
  before(async () => {
    clock = new FixedClock(Date.parse('2026-08-22T12:00:00Z'));
    f = await rigFixture({ clock });
    const list = await f.s.app.services.orbit.passesWhenReady({ from_ms: clock.now(), hours: 48, min_max_el_deg: 10, sat_ids: [SAT], include_ongoing: false });
    pass = list[0];
    assert.ok(pass, `a ${SAT} pass in two days`);
    assert.equal((await f.s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
  });
  after(() => f.stop());

  it("takes the tracking rig's frequencies and mode for the session's satellite", async () => {
    setOperatorState(f.sim);
    const sel = await f.s.post('/api/v1/radio/session/select', { sat_id: pass.sat_id, sat_name: pass.name, pass_aos: pass.aos, pass_los: pass.los, max_el_deg: pass.max_el_deg });
    assert.equal(sel.status, 200, JSON.stringify(sel.body));
    clock.set(pass.tca_ms);
    const st = await f.s.post('/api/v1/radio/session/start');
    assert.equal(st.status, 200, JSON.stringify(st.body));
    const radio = f.s.app.services.radio;
    await until(() => radio.runtime().active_sat_id === SAT && radio.runtime().targets.vfo_b_freq_hz !== null, 'the rig tracking');
    const t = radio.runtime().targets;
    const r = await f.s.post('/api/v1/logbook/qso', { call: 'W1AW', their_grid: 'FN31' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const q = r.body.qso;
    assert.equal(q.sat_id, SAT);
    assert.equal(q.sat_name, 'SO-50');
    assert.equal(q.prop_mode, 'SAT');
    assert.equal(q.freq_mhz, t.vfo_b_freq_hz! / 1e6, 'uplink: the transmit VFO');
    assert.equal(q.freq_rx_mhz, t.vfo_a_freq_hz! / 1e6, 'downlink: the receive VFO');
    assert.equal(q.sat_mode, 'V/U');
    assert.equal(q.band, '2m');
    assert.equal(q.band_rx, '70cm');
    assert.equal(q.mode, 'FM');
    // Not the guide's nominal pair: the rig's Doppler-corrected targets at this instant.
    const rec = f.s.app.services.guidance.recommend(SAT, clock.now())!.recommendation!;
    assert.ok(Math.abs(q.freq_rx_mhz - rec.downlink_hz / 1e6) < 0.02);
  });

  it('after the rig is released, the same pass still names the satellite, with the guide\'s frequencies', async () => {
    assert.equal((await f.s.post('/api/v1/radio/session/stop')).status, 200);
    clock.set(pass.los_ms + 5 * 60_000); // typed in just after LOS
    const r = await f.s.post('/api/v1/logbook/qso', { call: 'K1ABC' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const rec = f.s.app.services.guidance.recommend(SAT, clock.now())!.recommendation!;
    assert.equal(r.body.qso.sat_id, SAT);
    assert.equal(r.body.qso.freq_mhz, rec.uplink_hz! / 1e6);
    assert.equal(r.body.qso.freq_rx_mhz, rec.downlink_hz / 1e6);
  });

  it('sat_id null: a terrestrial QSO even within the pass\'s margin (the operator said "no satellite")', async () => {
    clock.set(pass.los_ms + 5 * 60_000);
    const r = await f.s.post('/api/v1/logbook/qso', { call: 'G4ABC', sat_id: null });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.qso.sat_id, null);
    assert.equal(r.body.qso.prop_mode, null);
    assert.ok(r.body.qso.mode, 'the rig gives the mode');
  });

  it('long after the pass: a plain QSO on the rig\'s frequency', async () => {
    clock.set(pass.los_ms + 60 * 60_000);
    const ongoing = f.s.app.services.orbit.passes({ from_ms: clock.now(), hours: 1, min_max_el_deg: 0, sat_ids: ['iss'], include_ongoing: true }).find((p) => p.aos_ms <= clock.now());
    const r = await f.s.post('/api/v1/logbook/qso', { call: 'VE3XYZ' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    if (ongoing) return assert.equal(r.body.qso.sat_id, 'iss', 'the lite focus pass under way');
    const rt = f.s.app.services.radio.runtime();
    assert.equal(r.body.qso.sat_id, null);
    assert.equal(r.body.qso.prop_mode, null);
    assert.equal(r.body.qso.freq_rx_mhz === null || r.body.qso.freq_rx_mhz === rt.targets.vfo_a_freq_hz! / 1e6, true);
    assert.ok(r.body.qso.freq_mhz > 0, 'the rig frequency');
  });
});
