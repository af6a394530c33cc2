import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SPEED_OF_LIGHT_M_S } from '../../src/guidance/doppler.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /api/v1/frequency-guides/recommendation against the real server, catalog and orbit engine
// (bundled elements, default location, clock fixed at 2026-08-22T12:00:00Z).
const URL = '/api/v1/frequency-guides/recommendation';
const c = SPEED_OF_LIGHT_M_S / 1000; // km/s

describe('GET /api/v1/frequency-guides/recommendation', () => {
  let s: TestServer;
  before(async () => {
    s = await startServer({ now: '2026-08-22T12:00:00Z' });
  });
  after(() => s.stop());

  it('ISS (fm): pass, track, recommendation corrected from the path range rate, no matrix', async () => {
    const r = await s.get(`${URL}?sat_id=iss`);
    assert.equal(r.status, 200);
    const b = r.body;
    assert.equal(b.timestamp, '2026-08-22T12:00:00.000Z');
    assert.equal(b.sat_id, 'iss');
    assert.deepEqual(Object.keys(b.pass).sort(), ['aos', 'los', 'max_el_deg', 'name', 'sat_id', 'tca']);
    assert.equal(b.track.sat_id, 'iss');
    assert.equal(b.track.range_rate_source, 'path');
    assert.equal(b.matrix, null);
    const rec = b.recommendation;
    assert.equal(rec.mode, 'fm');
    assert.equal(rec.selected_column_index, null);
    assert.equal(rec.correction_side, 'uhf_only');
    assert.equal(rec.ctcss_hz, 67);
    assert.equal(rec.range_rate_km_s, b.track.range_rate_km_s);
    // The pass is ahead of now: phase aos, label AOS cue.
    assert.ok(Date.parse(b.pass.aos) > Date.parse(b.timestamp));
    assert.deepEqual([rec.phase, rec.label], ['aos', 'AOS cue']);
    // uhf_only, V/U: VHF uplink stays 145.990; downlink 437.8 MHz × (1 − rr/c), snapped to 5 kHz.
    assert.equal(rec.uplink_mhz, 145.99);
    const expectedDown = Math.round((437_800_000 * (1 - b.track.range_rate_km_s / c)) / 5000) * 5000;
    assert.equal(rec.downlink_hz, expectedDown);
    assert.equal(rec.downlink_mhz, expectedDown / 1e6);
    // approaching at the start of the pass: heard above nominal
    assert.ok(b.track.range_rate_km_s < 0);
    assert.ok(rec.downlink_mhz > 437.8);
  });

  it('the range rate is the engine path sample at the aos band midpoint (10% into the pass)', async () => {
    const b = (await s.get(`${URL}?sat_id=iss`)).body;
    const aos = Date.parse(b.pass.aos);
    const los = Date.parse(b.pass.los);
    const target = Math.round(aos + 0.1 * (los - aos));
    const [p] = s.app.services.orbit.path('iss', target, 0, 1);
    assert.equal(p.range_rate_km_s, b.track.range_rate_km_s);
  });

  it('RS-44 (linear, inverting): matrix with one row per phase, every column, the centre column by default', async () => {
    const b = (await s.get(`${URL}?sat_id=rs-44`)).body;
    const m = b.matrix;
    assert.equal(m.mode, 'linear');
    assert.equal(m.selected_column_index, 2);
    assert.equal(m.active_phase, b.recommendation.phase);
    assert.equal(m.columns.length, 5);
    assert.deepEqual(m.columns[2], { index: 2, label: 'centre', uplink_mhz: 145.965, downlink_mhz: 435.64 });
    assert.deepEqual(m.rows.map((r: any) => r.phase), ['aos', 'early', 'mid', 'late', 'los']);
    const aos = Date.parse(b.pass.aos);
    const span = Date.parse(b.pass.los) - aos;
    m.rows.forEach((row: any, i: number) => {
      // target = band midpoint; the engine rounds path times to the ms
      assert.ok(Math.abs(Date.parse(row.target) - (aos + (0.1 + 0.2 * i) * span)) <= 1);
      assert.equal(row.cells.length, 5);
      assert.deepEqual(row.cells[2], { uplink_mhz: row.uplink_mhz, downlink_mhz: row.downlink_mhz });
      // VHF uplink uncorrected (uhf_only); UHF downlink = 435.640 MHz × (1 − rr/c) on a 1 kHz step
      assert.equal(row.uplink_mhz, 145.965);
      assert.equal(row.downlink_mhz, Math.round((435_640_000 * (1 - row.range_rate_km_s / c)) / 1000) / 1000);
    });
    // the range shrinks then grows: the downlink falls through the pass
    assert.ok(m.rows[0].downlink_mhz > m.rows[4].downlink_mhz);
    const active = m.rows.find((r: any) => r.phase === m.active_phase);
    assert.equal(b.recommendation.downlink_mhz, active.downlink_mhz);
    assert.deepEqual([b.recommendation.uplink_mode, b.recommendation.downlink_mode], ['LSB', 'USB']);
  });

  it('selected_column_index: honoured when valid, else the profile default', async () => {
    const four = (await s.get(`${URL}?sat_id=rs-44&selected_column_index=4`)).body;
    assert.equal(four.recommendation.selected_column_index, 4);
    assert.equal(four.matrix.selected_column_index, 4);
    assert.equal(four.recommendation.uplink_mhz, 145.989);
    const tooBig = (await s.get(`${URL}?sat_id=rs-44&selected_column_index=9`)).body;
    assert.equal(tooBig.recommendation.selected_column_index, 2);
    const fm = (await s.get(`${URL}?sat_id=so-50&selected_column_index=1`)).body;
    assert.equal(fm.recommendation.selected_column_index, null);
  });

  it('bad selected_column_index → 400 naming the field', async () => {
    for (const bad of ['abc', '-1', '1.5']) {
      const r = await s.get(`${URL}?sat_id=rs-44&selected_column_index=${bad}`);
      assert.equal(r.status, 400, bad);
      assert.equal(r.body.error.code, 'validation_failed');
      assert.match(r.body.error.message, /selected_column_index/);
    }
  });

  it('missing sat_id → 400; unknown satellite → 404', async () => {
    assert.equal((await s.get(URL)).status, 400);
    const r = await s.get(`${URL}?sat_id=no-such-sat`);
    assert.equal(r.status, 404);
    assert.equal(r.body.error.code, 'not_found');
    assert.match(r.body.error.message, /no-such-sat/);
  });

  it('a catalog satellite without a profile: pass and track, recommendation and matrix null', async () => {
    const g = s.app.services.guidance;
    const sat = s.app.services.catalog.current().satellites.find((x) => !g.profile(x.sat_id))!;
    const b = (await s.get(`${URL}?sat_id=${sat.sat_id}`)).body;
    assert.equal(b.sat_id, sat.sat_id);
    assert.equal(b.recommendation, null);
    assert.equal(b.matrix, null);
    assert.equal(typeof b.track.range_rate_km_s, 'number');
  });

  it('QO-100 (geostationary, always up from Greenwich: no pass) falls back to the live track', async () => {
    const b = (await s.get(`${URL}?sat_id=qo-100`)).body;
    assert.equal(b.pass, null);
    assert.equal(b.track.range_rate_source, 'live');
    assert.deepEqual([b.recommendation.phase, b.recommendation.label], ['aos', 'Reference']);
    const live = s.app.services.orbit.sample('qo-100', Date.parse(b.timestamp))!;
    assert.equal(b.track.range_rate_km_s, live.range_rate_km_s);
    assert.ok(b.matrix.rows.every((r: any) => r.target === null && r.range_rate_km_s === live.range_rate_km_s));
  });

  it('/passes embeds the same model for the same pass (rule 10)', async () => {
    const direct = (await s.get(`${URL}?sat_id=rs-44`)).body;
    // min_max_el=0: the current-or-next pass the recommendation follows may peak below the operator's minimum.
    const list = (await s.get('/api/v1/passes?hours=24&include_all_sats=true&include_ongoing=true&min_max_el=0')).body;
    const item = list.items.find((p: any) => p.sat_id === 'rs-44' && p.aos === direct.pass.aos);
    assert.ok(item, 'the current-or-next RS-44 pass is listed');
    assert.deepEqual(item.frequencyRecommendation, direct.recommendation);
    assert.deepEqual(item.frequencyMatrix, direct.matrix);
    const noProfile = list.items.find((p: any) => !s.app.services.guidance.profile(p.sat_id));
    assert.ok(noProfile, 'some listed satellite has no profile');
    assert.deepEqual([noProfile.frequencyRecommendation, noProfile.frequencyMatrix], [null, null]);
  });

  it('/docs documents the response, matrix rows included', async () => {
    const doc = (await s.get('/docs', { accept: 'application/json' })).body;
    const op = doc.paths['/api/v1/frequency-guides/recommendation'].get;
    const schema = op.responses['200'].content['application/json'].schema;
    const matrix = schema.properties.matrix.anyOf[0];
    assert.deepEqual(Object.keys(matrix.properties.rows.items.properties).sort(), ['cells', 'downlink_mhz', 'phase', 'range_rate_km_s', 'target', 'uplink_mhz']);
    assert.ok(schema.properties.recommendation.anyOf[0].properties.selected_column_index);
  });
});
