import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultAprsSettings, type AprsSettings } from '../../src/aprs/settings.js';
import { allTargets, selectedTarget, txPath, type TargetWorld } from '../../src/aprs/targets/targets.js';
import { aprsRegionFor } from '../../src/aprs/targets/regional-frequency.js';
import { transmitGate, type GateInput } from '../../src/aprs/targets/tx-gate.js';
import { correctDownlinkHz, correctUplinkHz } from '../../src/guidance/doppler.js';
import type { FrequencyProfile, FrequencyRecommendation } from '../../src/guidance/schemas.js';
import type { PassEvent } from '../../src/orbit/types.js';

const T0 = Date.parse('2026-11-23T12:00:00Z');
const pass = (aos_ms: number, los_ms: number): PassEvent => ({
  sat_id: 'iss', name: 'ISS', aos_ms, tca_ms: (aos_ms + los_ms) / 2, los_ms, max_el_deg: 40,
  aos: new Date(aos_ms).toISOString(), tca: new Date((aos_ms + los_ms) / 2).toISOString(), los: new Date(los_ms).toISOString(),
});

/** A world with the ISS and CSS in the catalog; the Doppler model is a fixed range rate applied like the real one. */
function world(o: Partial<TargetWorld> & { rate?: number; passAt?: [number, number] | null } = {}): TargetWorld {
  const rate = o.rate ?? -5; // km/s, approaching
  const p = o.passAt === undefined ? [T0 - 60_000, T0 + 300_000] : o.passAt;
  return {
    now_ms: T0,
    location: { lat: 51.48, lon: 0 },
    identity: { valid: true },
    emergency_stopped: false,
    satellite: (n) => (n === 25544 ? { sat_id: 'iss', name: 'ISS' } : n === 48274 ? { sat_id: 'css', name: 'CSS' } : null),
    pass: () => (p ? pass(p[0], p[1]) : null),
    // Independent of the guidance module: the uhf_only rule and 1 kHz quantizing by hand.
    recommend: (prof: FrequencyProfile): FrequencyRecommendation => {
      const c = prof.columns[0];
      const q = (hz: number) => Math.round(hz / 1000) * 1000;
      const u = c.uplink_hz!; // the APRS targets here are all two-way
      const up = u >= 400e6 ? q(correctUplinkHz(u, rate)) : u;
      const down = c.downlink_hz >= 400e6 ? q(correctDownlinkHz(c.downlink_hz, rate)) : c.downlink_hz;
      return {
        sat_id: prof.sat_id, mode: 'fm', phase: 'mid', label: 'Tune now', correction_side: 'uhf_only', uplink_mhz: up / 1e6, downlink_mhz: down / 1e6,
        uplink_hz: up, downlink_hz: down, uplink_mode: 'FM', downlink_mode: 'FM', ctcss_hz: null, range_rate_km_s: rate, selected_column_index: null,
      };
    },
    retuning: () => false,
    ...o,
  };
}

const settings = (p: Partial<AprsSettings> = {}): AprsSettings => ({ ...defaultAprsSettings(), callsign: 'G4ABC', listen_only: false, ...p });

describe('APRS regional frequency', () => {
  const cases: [string, number, number, number][] = [
    ['London', 51.5, -0.1, 144_800_000],
    ['Denver', 39.7, -105, 144_390_000],
    ['Sydney', -33.9, 151.2, 145_175_000],
    ['Auckland', -36.8, 174.8, 144_575_000],
    ['Tokyo', 35.7, 139.7, 144_640_000],
    ['São Paulo', -23.5, -46.6, 145_570_000],
    ['Buenos Aires', -34.6, -58.4, 144_930_000],
    ['Moscow', 55.8, 37.6, 144_800_000],
    ['Novosibirsk', 55, 82.9, 144_800_000],
    ['Mumbai', 19.1, 72.9, 144_390_000],
    ['Chatham Islands (antimeridian box)', -44, -176.5, 144_575_000],
  ];
  for (const [name, lat, lon, hz] of cases) it(name, () => assert.equal(aprsRegionFor(lat, lon).frequency_hz, hz));
});

describe('APRS targets', () => {
  it('terrestrial: regional default by location, or the manual frequency', () => {
    const t = selectedTarget(settings(), world());
    assert.equal(t.operating_mode, 'terrestrial');
    assert.equal(t.frequency_hz, 144_800_000);
    assert.match(t.region_label!, /Region 1/);
    assert.equal(t.can_transmit, true);
    assert.equal(t.requires_pass, false);
    const m = selectedTarget(settings({ terrestrial_manual_frequency_hz: 145_525_000 }), world());
    assert.equal(m.frequency_hz, 145_525_000);
    assert.match(m.reason!, /manual/);
  });

  it('satellite: Doppler-corrected UHF channel from the shared model, pass window and gate', () => {
    const s = settings({ operating_mode: 'satellite', selected_satellite_id: 'iss', selected_channel_id: 'iss-uhf' });
    const t = selectedTarget(s, world());
    assert.equal(t.sat_id, 'iss');
    assert.equal(t.uplink_hz, 437_825_000);
    // Approaching: we transmit low, receive high.
    assert.ok(t.corrected_uplink_hz! < 437_825_000 && t.corrected_downlink_hz! > 437_825_000);
    assert.equal(t.corrected_uplink_hz! % 1000, 0);
    assert.equal(t.pass_active, true);
    assert.equal(t.can_transmit, true);
    assert.equal(t.correction_side, 'uhf_only');
    assert.equal(t.active_phase, 'mid');
    assert.equal(txPath(s, t), 'ARISS');
    assert.equal(txPath({ ...s, satellite_path: 'ARISS,WIDE2-1' }, t), 'ARISS,WIDE2-1');
  });

  it('satellite VHF channel: uhf_only leaves both legs on the nominal channel', () => {
    const t = selectedTarget(settings({ operating_mode: 'satellite', selected_satellite_id: 'iss', selected_channel_id: 'iss-vhf' }), world());
    assert.equal(t.corrected_uplink_hz, 145_825_000);
    assert.equal(t.corrected_downlink_hz, 145_825_000);
  });

  it('satellite outside its pass: not an error, can_transmit false with the AOS that opens it', () => {
    const aos = T0 + 3_600_000;
    const t = selectedTarget(settings({ operating_mode: 'satellite', selected_satellite_id: 'iss', selected_channel_id: 'iss-vhf' }), world({ passAt: [aos, aos + 600_000] }));
    assert.equal(t.pass_active, false);
    assert.equal(t.can_transmit, false);
    assert.match(t.tx_block_reason!, /outside the pass.*2026-11-23T13:00:00/);
    assert.equal(t.pass_aos, new Date(aos).toISOString());
    const none = selectedTarget(settings({ operating_mode: 'satellite', selected_satellite_id: 'iss' }), world({ passAt: null }));
    assert.match(none.tx_block_reason!, /no upcoming pass/);
  });

  it('satellite with no usable channel: blocked with the reason', () => {
    const t = selectedTarget(settings({ operating_mode: 'satellite', selected_satellite_id: 'ao-7', selected_channel_id: null }), world());
    assert.equal(t.can_transmit, false);
    assert.match(t.tx_block_reason!, /no usable APRS channel/);
    const none = selectedTarget(settings({ operating_mode: 'satellite' }), world());
    assert.match(none.tx_block_reason!, /no satellite channel selected/);
  });

  it('lists the terrestrial target and every APRS channel of satellites in the catalog', () => {
    const ids = allTargets(settings(), world()).map((t) => `${t.operating_mode}:${t.channel_id}`);
    assert.deepEqual(ids, ['terrestrial:null', 'satellite:iss-vhf', 'satellite:iss-uhf', 'satellite:css-vhf', 'satellite:css-uhf']);
  });
});

describe('APRS transmit gate', () => {
  const ok: GateInput = { emergency_stopped: false, identity: { valid: true }, listen_only: false, target_problem: null, requires_pass: true, pass_active: true, pass_aos: null, tx_hz: 145_825_000 };
  const table: [string, Partial<GateInput>, RegExp | null][] = [
    ['all clear', {}, null],
    ['emergency stop first', { emergency_stopped: true, listen_only: true, identity: { valid: false } }, /emergency stop/],
    ['invalid callsign', { identity: { valid: false, reason: 'no callsign set' }, listen_only: true }, /callsign not valid: no callsign set/],
    ['listen only', { listen_only: true }, /listen-only/],
    ['no channel', { target_problem: 'no satellite channel selected' }, /no satellite channel selected/],
    ['off pass', { pass_active: false, pass_aos: '2026-11-23T13:00:00.000Z' }, /outside the pass: transmit opens at AOS 2026-11-23T13:00:00/],
    ['terrestrial needs no pass', { requires_pass: false, pass_active: false }, null],
    ['below the bands', { tx_hz: 50_500_000, requires_pass: false }, /50\.500 MHz is outside the eligibility bands/],
    ['between the bands', { tx_hz: 222_000_000, requires_pass: false }, /outside the eligibility bands/],
    ['UHF edge inside', { tx_hz: 450_000_000 }, null],
    ['UHF edge outside', { tx_hz: 450_000_001 }, /outside/],
    ['no frequency', { tx_hz: null }, /no transmit frequency/],
  ];
  for (const [name, patch, reason] of table) {
    it(name, () => {
      const g = transmitGate({ ...ok, ...patch });
      assert.equal(g.can_transmit, reason === null);
      if (reason) assert.match(g.tx_block_reason!, reason);
      else assert.equal(g.tx_block_reason, null);
    });
  }
});
