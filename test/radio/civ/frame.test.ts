import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBcdBE, decodeFreq, encodeBcdBE, encodeFreq } from '../../../src/radio/civ/bcd.js';
import { CIV, encodeFrame, formatFrame, frameLength, writeFrame } from '../../../src/radio/civ/frame.js';
import { MODE_CODES, modeByte, modeName } from '../../../src/radio/civ/modes.js';

const hex = (s: string) => Uint8Array.from(s.split(/\s+/).filter(Boolean).map((b) => parseInt(b, 16)));

describe('CI-V frame encoding', () => {
  it('builds FE FE to from cmd data FD', () => {
    assert.deepEqual(encodeFrame(0xa4, 0xe0, 0x03), hex('FE FE A4 E0 03 FD'));
    assert.deepEqual(encodeFrame(0xa4, 0xe0, 0x0f, [0x01]), hex('FE FE A4 E0 0F 01 FD'));
    assert.equal(frameLength(5), 11);
  });

  it('writeFrame writes in place, honours dataLen, returns the end offset', () => {
    const out = new Uint8Array(32).fill(0x55);
    const end = writeFrame(out, 3, 0xa4, 0xe0, 0x25, [0x00, 0x00, 0x00, 0x80, 0x45, 0x01, 0x99], 6);
    assert.equal(end, 3 + 12);
    assert.deepEqual(out.subarray(3, end), hex('FE FE A4 E0 25 00 00 00 80 45 01 FD'));
    assert.equal(out[2], 0x55);
    assert.equal(out[end], 0x55);
    const end2 = writeFrame(out, end, 0xe0, 0xa4, CIV.OK, []);
    assert.deepEqual(out.subarray(end, end2), hex('FE FE E0 A4 FB FD'));
  });

  it('refuses bytes that would break framing, and buffers that are too small', () => {
    assert.throws(() => encodeFrame(0xa4, 0xe0, 0x05, [0xfd]), RangeError);
    assert.throws(() => encodeFrame(0xa4, 0xe0, 0x05, [0xfe]), RangeError);
    assert.throws(() => encodeFrame(0xa4, 0xe0, 0x05, [0xfc]), RangeError);
    assert.throws(() => encodeFrame(0xa4, 0xe0, 0x05, [256]), RangeError);
    assert.throws(() => encodeFrame(0xfe, 0xe0, 0x05), RangeError);
    assert.throws(() => writeFrame(new Uint8Array(5), 0, 0xa4, 0xe0, 0x03, []), RangeError);
    assert.throws(() => writeFrame(new Uint8Array(16), 0, 0xa4, 0xe0, 0x03, [1], 2), RangeError);
    assert.deepEqual(encodeFrame(0xe0, 0xa4, 0x25, [0x00, 0xff]), hex('FE FE E0 A4 25 00 FF FD')); // FF is data
  });

  it('formats frames and raw bytes for logs', () => {
    assert.equal(formatFrame({ to: 0xa4, from: 0xe0, cmd: 0x25, data: hex('00 00 00 80 45 01') }), 'FE FE A4 E0 25 00 00 00 80 45 01 FD');
    assert.equal(formatFrame(hex('fe fe e0 a4 fb fd')), 'FE FE E0 A4 FB FD');
    assert.equal(formatFrame(new Uint8Array(0)), '');
  });
});

describe('BCD', () => {
  it('frequencies are little-endian BCD: 145.800 MHz -> 00 00 80 45 01', () => {
    const b = new Uint8Array(5);
    encodeFreq(145_800_000, b, 0);
    assert.deepEqual(b, hex('00 00 80 45 01'));
    encodeFreq(14_074_000, b, 0);
    assert.deepEqual(b, hex('00 40 07 14 00'));
    encodeFreq(1_296_200_000, b, 0);
    assert.deepEqual(b, hex('00 00 20 96 12'));
    encodeFreq(9_999_999_999, b, 0);
    assert.deepEqual(b, hex('99 99 99 99 99'));
    assert.equal(decodeFreq(hex('00 00 80 45 01'), 0), 145_800_000);
    assert.equal(decodeFreq(hex('77 00 00 80 45 01'), 1), 145_800_000);
  });

  it('decodes the 6-byte form (10 GHz class) and encodes it on request', () => {
    const b = new Uint8Array(6);
    encodeFreq(10_368_100_000, b, 0, 6);
    assert.deepEqual(b, hex('00 00 10 68 03 01'));
    assert.equal(decodeFreq(b, 0, 6), 10_368_100_000);
    assert.throws(() => encodeFreq(10_368_100_000, new Uint8Array(5), 0), RangeError);
  });

  it('frequency round-trips', () => {
    const b = new Uint8Array(5);
    for (const hz of [0, 1, 9, 10, 99, 100, 1234567890, 29_999_999, 50_313_000, 435_000_000, 9_999_999_999]) {
      encodeFreq(hz, b, 0);
      assert.equal(decodeFreq(b, 0), hz);
    }
  });

  it('decoders say null on a nibble above 9 or missing bytes, encoders throw RangeError', () => {
    assert.equal(decodeFreq(hex('00 00 8A 45 01'), 0), null);
    assert.equal(decodeFreq(hex('FF FF FF FF FF'), 0), null);
    assert.equal(decodeFreq(hex('00 00 80 45'), 0), null);
    assert.equal(decodeBcdBE(hex('0A'), 0, 1), null);
    assert.equal(decodeBcdBE(hex('01'), 0, 2), null);
    assert.throws(() => encodeFreq(-1, new Uint8Array(5), 0), RangeError);
    assert.throws(() => encodeFreq(1.5, new Uint8Array(5), 0), RangeError);
    assert.throws(() => encodeFreq(1, new Uint8Array(4), 0), RangeError);
    assert.throws(() => encodeBcdBE(256, 1, new Uint8Array(1), 0), RangeError);
  });

  it('levels and tones are big-endian BCD', () => {
    const b = new Uint8Array(3);
    for (const [v, n, bytes] of [
      [0, 2, '00 00'],
      [128, 2, '01 28'],
      [255, 2, '02 55'],
      [885, 3, '00 08 85'],
      [1318, 3, '00 13 18'],
      [2541, 3, '00 25 41'],
    ] as const) {
      encodeBcdBE(v, n, b, 0);
      assert.deepEqual(b.subarray(0, n), hex(bytes), `${v}`);
      assert.equal(decodeBcdBE(b, 0, n), v);
    }
  });
});

describe('modes', () => {
  it('codes follow the Icom table', () => {
    assert.deepEqual({ ...MODE_CODES }, { LSB: 0, USB: 1, AM: 2, CW: 3, RTTY: 4, FM: 5, WFM: 6, 'CW-R': 7, 'RTTY-R': 8, DV: 0x17, DD: 0x22 });
  });

  it('"-D" means data mode on, only for LSB/USB/AM/FM', () => {
    assert.deepEqual(modeByte('USB-D'), { code: 1, data: true });
    assert.deepEqual(modeByte('fm-d'), { code: 5, data: true });
    assert.deepEqual(modeByte('USB'), { code: 1, data: false });
    assert.deepEqual(modeByte('DV'), { code: 0x17, data: false });
    assert.deepEqual(modeByte('CWR'), { code: 7, data: false });
    assert.equal(modeByte('CW-D'), null);
    assert.equal(modeByte('XYZ'), null);
    assert.equal(modeByte('toString'), null);
    assert.equal(modeName(1, true), 'USB-D');
    assert.equal(modeName(0x17), 'DV');
    assert.equal(modeName(3, true), null);
    assert.equal(modeName(0x42), null);
  });

  it('every name round-trips', () => {
    for (const [name, code] of Object.entries(MODE_CODES)) {
      assert.equal(modeName(code), name);
      for (const data of [false, true]) {
        const n = modeName(code, data);
        if (n !== null) assert.deepEqual(modeByte(n), { code, data });
      }
    }
  });
});
