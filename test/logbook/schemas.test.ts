import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as v from 'valibot';
import { issuePath } from '../../src/store/json-store.js';
import { DEFAULT_LOGBOOK_SETTINGS, LogbookSettingsSchema, QsoRecordSchema, QsoRequestSchema } from '../../src/logbook/schemas.js';
import { satQso } from './fixtures.js';

/** The field the first issue names, or null when the input is valid. */
function failingField(schema: v.GenericSchema, input: unknown): string | null {
  const r = v.safeParse(schema, input);
  return r.success ? null : issuePath(r.issues[0]);
}

describe('QSO request schema', () => {
  it('takes a minimal request and normalizes what the operator typed', () => {
    const r = v.parse(QsoRequestSchema, { call: ' w1aw/p ', their_grid: 'fn31PR', rst_sent: '5nn', time_on: '2026-08-22T08:05:09+02:00' });
    assert.equal(r.call, 'W1AW/P');
    assert.equal(r.their_grid, 'FN31pr');
    assert.equal(r.rst_sent, '5NN');
    assert.equal(r.time_on, '2026-08-22T06:05:09.000Z');
  });

  it('accepts real calls outside the AX.25 form', () => {
    for (const call of ['3DA0RU', '4U1ITU', 'GB70RSGB', 'VE3/W1AW', 'DL/G4ABC/MM', 'K1A', 'RS0ISS', 'W1AW/QRP']) assert.equal(failingField(QsoRequestSchema, { call }), null, call);
  });

  it('names call for an empty, overlong or malformed callsign', () => {
    for (const call of ['', '   ', 'W1AW/P/QRP/X', 'ABCDEFGHIJKLMN', 'W1AW!', 'HELLO', '12345', 'N0CALL', 'W1AW//P', 42, null]) assert.equal(failingField(QsoRequestSchema, { call }), 'call', String(call));
    assert.equal(failingField(QsoRequestSchema, {}), 'call');
  });

  it('names their_grid for a malformed locator and takes 4, 6 and 8 characters', () => {
    for (const g of ['FN31', 'FN31pr', 'FN31pr45', 'jo62QM']) assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', their_grid: g }), null, g);
    for (const g of ['FN3', 'ZZ31', 'FN31p', 'FN31pz', 'FN31pr4', '', 12]) assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', their_grid: g }), 'their_grid', String(g));
  });

  it('names comment when it is oversize or spans lines, and the other fields by name', () => {
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', comment: 'x'.repeat(200) }), null);
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', comment: 'x'.repeat(201) }), 'comment');
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', comment: 'two\nlines' }), 'comment');
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', rst_rcvd: '5 9' }), 'rst_rcvd');
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', sat_id: 'SO 50' }), 'sat_id');
    assert.equal(failingField(QsoRequestSchema, { call: 'W1AW', time_on: 'yesterday' }), 'time_on');
  });
});

describe('stored QSO record schema', () => {
  it('takes a full record and refuses an unknown push state', () => {
    assert.equal(failingField(QsoRecordSchema, satQso()), null);
    assert.equal(failingField(QsoRecordSchema, satQso({ push_state: 'sent' as never })), 'push_state');
    const { push_error: _, ...missing } = satQso();
    assert.equal(failingField(QsoRecordSchema, missing), 'push_error');
  });
});

describe('logbook settings schema', () => {
  it('has defaults with the push off', () => {
    assert.deepEqual(DEFAULT_LOGBOOK_SETTINGS, { cloudlog_enabled: false, cloudlog_url: '', cloudlog_api_key: '', cloudlog_station_profile_id: '', station_callsign: '' });
  });

  it('takes a Cloudlog setup and a numeric station profile id', () => {
    const s = v.parse(LogbookSettingsSchema, { cloudlog_enabled: true, cloudlog_url: 'https://log.example.org/index.php', cloudlog_api_key: 'cl64f0a1b2c3d4e', cloudlog_station_profile_id: 3 });
    assert.equal(s.cloudlog_station_profile_id, '3');
  });

  it('names the field that is wrong', () => {
    assert.equal(failingField(LogbookSettingsSchema, { cloudlog_url: 'ftp://x' }), 'cloudlog_url');
    assert.equal(failingField(LogbookSettingsSchema, { cloudlog_station_profile_id: 'one' }), 'cloudlog_station_profile_id');
    assert.equal(failingField(LogbookSettingsSchema, { cloudlog_api_key: 'has space' }), 'cloudlog_api_key');
    assert.equal(failingField(LogbookSettingsSchema, { station_callsign: 'N0CALL' }), 'station_callsign');
    assert.equal(failingField(LogbookSettingsSchema, { cloudlog_enabled: true, cloudlog_url: 'https://log.example.org' }), 'cloudlog_enabled');
  });
});
