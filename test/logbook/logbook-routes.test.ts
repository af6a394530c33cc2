import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, type TestServer } from '../helpers/server.js';
import { FixedClock } from '../../src/util/clock.js';
import { readAdif } from './adif-reader.js';

// The logbook routes of issue 28 through the real server: logging fills from the station
// (APRS callsign, the location's 6-character locator, a satellite's LoTW name, frequencies,
// bands and modes from the frequency guide, the lite focus pass under way), field-named 400s,
// the list newest first, delete, the ADIF export read back by the tests' own reader, and the
// settings with a write-only key in a 0600 file.

const NOW = '2026-08-22T12:00:00Z';

/** The Maidenhead locator of a point, computed here from the definition (not with the app's code). */
function locator6(lat: number, lon: number): string {
  const x = lon + 180;
  const y = lat + 90;
  const A = (n: number) => String.fromCharCode(65 + n);
  const a = (n: number) => String.fromCharCode(97 + n);
  return A(Math.floor(x / 20)) + A(Math.floor(y / 10)) + String(Math.floor((x % 20) / 2)) + String(Math.floor(y % 10)) + a(Math.floor((x % 2) * 12)) + a(Math.floor((y % 1) * 24));
}

/** AMSAT band letter of a frequency, from the AMSAT band plan (V 2 m, U 70 cm, L 23 cm, S 13 cm). */
const letter = (mhz: number) => (mhz >= 144 && mhz <= 148 ? 'V' : mhz >= 420 && mhz <= 450 ? 'U' : mhz >= 1240 && mhz <= 1300 ? 'L' : mhz >= 2300 && mhz <= 2450 ? 'S' : '?');
const adifBand = (mhz: number) => (mhz >= 144 && mhz <= 148 ? '2m' : mhz >= 420 && mhz <= 450 ? '70cm' : '?');

describe('logbook routes', () => {
  let s: TestServer;
  let clock: FixedClock;
  before(async () => {
    clock = new FixedClock(Date.parse(NOW));
    s = await startServer({ clock });
  });
  after(() => s.stop());

  it('refuses a QSO while the station has no callsign (409 naming station_callsign)', async () => {
    const r = await s.post('/api/v1/logbook/qso', { call: 'W1AW' });
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.equal(r.body.error.details.field, 'station_callsign');
  });

  it('logs a satellite QSO with everything the station knows', async () => {
    assert.equal((await s.post('/api/v1/aprs/session/identity', { callsign: 'DL1ABC', ssid: 7 })).status, 200);
    const r = await s.post('/api/v1/logbook/qso', { call: 'w1aw', their_grid: 'fn31PR', rst_sent: '59', rst_rcvd: '57', comment: 'Grüße', sat_id: 'iss' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const q = r.body.qso;
    assert.equal(q.call, 'W1AW');
    assert.equal(q.their_grid, 'FN31pr');
    assert.equal(q.station_callsign, 'DL1ABC', 'the APRS callsign without its SSID');
    assert.equal(q.time_on, new Date(NOW).toISOString(), 'now when absent');
    assert.equal(q.sat_id, 'iss');
    assert.equal(q.sat_name, 'ARISS', "LoTW's name of the ISS");
    assert.equal(q.prop_mode, 'SAT');
    assert.equal(q.push_state, 'pending');
    const loc = (await s.get('/api/v1/location')).body.resolved;
    assert.equal(q.my_gridsquare, locator6(loc.lat, loc.lon));
    // Frequencies: the guide's recommendation now (no rig connected).
    const rec = s.app.services.guidance.recommend('iss', clock.now())!.recommendation!;
    assert.equal(q.freq_mhz, rec.uplink_hz! / 1e6);
    assert.equal(q.freq_rx_mhz, rec.downlink_hz / 1e6);
    assert.equal(q.band, adifBand(q.freq_mhz));
    assert.equal(q.band_rx, adifBand(q.freq_rx_mhz));
    assert.equal(q.sat_mode, `${letter(q.freq_mhz)}/${letter(q.freq_rx_mhz)}`);
    assert.equal(q.mode, 'FM');
    assert.match(q.id, /^[A-Za-z0-9_-]{1,40}$/);
  });

  it('takes the logbook callsign setting over the APRS identity', async () => {
    assert.equal((await s.post('/api/v1/settings/logbook', { station_callsign: 'dl1abc/p' })).status, 200);
    const r = await s.post('/api/v1/logbook/qso', { call: 'K1ABC', sat_id: 'iss', time_on: '2026-08-22T11:59:00Z' });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal(r.body.qso.station_callsign, 'DL1ABC/P');
    assert.equal(r.body.qso.time_on, '2026-08-22T11:59:00.000Z');
    assert.equal((await s.post('/api/v1/settings/logbook', { station_callsign: '' })).status, 200);
  });

  it('without sat_id uses the lite focus pass under way, and without one logs a plain QSO', async () => {
    // The tracked set is the ISS (default); move the clock into its next pass.
    const p = s.app.services.orbit.passes({ from_ms: clock.now(), hours: 24, min_max_el_deg: 10, sat_ids: ['iss'], include_ongoing: false })[0];
    assert.ok(p, 'an ISS pass within a day');
    // No rig and no satellite: the station cannot tell the mode, the operator says it (test/logbook/qso-mode.test.ts).
    const outside = await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', mode: 'FM' });
    assert.equal(outside.status, 200, JSON.stringify(outside.body));
    assert.equal(outside.body.qso.sat_id, null, 'no pass under way: a plain QSO');
    assert.equal(outside.body.qso.prop_mode, null);
    assert.equal(outside.body.qso.freq_mhz, null, 'no rig connected: no frequency');
    clock.set(Math.round((p.aos_ms + p.los_ms) / 2));
    const during = await s.post('/api/v1/logbook/qso', { call: 'VE3XYZ' });
    assert.equal(during.status, 200, JSON.stringify(during.body));
    assert.equal(during.body.qso.sat_id, 'iss');
    assert.equal(during.body.qso.sat_name, 'ARISS');
    assert.equal(during.body.qso.prop_mode, 'SAT');
    assert.equal(during.body.qso.time_on, new Date(clock.now()).toISOString());
  });

  it('answers a 400 naming the field for a bad call, grid or comment', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ call: '' }, 'call'],
      [{ call: 'W1AWXYZW1AWXYZ' }, 'call'],
      [{ call: 'W1 AW' }, 'call'],
      [{ call: '12345' }, 'call'],
      [{ call: 'W1AW', their_grid: 'ZZ99' }, 'their_grid'],
      [{ call: 'W1AW', their_grid: 'FN3' }, 'their_grid'],
      [{ call: 'W1AW', comment: 'x'.repeat(201) }, 'comment'],
      [{ call: 'W1AW', comment: 'two\nlines' }, 'comment'],
      [{ call: 'W1AW', sat_id: 'no-such-sat' }, 'sat_id'],
      [{}, 'call'],
    ];
    const before = (await s.get('/api/v1/logbook')).body.items.length;
    for (const [body, field] of cases) {
      const r = await s.post('/api/v1/logbook/qso', body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${r.status}`);
      const named = r.body.error.details?.field ?? r.body.error.details?.fields?.map((f: { field: string }) => f.field).join(',');
      assert.ok(String(named).split(',').includes(field), `${JSON.stringify(body)} names ${named}, not ${field}`);
      assert.match(r.body.error.message, new RegExp(field));
    }
    assert.equal((await s.get('/api/v1/logbook')).body.items.length, before, 'nothing logged');
  });

  it('lists newest first with a limit, deletes by id, 404 for an unknown id', async () => {
    const all = (await s.get('/api/v1/logbook')).body.items;
    assert.equal(all.length, 4);
    const times = all.map((q: { time_on: string }) => q.time_on);
    assert.deepEqual(times, [...times].sort().reverse());
    assert.equal(all[0].call, 'VE3XYZ');
    const two = await s.get('/api/v1/logbook?limit=2');
    assert.deepEqual(two.body.items, all.slice(0, 2));
    assert.equal((await s.get('/api/v1/logbook?limit=0')).status, 400);
    const del = await s.post('/api/v1/logbook/qso/delete', { id: all[1].id });
    assert.equal(del.status, 200);
    assert.equal(del.body.deleted.id, all[1].id);
    assert.equal((await s.post('/api/v1/logbook/qso/delete', { id: all[1].id })).status, 404);
    assert.equal((await s.post('/api/v1/logbook/qso/delete', { id: 'bad id!' })).status, 400);
    assert.deepEqual((await s.get('/api/v1/logbook')).body.items.map((q: { id: string }) => q.id), [all[0].id, all[2].id, all[3].id]);
  });

  it('exports ADIF 3.1 that an independent reader takes, oldest first', async () => {
    const res = await fetch(`${s.base}/api/v1/logbook/export.adi`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type')!, /^text\/plain/);
    assert.match(res.headers.get('content-disposition')!, /attachment; filename=".+\.adi"/);
    const text = await res.text();
    assert.match(text, /^[\x00-\x7f]*$/, 'ASCII');
    const f = readAdif(text);
    assert.equal(f.header.ADIF_VER.slice(0, 3), '3.1');
    assert.equal(f.header.PROGRAMID, 'satstation');
    assert.match(f.header.CREATED_TIMESTAMP, /^\d{8} \d{6}$/);
    const items = (await s.get('/api/v1/logbook')).body.items.reverse();
    assert.equal(f.records.length, items.length);
    const sat = f.records.find((r) => r.CALL === 'W1AW')!;
    assert.equal(sat.SAT_NAME, 'ARISS');
    assert.equal(sat.PROP_MODE, 'SAT');
    assert.equal(sat.GRIDSQUARE, 'FN31pr');
    assert.equal(sat.STATION_CALLSIGN, 'DL1ABC');
    assert.equal(sat.COMMENT, 'Grusse');
    assert.equal(sat.QSO_DATE, '20260822');
    assert.equal(sat.TIME_ON, '120000');
    assert.equal(Number(sat.FREQ), items.find((q: { call: string }) => q.call === 'W1AW').freq_mhz);
    assert.deepEqual(
      f.records.map((r) => r.QSO_DATE + r.TIME_ON),
      items.map((q: { time_on: string }) => q.time_on.replace(/\D/g, '').slice(0, 14)),
    );
  });

  it('settings: the API key is write-only and the file is 0600; enabling needs URL, key and station id', async () => {
    const bad = await s.post('/api/v1/settings/logbook', { cloudlog_enabled: true });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body.error), /cloudlog_enabled/);
    const set = await s.post('/api/v1/settings/logbook', { cloudlog_url: 'http://127.0.0.1:9', cloudlog_api_key: 'cl12345secret', cloudlog_station_profile_id: 3 });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.state.cloudlog_api_key, '********');
    assert.equal(set.body.state.cloudlog_station_profile_id, '3');
    const got = await s.get('/api/v1/settings/logbook');
    assert.equal(got.body.state.cloudlog_api_key, '********');
    assert.doesNotMatch(JSON.stringify(got.body), /cl12345secret/);
    // Sending the mask back keeps the key.
    assert.equal((await s.post('/api/v1/settings/logbook', { cloudlog_api_key: '********' })).status, 200);
    assert.equal(s.app.services.stores.logbook.get().cloudlog_api_key, 'cl12345secret');
    assert.equal(statSync(join(s.dataDir, 'logbook-settings.json')).mode & 0o777, 0o600);
    assert.equal((await s.post('/api/v1/settings/logbook', { cloudlog_url: 'ftp://x' })).status, 400);
  });
});
