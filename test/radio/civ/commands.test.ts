import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CTCSS_TONES_HZ, SCOPE_MODES, SCOPE_SPANS_HZ, cmd, decode, isTransceive, matchReply, requestLabel, scopeSpan, type CivRequest } from '../../../src/radio/civ/commands.js';
import { CIV, encodeFrame, formatFrame, type CivFrame } from '../../../src/radio/civ/frame.js';

const RIG = 0xa4;
const CTL = 0xe0;
const hex = (s: string) => Uint8Array.from(s.split(/\s+/).filter(Boolean).map((b) => parseInt(b, 16)));
/** The request as the controller puts it on the wire. */
const wire = (r: CivRequest) => formatFrame(encodeFrame(RIG, CTL, r.cmd, r.data));
/** A frame from the rig to us carrying the given command and data. */
const fromRig = (c: number, data: Uint8Array | string): CivFrame => ({ to: CTL, from: RIG, cmd: c, data: typeof data === 'string' ? hex(data) : data });
/** The rig's answer to `read` carrying the same bytes a set of that value sends (the layouts match). */
const replyLike = (set: CivRequest): CivFrame => fromRig(set.cmd, set.data);

describe('CI-V command bytes (IC-705 / IC-9700 reference vectors)', () => {
  const cases: [CivRequest, string][] = [
    [cmd.setVfoFreq(0, 145_800_000), 'FE FE A4 E0 25 00 00 00 80 45 01 FD'],
    [cmd.setVfoFreq(1, 435_795_000), 'FE FE A4 E0 25 01 00 50 79 35 04 FD'],
    [cmd.readVfoFreq(0), 'FE FE A4 E0 25 00 FD'],
    [cmd.setVfoMode(0, 'USB', 1), 'FE FE A4 E0 26 00 01 00 01 FD'],
    [cmd.setVfoMode(1, 'FM-D', 2), 'FE FE A4 E0 26 01 05 01 02 FD'],
    [cmd.setVfoMode(0, 'LSB'), 'FE FE A4 E0 26 00 00 00 01 FD'],
    [cmd.readVfoMode(1), 'FE FE A4 E0 26 01 FD'],
    [cmd.setFreq(145_800_000), 'FE FE A4 E0 05 00 00 80 45 01 FD'],
    [cmd.readFreq(), 'FE FE A4 E0 03 FD'],
    [cmd.setMode('FM', 1), 'FE FE A4 E0 06 05 01 FD'],
    [cmd.setMode('DV'), 'FE FE A4 E0 06 17 01 FD'],
    [cmd.readMode(), 'FE FE A4 E0 04 FD'],
    [cmd.selectVfo('A'), 'FE FE A4 E0 07 00 FD'],
    [cmd.selectVfo('B'), 'FE FE A4 E0 07 01 FD'],
    [cmd.selectBand('MAIN'), 'FE FE A4 E0 07 D0 FD'],
    [cmd.selectBand('SUB'), 'FE FE A4 E0 07 D1 FD'],
    [cmd.setSplit(true), 'FE FE A4 E0 0F 01 FD'],
    [cmd.setSplit(false), 'FE FE A4 E0 0F 00 FD'],
    [cmd.readSplit(), 'FE FE A4 E0 0F FD'],
    [cmd.setSquelch(0), 'FE FE A4 E0 14 03 00 00 FD'],
    [cmd.setSquelch(128), 'FE FE A4 E0 14 03 01 28 FD'],
    [cmd.setSquelch(255), 'FE FE A4 E0 14 03 02 55 FD'],
    [cmd.readSquelch(), 'FE FE A4 E0 14 03 FD'],
    [cmd.setScopeOn(true), 'FE FE A4 E0 27 10 01 FD'],
    [cmd.readScopeOn(), 'FE FE A4 E0 27 10 FD'],
    [cmd.setScopeMode('center'), 'FE FE A4 E0 27 14 00 00 FD'],
    [cmd.setScopeMode('scroll-fixed'), 'FE FE A4 E0 27 14 00 03 FD'],
    [cmd.readScopeMode(), 'FE FE A4 E0 27 14 00 FD'],
    // 1 MHz total = ±500 kHz: the radio takes the half span.
    [cmd.setScopeSpan(1_000_000), 'FE FE A4 E0 27 15 00 00 00 50 00 00 FD'],
    [cmd.setScopeSpan(5_000), 'FE FE A4 E0 27 15 00 00 25 00 00 00 FD'],
    [cmd.readScopeSpan(), 'FE FE A4 E0 27 15 00 FD'],
    // Tones: 0.1 Hz units, 3 bytes big-endian BCD.
    [cmd.setToneFreq(88.5), 'FE FE A4 E0 1B 00 00 08 85 FD'],
    [cmd.setToneFreq(131.8), 'FE FE A4 E0 1B 00 00 13 18 FD'],
    [cmd.setTsqlFreq(254.1), 'FE FE A4 E0 1B 01 00 25 41 FD'],
    [cmd.setTsqlFreq(67), 'FE FE A4 E0 1B 01 00 06 70 FD'],
    [cmd.readToneFreq(), 'FE FE A4 E0 1B 00 FD'],
    [cmd.readTsqlFreq(), 'FE FE A4 E0 1B 01 FD'],
    [cmd.setToneOn(true), 'FE FE A4 E0 16 42 01 FD'],
    [cmd.readToneOn(), 'FE FE A4 E0 16 42 FD'],
    [cmd.setTsqlOn(false), 'FE FE A4 E0 16 43 00 FD'],
    [cmd.readTsqlOn(), 'FE FE A4 E0 16 43 FD'],
    [cmd.setSatMode(true), 'FE FE A4 E0 16 5A 01 FD'],
    [cmd.readSatMode(), 'FE FE A4 E0 16 5A FD'],
  ];
  for (const [r, bytes] of cases) it(`${r.name}: ${bytes}`, () => assert.equal(wire(r), bytes));

  it('reads carry their whole data as sub-command; sets say set', () => {
    for (const [r] of cases) {
      if (r.kind === 'read') assert.equal(r.subLen, r.data.length, r.name);
      assert.ok(r.subLen <= r.data.length);
      assert.ok(r.name.length > 0);
    }
    assert.equal(requestLabel(cmd.readScopeSpan()), '27 15 00');
    assert.equal(requestLabel(cmd.setVfoFreq(1, 1)), '25 01');
    assert.equal(requestLabel(cmd.setSatMode(true)), '16 5A');
  });

  it('scopeSpan encodes half of the total', () => {
    assert.deepEqual(scopeSpan(1_000_000), hex('00 00 50 00 00'));
    assert.deepEqual(scopeSpan(20_000), hex('00 00 01 00 00'));
  });
});

describe('round trips: set payload == read reply, decoded back', () => {
  const roundTrip = <T>(set: CivRequest, rd: CivRequest, dec: (f: CivFrame) => T, want: T) => {
    const reply = replyLike(set);
    assert.equal(matchReply(rd, reply, RIG, CTL), 'reply', `${rd.name} matches ${formatFrame(reply)}`);
    assert.deepEqual(dec(reply), want, set.name);
  };

  it('VFO frequency (0x25) both slots, and 0x05/0x03', () => {
    for (const hz of [0, 1_800_000, 145_800_000, 435_000_000, 1_296_000_000, 9_999_999_999]) {
      for (const slot of [0, 1] as const) roundTrip(cmd.setVfoFreq(slot, hz), cmd.readVfoFreq(slot), decode.freq, hz);
      assert.equal(decode.freq(fromRig(0x03, cmd.setFreq(hz).data)), hz);
    }
  });

  it('VFO mode (0x26) for every mode, data on/off and filter', () => {
    for (const mode of ['LSB', 'USB', 'AM', 'CW', 'RTTY', 'FM', 'WFM', 'CW-R', 'RTTY-R', 'DV', 'DD', 'LSB-D', 'USB-D', 'AM-D', 'FM-D']) {
      for (const filter of [1, 2, 3] as const) {
        for (const slot of [0, 1] as const) roundTrip(cmd.setVfoMode(slot, mode, filter), cmd.readVfoMode(slot), decode.mode, { mode, filter });
        if (!mode.endsWith('-D')) assert.deepEqual(decode.mode(fromRig(0x04, cmd.setMode(mode, filter).data)), { mode, filter });
      }
    }
  });

  it('on/off settings', () => {
    for (const on of [false, true]) {
      roundTrip(cmd.setSplit(on), cmd.readSplit(), decode.onOff, on);
      roundTrip(cmd.setScopeOn(on), cmd.readScopeOn(), decode.onOff, on);
      roundTrip(cmd.setToneOn(on), cmd.readToneOn(), decode.onOff, on);
      roundTrip(cmd.setTsqlOn(on), cmd.readTsqlOn(), decode.onOff, on);
      roundTrip(cmd.setSatMode(on), cmd.readSatMode(), decode.onOff, on);
    }
  });

  it('squelch 0..255', () => {
    for (let v = 0; v <= 255; v++) roundTrip(cmd.setSquelch(v), cmd.readSquelch(), decode.squelch, v);
  });

  it('scope mode and span (total Hz back)', () => {
    for (const m of SCOPE_MODES) roundTrip(cmd.setScopeMode(m), cmd.readScopeMode(), decode.scopeMode, m);
    for (const s of SCOPE_SPANS_HZ) roundTrip(cmd.setScopeSpan(s), cmd.readScopeSpan(), decode.scopeSpan, s);
  });

  it('every CTCSS tone, repeater and TSQL', () => {
    assert.equal(CTCSS_TONES_HZ.length, 50);
    for (const t of CTCSS_TONES_HZ) {
      roundTrip(cmd.setToneFreq(t), cmd.readToneFreq(), decode.tone, t);
      roundTrip(cmd.setTsqlFreq(t), cmd.readTsqlFreq(), decode.tone, t);
    }
  });
});

describe('decoders on what the radio sends', () => {
  it('transceive broadcasts: 00 freq, 01 mode+filter', () => {
    const f: CivFrame = { to: 0x00, from: RIG, cmd: 0x00, data: hex('00 00 80 45 01') };
    assert.ok(isTransceive(f));
    assert.equal(decode.freq(f), 145_800_000);
    const m: CivFrame = { to: 0x00, from: RIG, cmd: 0x01, data: hex('05 02') };
    assert.ok(isTransceive(m));
    assert.deepEqual(decode.mode(m), { mode: 'FM', filter: 2 });
    assert.ok(!isTransceive(fromRig(0x00, '00 00 80 45 01')));
    assert.ok(!isTransceive({ to: 0x00, from: RIG, cmd: 0x03, data: hex('00') }));
  });

  it('6-byte frequencies decode', () => {
    assert.equal(decode.freq(fromRig(0x03, '00 00 10 68 03 01')), 10_368_100_000);
    assert.equal(decode.freq(fromRig(0x25, '01 00 00 10 68 03 01')), 10_368_100_000);
  });

  it('0x0F duplex states read as split off', () => {
    for (const b of ['10', '11', '12', '13']) assert.equal(decode.onOff(fromRig(0x0f, b)), false);
  });

  it('mode with filter omitted reports filter 0', () => {
    assert.deepEqual(decode.mode(fromRig(0x04, '01')), { mode: 'USB', filter: 0 });
  });

  it('malformed replies decode to null, never throw', () => {
    const bad: [keyof typeof decode, CivFrame][] = [
      ['freq', fromRig(0x03, '00 00 80 45')],
      ['freq', fromRig(0x03, '00 00 8A 45 01')],
      ['freq', fromRig(0x25, '02 00 00 80 45 01')],
      ['freq', fromRig(0x25, '00 FF')], // no frequency for that VFO
      ['freq', fromRig(0x25, '')],
      ['freq', fromRig(0x04, '00 00 80 45 01')],
      ['mode', fromRig(0x04, '')],
      ['mode', fromRig(0x04, '42 01')],
      ['mode', fromRig(0x04, '01 04')],
      ['mode', fromRig(0x26, '00 03 01 01')], // CW with data on
      ['mode', fromRig(0x26, '00 01 02 01')],
      ['mode', fromRig(0x26, '05 01 00 01')],
      ['mode', fromRig(0x03, '01 01')],
      ['onOff', fromRig(0x0f, '02')],
      ['onOff', fromRig(0x0f, '')],
      ['onOff', fromRig(0x27, '11 01')],
      ['onOff', fromRig(0x16, '42 02')],
      ['onOff', fromRig(0x14, '03 01')],
      ['squelch', fromRig(0x14, '03 02 56')],
      ['squelch', fromRig(0x14, '03 0A 00')],
      ['squelch', fromRig(0x14, '02 00 00')],
      ['squelch', fromRig(0x14, '03 00')],
      ['scopeMode', fromRig(0x27, '14 00 04')],
      ['scopeMode', fromRig(0x27, '15 00 00')],
      ['scopeSpan', fromRig(0x27, '15 00 00 00 50 00')],
      ['scopeSpan', fromRig(0x27, '15 00 00 00 5F 00 00')],
      ['tone', fromRig(0x1b, '00 08 85')],
      ['tone', fromRig(0x1b, '02 00 08 85')],
      ['tone', fromRig(0x1b, '00 00 0F 85')],
      ['tone', fromRig(CIV.OK, '')],
    ];
    for (const [fn, f] of bad) assert.equal(decode[fn](f), null, `${fn}(${formatFrame(f)})`);
  });
});

describe('matchReply', () => {
  const rd = cmd.readVfoFreq(0);
  const st = cmd.setVfoFreq(0, 145_800_000);
  it('a read: its reply, NG; not an OK, not a bare echo of the sub-command', () => {
    assert.equal(matchReply(rd, fromRig(0x25, '00 00 00 80 45 01'), RIG, CTL), 'reply');
    assert.equal(matchReply(rd, fromRig(CIV.NG, ''), RIG, CTL), 'ng');
    assert.equal(matchReply(rd, fromRig(CIV.OK, ''), RIG), null);
    assert.equal(matchReply(rd, fromRig(0x25, '00'), RIG, CTL), null);
  });
  it('a set: OK or NG, never a data frame', () => {
    assert.equal(matchReply(st, fromRig(CIV.OK, ''), RIG, CTL), 'ok');
    assert.equal(matchReply(st, fromRig(CIV.NG, ''), RIG, CTL), 'ng');
    assert.equal(matchReply(st, fromRig(0x25, '00 00 00 80 45 01'), RIG, CTL), null);
  });
  it('not ours: echo, broadcast, other command or sub-command, other addresses', () => {
    assert.equal(matchReply(rd, { to: RIG, from: CTL, cmd: 0x25, data: hex('00') }, RIG, CTL), null);
    assert.equal(matchReply(st, { to: RIG, from: CTL, cmd: 0x25, data: st.data }, RIG, CTL), null);
    assert.equal(matchReply(rd, { to: 0x00, from: RIG, cmd: 0x00, data: hex('00 00 80 45 01') }, RIG, CTL), null);
    assert.equal(matchReply(rd, fromRig(0x25, '01 00 00 80 45 01'), RIG, CTL), null);
    assert.equal(matchReply(rd, fromRig(0x03, '00 00 80 45 01'), RIG, CTL), null);
    assert.equal(matchReply(cmd.readScopeSpan(), fromRig(0x27, '14 00 00'), RIG, CTL), null);
    assert.equal(matchReply(cmd.readToneFreq(), fromRig(0x1b, '01 00 08 85'), RIG, CTL), null);
    assert.equal(matchReply(rd, fromRig(0x25, '00 00 00 80 45 01'), 0xa2, CTL), null);
    assert.equal(matchReply(rd, { to: 0xe1, from: RIG, cmd: CIV.NG, data: hex('') }, RIG, CTL), null);
    assert.equal(matchReply(rd, { to: 0xe1, from: RIG, cmd: 0x25, data: hex('00 00 00 80 45 01') }, RIG, 0xe1), 'reply');
    assert.equal(matchReply(st, fromRig(CIV.NG, '00'), RIG, CTL), null);
  });
});

describe('builder guards', () => {
  const bad: [string, () => unknown][] = [
    ['negative frequency', () => cmd.setVfoFreq(0, -1)],
    ['fractional frequency', () => cmd.setFreq(145_800_000.5)],
    ['frequency too high', () => cmd.setFreq(10_000_000_000)],
    ['NaN frequency', () => cmd.setVfoFreq(1, NaN)],
    ['bad slot', () => cmd.readVfoFreq(2 as 0)],
    ['unknown mode', () => cmd.setVfoMode(0, 'XYZ')],
    ['data on a mode without it', () => cmd.setVfoMode(0, 'CW-D')],
    ['data mode through 06', () => cmd.setMode('USB-D')],
    ['filter 4', () => cmd.setVfoMode(0, 'USB', 4 as 1)],
    ['squelch -1', () => cmd.setSquelch(-1)],
    ['squelch 256', () => cmd.setSquelch(256)],
    ['squelch 1.5', () => cmd.setSquelch(1.5)],
    ['tone 88.4', () => cmd.setToneFreq(88.4)],
    ['tone 60.0 (outside 67.0..254.1)', () => cmd.setToneFreq(60)],
    ['tone 255', () => cmd.setTsqlFreq(255)],
    ['tone 88.55', () => cmd.setTsqlFreq(88.55)],
    ['span not an Icom span', () => cmd.setScopeSpan(123_456)],
    ['span given as the half', () => scopeSpan(250)],
    ['scope mode', () => cmd.setScopeMode('wide' as 'center')],
    ['VFO C', () => cmd.selectVfo('C' as 'A')],
    ['band', () => cmd.selectBand('MAIN ' as 'MAIN')],
  ];
  for (const [what, fn] of bad) it(`RangeError: ${what}`, () => assert.throws(fn, RangeError));
});
