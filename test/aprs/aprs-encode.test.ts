import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { APRS_TOCALL, applyFudge, encodeAck, encodeMessage, encodePosition, encodeReject, encodeStatus, type EncodeResult } from '../../src/aprs/codec/aprs-encode.js';
import { decodeAprs, type AprsDecoded } from '../../src/aprs/codec/aprs-decode.js';

const info = (r: EncodeResult): string => {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.info;
};
const error = (r: EncodeResult): string => {
  assert.equal(r.ok, false, `expected an error, got ${r.ok ? r.info : ''}`);
  return r.ok ? '' : r.error;
};
const pos = (lat: number, lon: number, extra: Partial<Parameters<typeof encodePosition>[0]> = {}) =>
  encodePosition({ lat, lon, symbolTable: '/', symbolCode: '-', comment: '', messaging: false, ...extra });
const decode = (i: string, destination = APRS_TOCALL): AprsDecoded => decodeAprs({ source: 'N0CALL', destination, path: ['WIDE1-1'], info: i });

describe('APRS encode: spec examples', () => {
  it('position without timestamp (APRS 1.01 ch. 8)', () => {
    assert.equal(info(pos(49 + 3.5 / 60, -(72 + 1.75 / 60), { comment: 'Test 001234' })), '!4903.50N/07201.75W-Test 001234');
    assert.equal(info(pos(49 + 3.5 / 60, -(72 + 1.75 / 60), { comment: 'Test 001234', messaging: true })), '=4903.50N/07201.75W-Test 001234');
    assert.equal(info(pos(49 + 3.5 / 60, -(72 + 1.75 / 60), { symbolTable: '\\', symbolCode: '^' })), '!4903.50N\\07201.75W^');
    assert.equal(info(pos(-(33 + 51.9 / 60), 151 + 12.6 / 60, { symbolTable: 'D', symbolCode: '&' })), '!3351.90SD15112.60E&');
  });
  it('message, ack and reject (APRS 1.01 ch. 14)', () => {
    assert.equal(info(encodeMessage({ addressee: 'WU2Z', text: 'Testing', msgId: '003' })), ':WU2Z     :Testing{003');
    assert.equal(info(encodeMessage({ addressee: 'WU2Z', text: 'Testing' })), ':WU2Z     :Testing');
    assert.equal(info(encodeMessage({ addressee: 'wu2z', text: 'Testing', msgId: null })), ':WU2Z     :Testing');
    assert.equal(info(encodeAck('KB2ICI-14', '003')), ':KB2ICI-14:ack003');
    assert.equal(info(encodeReject('KB2ICI-14', '003')), ':KB2ICI-14:rej003');
  });
  it('status (APRS 1.01 ch. 16)', () => {
    assert.equal(info(encodeStatus('Net Control Center')), '>Net Control Center');
  });
  it('tocall is in the experimental APZ block', () => {
    assert.match(APRS_TOCALL, /^APZ[A-Z0-9]{3}$/);
  });
});

describe('APRS encode: coordinate edges', () => {
  const cases: [number, number, string][] = [
    [0, 0, '0000.00N/00000.00E'],
    [-0.0000001, -0.0000001, '0000.00N/00000.00E'],
    [89.99999, -179.99999, '8959.99N/17959.99W'],
    [-90, 180, '8959.99S/17959.99E'],
    [12.99999, 12.99999, '1300.00N/01300.00E'], // 59.9994' carries into the degrees
    [12.9999, -12.9999, '1259.99N/01259.99W'],
    [49.999999, 99.999999, '5000.00N/10000.00E'],
    [-45.5, -0.5, '4530.00S/00030.00W'],
    [1 / 60 / 200, 1 / 60 / 200, '0000.01N/00000.01E'], // 0.005' rounds up
  ];
  for (const [lat, lon, want] of cases) {
    it(`${lat},${lon} -> ${want}`, () => {
      assert.equal(info(pos(lat, lon)), `!${want}-`);
    });
  }

  it('never prints 60 minutes and decodes back within 0.005 minute', () => {
    let s = 7;
    const rnd = () => ((s = (s * 1103515245 + 12345) >>> 0) / 2 ** 32);
    for (let i = 0; i < 5000; i++) {
      // Bias towards values just under a whole minute, where the carry happens.
      const near = (max: number) => {
        const v = Math.floor(rnd() * max * 60) / 60 + (rnd() < 0.5 ? 1 / 60 - rnd() * 1e-6 : rnd() / 60);
        return (rnd() < 0.5 ? -1 : 1) * Math.min(max, v);
      };
      const lat = near(90);
      const lon = near(180);
      const i1 = info(pos(lat, lon));
      assert.ok(Number(i1.slice(3, 8)) < 60 && Number(i1.slice(13, 18)) < 60, i1);
      const d = decode(i1);
      assert.equal(d.kind, 'position', `${i1} -> ${JSON.stringify(d)}`);
      if (d.kind !== 'position') continue;
      const tol = 0.0051 / 60;
      assert.ok(Math.abs(d.lat - Math.max(-89.99984, Math.min(89.99984, lat))) <= tol + 1e-12, `${lat} -> ${i1} -> ${d.lat}`);
      assert.ok(Math.abs(d.lon - Math.max(-179.99984, Math.min(179.99984, lon))) <= tol + 1e-12, `${lon} -> ${i1} -> ${d.lon}`);
    }
  });
});

describe('APRS encode: applyFudge', () => {
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} vs ${b}`);
  it('adds the offsets', () => {
    const r = applyFudge(49.5, -72.25, 0.01, -0.02);
    near(r.lat, 49.51);
    near(r.lon, -72.27);
  });
  it('clamps latitude at the poles', () => {
    assert.equal(applyFudge(89.8, 0, 0.5, 0).lat, 90);
    assert.equal(applyFudge(-89.9, 0, -1, 0).lat, -90);
  });
  it('wraps longitude across the antimeridian', () => {
    near(applyFudge(10, 179.5, 0, 1).lon, -179.5);
    near(applyFudge(10, -179.9, 0, -1).lon, 179.1);
    near(applyFudge(10, 180, 0, 0).lon, -180);
    near(applyFudge(10, 0, 0, 0).lon, 0);
  });
  it('ignores a non-finite fudge', () => {
    assert.deepEqual(applyFudge(1, 2, Number.NaN, Number.POSITIVE_INFINITY), { lat: 1, lon: 2 });
  });
  it('a fudged position still encodes', () => {
    const f = applyFudge(89.99, 179.99, 1, 1);
    assert.equal(info(pos(f.lat, f.lon)), '!8959.99N/17900.60W-');
  });
});

describe('APRS encode: bad input is an error, never a throw', () => {
  it('position', () => {
    assert.match(error(pos(Number.NaN, 0)), /latitude/);
    assert.match(error(pos(91, 0)), /latitude/);
    assert.match(error(pos(0, -180.5)), /longitude/);
    assert.match(error(pos(0, Number.POSITIVE_INFINITY)), /longitude/);
    assert.match(error(pos(0, 0, { symbolTable: 'a' })), /symbol table/);
    assert.match(error(pos(0, 0, { symbolTable: '' })), /symbol table/);
    assert.match(error(pos(0, 0, { symbolCode: '|' })), /symbol code/);
    assert.match(error(pos(0, 0, { symbolCode: '->' })), /symbol code/);
    assert.match(error(pos(0, 0, { comment: 'x'.repeat(44) })), /44 characters, at most 43/);
    assert.equal(info(pos(0, 0, { comment: 'x'.repeat(43) })).length, 19 + 1 + 43);
    assert.match(error(pos(0, 0, { comment: 'a|b' })), /printable/);
    assert.match(error(pos(0, 0, { comment: 'a~b' })), /printable/);
    assert.match(error(pos(0, 0, { comment: 'Grüße' })), /printable/);
    assert.match(error(pos(0, 0, { comment: 'line\r' })), /printable/);
  });
  it('message', () => {
    assert.match(error(encodeMessage({ addressee: '', text: 'hi' })), /addressee/);
    assert.match(error(encodeMessage({ addressee: 'TOOLONGCALL', text: 'hi' })), /addressee/);
    assert.match(error(encodeMessage({ addressee: 'N0:CALL', text: 'hi' })), /addressee/);
    assert.match(error(encodeMessage({ addressee: 'N0CALL', text: '' })), /empty/);
    assert.match(error(encodeMessage({ addressee: 'N0CALL', text: 'x'.repeat(68) })), /68 characters, at most 67/);
    assert.ok(encodeMessage({ addressee: 'N0CALL', text: 'x'.repeat(67), msgId: '12345' }).ok);
    for (const bad of ['a{b', 'a|b', 'a~b', 'tab\t', 'é']) assert.match(error(encodeMessage({ addressee: 'N0CALL', text: bad })), /printable/, bad);
    assert.match(error(encodeMessage({ addressee: 'N0CALL', text: 'ack12' })), /ack\/rej/);
    assert.match(error(encodeMessage({ addressee: 'N0CALL', text: 'hi', msgId: '123456' })), /id/);
    assert.match(error(encodeMessage({ addressee: 'N0CALL', text: 'hi', msgId: '1-2' })), /id/);
    assert.match(error(encodeMessage({ addressee: undefined as unknown as string, text: undefined as unknown as string })), /addressee/);
  });
  it('ack and reject', () => {
    assert.match(error(encodeAck('N0CALL', '')), /id/);
    assert.match(error(encodeAck('N0CALL', '123456')), /id/);
    assert.match(error(encodeReject('', '1')), /addressee/);
    assert.match(error(encodeAck('N0CALL', null as unknown as string)), /id/);
  });
  it('status', () => {
    assert.match(error(encodeStatus('')), /empty/);
    assert.match(error(encodeStatus('x'.repeat(63))), /63 characters, at most 62/);
    assert.equal(info(encodeStatus('x'.repeat(62))).length, 63);
    assert.match(error(encodeStatus('a|b')), /printable/);
    assert.match(error(encodeStatus('092345zhello')), /timestamp/);
  });
});

describe('APRS encode: every encoder round-trips through decodeAprs', () => {
  it('position, with and without messaging, every symbol table kind', () => {
    for (const [table, code, messaging, comment] of [
      ['/', '-', false, 'satstation test'],
      ['\\', 'k', true, ''],
      ['9', '#', false, 'overlay digi'],
      ['S', 'a', true, 'x'.repeat(43)],
    ] as const) {
      const d = decode(info(encodePosition({ lat: -12.345, lon: 123.456, symbolTable: table, symbolCode: code, comment, messaging })));
      assert.equal(d.kind, 'position');
      if (d.kind !== 'position') continue;
      assert.equal(d.format, 'uncompressed');
      assert.ok(Math.abs(d.lat + 12.345) < 0.0002 && Math.abs(d.lon - 123.456) < 0.0002, `${d.lat},${d.lon}`);
      assert.equal(d.symbol_table, table);
      assert.equal(d.symbol_code, code);
      assert.equal(d.messaging, messaging);
      assert.equal(d.comment, comment);
    }
  });
  it('message with and without id', () => {
    assert.deepEqual(decode(info(encodeMessage({ addressee: 'n0call-7', text: 'Meet at 10:30, ok? #1', msgId: 'A1' }))), {
      kind: 'message',
      addressee: 'N0CALL-7',
      text: 'Meet at 10:30, ok? #1',
      msg_id: 'A1',
    });
    assert.deepEqual(decode(info(encodeMessage({ addressee: 'BLN1', text: 'no id here' }))), { kind: 'message', addressee: 'BLN1', text: 'no id here', msg_id: null });
  });
  it('ack and reject', () => {
    assert.deepEqual(decode(info(encodeAck('KB2ICI-14', '003'))), { kind: 'ack', addressee: 'KB2ICI-14', msg_id: '003' });
    assert.deepEqual(decode(info(encodeReject('KB2ICI-14', 'Zz9'))), { kind: 'reject', addressee: 'KB2ICI-14', msg_id: 'Zz9' });
  });
  it('status', () => {
    assert.deepEqual(decode(info(encodeStatus('QRV 145.825 via ISS'))), { kind: 'status', text: 'QRV 145.825 via ISS' });
  });
});
