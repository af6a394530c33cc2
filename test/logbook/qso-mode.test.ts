import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startServer, tmpDataDir, type TestServer } from '../helpers/server.js';
import { readAdif } from './adif-reader.js';
import { satQso } from './fixtures.js';

// Issue 32: LoTW and Cloudlog refuse a QSO without MODE. A QSO whose mode the station cannot tell
// (no rig, no satellite with a frequency guide, no `mode` in the body) is a 400 naming `mode`;
// the body's mode is taken (and wins); every exported record has MODE, and records an older
// version stored without one are left out of the export and not pushed (docs/decisions/logbook.md).

const NOW = '2026-08-22T12:00:00Z';
/** In the bundled catalog, without a frequency profile: the guide gives no mode for it. */
const NO_PROFILE = 'strand-1';

const modeNamed = (r: { status: number; body: any }) => {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.body.error.code, 'validation_failed');
  assert.deepEqual(r.body.error.details.fields.map((f: { field: string }) => f.field), ['mode']);
  assert.match(r.body.error.message, /\bmode\b/);
};

describe('the mode of a QSO', () => {
  let s: TestServer;
  let dataDir: string;
  before(async () => {
    dataDir = tmpDataDir();
    // Two records an older version stored: one without a mode (pending), one with.
    const old = [satQso({ id: 'old-nomode', call: 'K1OLD', sat_id: null, sat_name: null, sat_mode: null, prop_mode: null, freq_mhz: null, freq_rx_mhz: null, band: null, band_rx: null, mode: null }), satQso({ id: 'old-fm', call: 'W1FM' })];
    writeFileSync(join(dataDir, 'logbook.jsonl'), old.map((q) => JSON.stringify({ t: 'qso', q }) + '\n').join(''));
    s = await startServer({ dataDir, now: NOW });
    assert.equal((await s.post('/api/v1/settings/logbook', { station_callsign: 'DL1ABC' })).status, 200);
  });
  after(() => s.stop());

  it('is refused with a 400 naming mode when the station cannot tell it (no rig, no satellite)', async () => {
    const before = (await s.get('/api/v1/logbook')).body.items.length;
    modeNamed(await s.post('/api/v1/logbook/qso', { call: 'N1XYZ' }));
    assert.equal((await s.get('/api/v1/logbook')).body.items.length, before, 'nothing logged');
  });

  it('is refused for a satellite the frequency guide has no profile for', async () => {
    modeNamed(await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', sat_id: NO_PROFILE }));
  });

  it('is taken from the body, as ADIF MODE and SUBMODE', async () => {
    const cases: Array<[string, string, string | null]> = [
      ['USB', 'SSB', 'USB'],
      ['FM', 'FM', null],
      ['FT4', 'MFSK', 'FT4'],
      ['PKT', 'PKT', null],
    ];
    for (const [mode, adif, sub] of cases) {
      const r = await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', mode });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.qso.mode, adif, mode);
      assert.equal(r.body.qso.submode, sub, mode);
    }
    const sat = await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', sat_id: NO_PROFILE, mode: 'CW' });
    assert.equal(sat.status, 200, JSON.stringify(sat.body));
    assert.equal(sat.body.qso.mode, 'CW');
    assert.equal(sat.body.qso.prop_mode, 'SAT');
  });

  it("wins over the guide's mode: the operator knows what was on the air", async () => {
    const guided = await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', sat_id: 'iss' });
    assert.equal(guided.body.qso.mode, 'FM', 'the guide');
    const said = await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', sat_id: 'iss', mode: 'PKT' });
    assert.equal(said.body.qso.mode, 'PKT');
  });

  it('an unknown mode is a 400 naming mode', async () => {
    for (const mode of ['XYZ', 'ssb', '', 7, 'USB-D']) modeNamed(await s.post('/api/v1/logbook/qso', { call: 'N1XYZ', mode }));
  });

  it('GET /api/v1/logbook/qso/mode says what the station would fill in, null when it cannot tell', async () => {
    const plain = await s.get('/api/v1/logbook/qso/mode');
    assert.equal(plain.status, 200, JSON.stringify(plain.body));
    assert.deepEqual(plain.body, { sat_id: null, mode: null, submode: null });
    assert.deepEqual((await s.get('/api/v1/logbook/qso/mode?sat_id=iss')).body, { sat_id: 'iss', mode: 'FM', submode: null });
    assert.deepEqual((await s.get(`/api/v1/logbook/qso/mode?sat_id=${NO_PROFILE}`)).body, { sat_id: NO_PROFILE, mode: null, submode: null });
    const unknown = await s.get('/api/v1/logbook/qso/mode?sat_id=no-such-sat');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.details.field, 'sat_id');
  });

  it('a stored record without a mode is left out of the export, said in the header, and failed instead of pushed', async () => {
    const items = (await s.get('/api/v1/logbook')).body.items as { id: string; mode: string | null; push_state: string; push_error: string | null }[];
    const legacy = items.find((q) => q.id === 'old-nomode')!;
    assert.equal(legacy.mode, null, 'kept as it was stored');
    assert.equal(legacy.push_state, 'failed');
    assert.match(legacy.push_error!, /no mode/i);
    const text = await (await fetch(`${s.base}/api/v1/logbook/export.adi`)).text();
    const f = readAdif(text);
    assert.equal(f.records.length, items.length - 1);
    assert.ok(f.records.every((r) => r.MODE), 'every exported record has MODE');
    assert.ok(!f.records.some((r) => r.CALL === 'K1OLD'));
    assert.ok(f.records.some((r) => r.CALL === 'W1FM'));
    assert.match(text.slice(0, text.indexOf('<')), /1 QSO without a mode left out/);
    // A new logger target gets the failed QSOs back to pending, but not this one.
    const on = await s.post('/api/v1/settings/logbook', { cloudlog_enabled: true, cloudlog_url: 'http://127.0.0.1:9', cloudlog_api_key: 'k', cloudlog_station_profile_id: '1' });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await new Promise((r) => setTimeout(r, 50));
    const after = (await s.get('/api/v1/logbook')).body.items.find((q: { id: string }) => q.id === 'old-nomode');
    assert.equal(after.push_state, 'failed');
  });
});
