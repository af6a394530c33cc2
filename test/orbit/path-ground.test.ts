import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eciToGeodetic, gstime, json2satrec, propagate, degreesLat, degreesLong } from 'satellite.js';
import { startServer, type TestServer } from '../helpers/server.js';

// GET /api/v1/track/path: the sub-satellite point of each sample (for the ground-track map),
// checked against satellite.js's own eciToGeodetic, and `start` for the path of a future pass.

const NOW = '2026-08-22T12:00:00Z';
const T0 = Date.parse(NOW);
let srv: TestServer;

before(async () => {
  srv = await startServer({ now: NOW });
  await srv.app.services.orbit.table.ready();
});
after(() => srv.stop());

test('each path point carries lat_deg, lon_deg and alt_km that agree with an independent conversion', async () => {
  const r = await srv.get('/api/v1/track/path?sat_id=iss&minutes=95&step_seconds=60');
  assert.equal(r.status, 200);
  assert.equal(r.body.start, '2026-08-22T12:00:00.000Z');
  const rec = json2satrec(srv.app.services.catalog.current().byId.get('iss')!.elements as never);
  let crossings = 0;
  for (const [k, p] of r.body.items.entries()) {
    const date = new Date(p.t_ms);
    const pv = propagate(rec, date);
    const g = eciToGeodetic(pv!.position as never, gstime(date));
    const dLon = Math.abs(((p.lon_deg - degreesLong(g.longitude) + 540) % 360) - 180);
    assert.ok(Math.abs(p.lat_deg - degreesLat(g.latitude)) < 0.01, `lat at ${p.timestamp}: ${p.lat_deg} vs ${degreesLat(g.latitude)}`);
    assert.ok(dLon < 0.01, `lon at ${p.timestamp}: ${p.lon_deg} vs ${degreesLong(g.longitude)}`);
    assert.ok(Math.abs(p.alt_km - g.height) < 0.05, `alt at ${p.timestamp}: ${p.alt_km} vs ${g.height}`);
    // The ISS: inclination 51.64° (geodetic latitude reaches ~51.8°), 370–450 km above the ellipsoid.
    assert.ok(Math.abs(p.lat_deg) <= 52, `lat ${p.lat_deg}`);
    assert.ok(p.alt_km > 370 && p.alt_km < 450, `alt ${p.alt_km}`);
    assert.ok(p.lon_deg >= -180 && p.lon_deg <= 180, `lon ${p.lon_deg}`);
    if (k > 0 && Math.abs(p.lon_deg - r.body.items[k - 1].lon_deg) > 180) crossings++;
  }
  assert.ok(crossings <= 1, 'one orbit crosses the antimeridian at most once');
});

test('the station-to-sub-point arc matches range and elevation (no frame mix-up)', async () => {
  const loc = (await srv.get('/api/v1/location')).body.resolved;
  const r = await srv.get('/api/v1/track/path?sat_id=iss&minutes=95&step_seconds=300');
  const R = 6371;
  for (const p of r.body.items) {
    const f1 = (loc.lat * Math.PI) / 180;
    const f2 = (p.lat_deg * Math.PI) / 180;
    const dl = ((p.lon_deg - loc.lon) * Math.PI) / 180;
    const psi = Math.acos(Math.min(1, Math.sin(f1) * Math.sin(f2) + Math.cos(f1) * Math.cos(f2) * Math.cos(dl)));
    // Law of cosines in the plane of the Earth's centre, the station and the satellite.
    const rs = R + p.alt_km;
    const range = Math.sqrt(R * R + rs * rs - 2 * R * rs * Math.cos(psi));
    assert.ok(Math.abs(range - p.range_km) / p.range_km < 0.01, `${p.timestamp}: ${range.toFixed(0)} vs ${p.range_km}`);
  }
});

test('start gives the path of a future pass; bad or too early starts are 400s', async () => {
  const pass = (await srv.get('/api/v1/passes?hours=24&min_max_el=10')).body.items.find((p: { sat_id: string }) => p.sat_id === 'iss');
  const minutes = (Date.parse(pass.los) - Date.parse(pass.aos)) / 60_000;
  const r = await srv.get(`/api/v1/track/path?sat_id=iss&start=${encodeURIComponent(pass.aos)}&minutes=${minutes}&step_seconds=10`);
  assert.equal(r.status, 200);
  assert.equal(r.body.start, new Date(Math.floor(Date.parse(pass.aos) / 1000) * 1000).toISOString());
  const top = Math.max(...r.body.items.map((p: { el_deg: number }) => p.el_deg));
  assert.ok(Math.abs(top - pass.max_el_deg) < 0.5, `the path peaks at the pass's max elevation: ${top} vs ${pass.max_el_deg}`);
  assert.ok(Math.abs(r.body.items[0].el_deg) < 0.5, 'it starts on the horizon (AOS)');

  for (const bad of ['yesterday', '2026-08-22T12:00:00', '2026-13-40T00:00:00Z']) {
    const e = await srv.get(`/api/v1/track/path?sat_id=iss&start=${encodeURIComponent(bad)}`);
    assert.equal(e.status, 400, bad);
    assert.equal(e.body.error.details.fields[0].field, 'start', bad);
  }
  const early = await srv.get(`/api/v1/track/path?sat_id=iss&start=${new Date(T0 - 2 * 3600_000).toISOString()}`);
  assert.equal(early.status, 400);
  assert.equal(early.body.error.code, 'start_too_early');
  const late = await srv.get(`/api/v1/track/path?sat_id=iss&start=${new Date(T0 + 60 * 3600_000).toISOString()}`);
  assert.equal(late.status, 400);
  assert.equal(late.body.error.code, 'beyond_horizon');
  const recent = await srv.get(`/api/v1/track/path?sat_id=iss&minutes=10&start=${new Date(T0 - 30 * 60_000).toISOString()}`);
  assert.equal(recent.status, 200, 'a pass that began half an hour ago can be drawn');
});
