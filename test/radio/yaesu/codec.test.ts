import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACK, CAT_LEN, OP, answersAck, cat, replyLength, writeCtcssTone, writeFixed, writeSetFreq, writeSetMode } from '../../../src/radio/yaesu/commands.js';
import { YAESU_MODELS, modelInfo } from '../../../src/radio/yaesu/models.js';
import { readMode, setModeCode } from '../../../src/radio/yaesu/modes.js';
import { decodeAck, decodeEeprom, decodeFreqMode, decodeRxStatus, decodeTxStatus, isGarbled, splitFromEeprom, vfoFromEeprom } from '../../../src/radio/yaesu/replies.js';

const hex = (b: ArrayLike<number>) => Array.from(b, (x) => x.toString(16).toUpperCase().padStart(2, '0')).join(' ');
const bytes = (s: string) => Uint8Array.from(s.split(/\s+/).filter(Boolean).map((h) => parseInt(h, 16)));

describe('Yaesu 5-byte CAT commands (Hamlib ft817.c / ft857.c vectors)', () => {
  const cases: [Uint8Array, string][] = [
    [cat.setFreq(145_800_000), '14 58 00 00 01'],
    [cat.setFreq(435_795_000), '43 57 95 00 01'],
    // Hamlib rounds to 10 Hz as (hz + 5) / 10: these two are from Hamlib issue logs (1553, 1052).
    [cat.setFreq(28_074_055), '02 80 74 06 01'],
    [cat.setFreq(21_075_055), '02 10 75 06 01'],
    [cat.setFreq(145_800_004), '14 58 00 00 01'],
    [cat.readFreqMode(), '00 00 00 00 03'],
    [cat.setMode('LSB'), '00 00 00 00 07'],
    [cat.setMode('USB'), '01 00 00 00 07'],
    [cat.setMode('CW'), '02 00 00 00 07'],
    [cat.setMode('CW-R'), '03 00 00 00 07'],
    [cat.setMode('AM'), '04 00 00 00 07'],
    [cat.setMode('FM'), '08 00 00 00 07'],
    [cat.setMode('FM-N'), '88 00 00 00 07'],
    [cat.setMode('DIG'), '0A 00 00 00 07'],
    [cat.setMode('USB-D'), '0A 00 00 00 07'],
    [cat.setMode('PKT'), '0C 00 00 00 07'],
    [cat.setMode('fm-d'), '0C 00 00 00 07'],
    [cat.ptt(true), '00 00 00 00 08'],
    [cat.ptt(false), '00 00 00 00 88'],
    [cat.toggleVfo(), '00 00 00 00 81'],
    [cat.split(true), '00 00 00 00 02'],
    [cat.split(false), '00 00 00 00 82'],
    [cat.lock(true), '00 00 00 00 00'],
    [cat.lock(false), '00 00 00 00 80'],
    [cat.readRxStatus(), '00 00 00 00 E7'],
    [cat.readTxStatus(), '00 00 00 00 F7'],
    [cat.toneMode('FT-817', 'off'), '8A 00 00 00 0A'],
    [cat.toneMode('FT-817', 'ctcss'), '2A 00 00 00 0A'],
    [cat.toneMode('FT-818', 'ctcss-enc'), '4A 00 00 00 0A'],
    [cat.toneMode('FT-817', 'dcs'), '0A 00 00 00 0A'],
    [cat.toneMode('FT-857', 'ctcss-dec'), '3A 00 00 00 0A'],
    [cat.toneMode('FT-897', 'dcs-dec'), '0B 00 00 00 0A'],
    [cat.toneMode('FT-897', 'dcs-enc'), '0C 00 00 00 0A'],
    // The tone in both pairs: the FT-857/897 ignore a 0B whose P3 P4 is not a tone.
    [cat.ctcssTone(88.5), '08 85 08 85 0B'],
    [cat.ctcssTone(67), '06 70 06 70 0B'],
    [cat.ctcssTone(254.1), '25 41 25 41 0B'],
    [cat.readEeprom(0x55), '00 55 00 00 BB'],
    [cat.readEeprom(0x008d), '00 8D 00 00 BB'],
  ];
  for (const [got, want] of cases) it(want, () => assert.equal(hex(got), want));

  it('writes into the caller’s buffer at an offset and returns the end', () => {
    const buf = new Uint8Array(12).fill(0xee);
    assert.equal(writeSetFreq(buf, 1, 145_800_000), 6);
    assert.equal(writeFixed(buf, 6, OP.TOGGLE_VFO), 11);
    assert.equal(hex(buf), 'EE 14 58 00 00 01 00 00 00 00 81 EE');
    assert.throws(() => writeSetMode(buf, 8, 'USB'), RangeError);
    assert.equal(buf[11], 0xee, 'nothing written past the buffer');
  });

  it('refuses values no radio of the family takes', () => {
    assert.throws(() => cat.setFreq(-1), RangeError);
    assert.throws(() => cat.setFreq(1_000_000_000), RangeError);
    assert.throws(() => cat.setFreq(Number.NaN), RangeError);
    assert.throws(() => cat.setMode('WFM'), /cannot be set/);
    assert.throws(() => cat.setMode('DV'), RangeError);
    assert.throws(() => cat.ctcssTone(88.4), /not a standard CTCSS tone/);
    assert.throws(() => cat.ctcssTone(0), RangeError);
    assert.throws(() => cat.toneMode('FT-817', 'ctcss-dec'), /does not exist on the FT-817/);
    assert.throws(() => cat.toneMode('FT-818', 'dcs-enc'), RangeError);
    assert.throws(() => cat.readEeprom(0x10000), RangeError);
    assert.throws(() => writeFixed(new Uint8Array(5), 0, OP.SET_FREQ as never), RangeError);
    assert.throws(() => writeCtcssTone(new Uint8Array(5), 1, 88.5), RangeError);
  });

  it('says which commands answer an ACK and how long each reply is', () => {
    assert.equal(replyLength(OP.READ_FREQ_MODE), 5);
    assert.equal(replyLength(OP.READ_EEPROM), 2);
    assert.equal(replyLength(OP.READ_TX_STATUS), 1);
    assert.equal(replyLength(OP.SET_FREQ), 1);
    for (const op of [OP.SET_FREQ, OP.SET_MODE, OP.PTT_ON, OP.PTT_OFF, OP.TOGGLE_VFO, OP.SPLIT_ON, OP.SPLIT_OFF, OP.TONE_MODE, OP.CTCSS_TONE, OP.LOCK_ON, OP.LOCK_OFF]) assert.ok(answersAck(op), `0x${op.toString(16)}`);
    for (const op of [OP.READ_FREQ_MODE, OP.READ_RX_STATUS, OP.READ_TX_STATUS, OP.READ_EEPROM]) assert.ok(!answersAck(op));
    assert.equal(CAT_LEN, 5);
  });

  it('knows the models: Hamlib numbers, families and EEPROM addresses', () => {
    assert.deepEqual(YAESU_MODELS.map((m) => modelInfo(m).hamlibModel), [1020, 1041, 1022, 1023]);
    assert.deepEqual(YAESU_MODELS.map((m) => modelInfo(m).family), ['FT-817', 'FT-817', 'FT-857', 'FT-857']);
    assert.equal(modelInfo('FT-818').eeprom.vfo, 0x55);
    assert.equal(modelInfo('FT-897').eeprom.split, 0x8d);
    assert.throws(() => modelInfo('FT-991' as never), RangeError);
  });

  it('maps mode names both ways', () => {
    assert.equal(setModeCode('cwr'), 0x03);
    assert.equal(setModeCode('PKTUSB'), 0x0a);
    assert.equal(setModeCode('RTTY'), null);
    assert.equal(setModeCode(7 as never), null);
    assert.deepEqual(readMode(0x88), { mode: 'FM-N', narrow: true });
    assert.deepEqual(readMode(0x82), { mode: 'CW', narrow: true });
    assert.deepEqual(readMode(0x06), { mode: 'WFM', narrow: false });
    assert.equal(readMode(0x05), null);
    assert.equal(readMode(0x01), readMode(0x01), 'one shared answer per byte: nothing allocated per reply');
  });
});

describe('Yaesu 5-byte CAT replies', () => {
  it('03: frequency and mode', () => {
    assert.deepEqual(decodeFreqMode(bytes('14 58 00 00 01')), { hz: 145_800_000, mode: 'USB', narrow: false });
    assert.deepEqual(decodeFreqMode(bytes('43 57 95 00 88')), { hz: 435_795_000, mode: 'FM-N', narrow: true });
    assert.deepEqual(decodeFreqMode(bytes('FF 14 58 00 00 0C'), 1), { hz: 145_800_000, mode: 'PKT', narrow: false });
  });

  it('03: garbled replies are values, not exceptions', () => {
    assert.ok(isGarbled(decodeFreqMode(bytes('14 58 00 00'))));
    assert.match((decodeFreqMode(bytes('14 5A 00 00 01')) as { garbled: string }).garbled, /BCD/);
    assert.match((decodeFreqMode(bytes('14 58 00 00 05')) as { garbled: string }).garbled, /mode/);
    assert.ok(isGarbled(decodeFreqMode(bytes('14 58 00 00 01'), -1)));
    assert.ok(isGarbled(decodeFreqMode(bytes('14 58 00 00 01'), 1)));
  });

  it('F7: keyed, split, high SWR and power meter only while keyed', () => {
    assert.deepEqual(decodeTxStatus(bytes('FF')), { keyed: false, highSwr: null, split: null, powerMeter: null });
    assert.deepEqual(decodeTxStatus(bytes('25')), { keyed: true, highSwr: false, split: true, powerMeter: 5 });
    assert.deepEqual(decodeTxStatus(bytes('4F')), { keyed: true, highSwr: true, split: false, powerMeter: 15 });
    assert.ok(isGarbled(decodeTxStatus(new Uint8Array(0))));
  });

  it('E7: squelch, tone match, centring and S-meter', () => {
    assert.deepEqual(decodeRxStatus(bytes('09')), { squelchOpen: true, toneMatched: true, centered: true, sMeter: 9 });
    assert.deepEqual(decodeRxStatus(bytes('E0')), { squelchOpen: false, toneMatched: false, centered: false, sMeter: 0 });
    assert.ok(isGarbled(decodeRxStatus(new Uint8Array(0))));
  });

  it('ACK: 00 done, F0 refused, anything else garbled', () => {
    assert.equal(decodeAck(Uint8Array.of(ACK.OK)), 'ok');
    assert.equal(decodeAck(Uint8Array.of(ACK.REJECTED)), 'rejected');
    assert.ok(isGarbled(decodeAck(Uint8Array.of(0x12))));
    assert.ok(isGarbled(decodeAck(new Uint8Array(0))));
  });

  it('BB: the byte asked for comes first', () => {
    assert.equal(decodeEeprom(bytes('01 80')), 1);
    assert.ok(isGarbled(decodeEeprom(bytes('01'))));
    assert.equal(vfoFromEeprom(0x01), 'B');
    assert.equal(vfoFromEeprom(0xfe), 'A');
    assert.equal(splitFromEeprom(0x80), true);
    assert.equal(splitFromEeprom(0x7f), false);
  });
});
