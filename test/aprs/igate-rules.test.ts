import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_IS_LINE_BODY_BYTES, aprsIsPasscode, gateToIs, loginLine, parseServerLine, type HeardPacket } from '../../src/aprs/igate/is-rules.js';

// Passcode vectors are published examples (aprslib's test suite and others), not computed here.
describe('aprsIsPasscode', () => {
  const vectors: Array<[string, number]> = [
    ['N0CALL', 13023],
    ['TESTCALL', 31742],
    ['SUCHCALL', 27890],
    ['MUCHSIGN', 27128],
    ['WOW', 29613],
    ['KI4SWY', 23457],
    ['DO2FMW', 18620],
    ['W5ISP', 15748],
  ];
  for (const [call, code] of vectors) it(`${call} → ${code}`, () => assert.equal(aprsIsPasscode(call), code));

  it('ignores the SSID and the case', () => {
    for (const call of ['testcall', 'tEsTcAlL', 'TESTCALL-', 'TESTCALL-0', 'TESTCALL-12']) assert.equal(aprsIsPasscode(call), 31742, call);
    assert.equal(aprsIsPasscode('n0call-10'), 13023);
  });

  it('stays within 0..32767', () => {
    for (const call of ['', 'A', 'ZZZZZZ', 'Z9Z9Z9Z9Z', '999999']) {
      const p = aprsIsPasscode(call);
      assert.ok(Number.isInteger(p) && p >= 0 && p <= 32767, `${call}: ${p}`);
    }
  });
});

describe('loginLine', () => {
  it('user, pass, vers and filter, CRLF ended', () => {
    assert.equal(loginLine({ callsign: 'N0CALL-10', passcode: 13023, software: 'satstation', version: '0.1.0', filter: 'm/50' }), 'user N0CALL-10 pass 13023 vers satstation 0.1.0 filter m/50\r\n');
  });
  it('no filter command when the filter is empty; -1 logs in receive-only', () => {
    assert.equal(loginLine({ callsign: 'n0call', passcode: -1, software: 'satstation', version: '0.1.0', filter: '  ' }), 'user N0CALL pass -1 vers satstation 0.1.0\r\n');
  });
  it('cannot be split into two lines, and vers stays two words', () => {
    const line = loginLine({ callsign: 'N0CALL-10', passcode: 13023, software: 'sat station', version: '0.1.0\r\nuser X', filter: 'm/50\r\nr/1/2/3' });
    assert.equal(line, 'user N0CALL-10 pass 13023 vers sat-station 0.1.0user-X filter m/50 r/1/2/3\r\n');
    assert.equal(line.indexOf('\r'), line.length - 2);
  });
});

describe('parseServerLine', () => {
  it('logresp verified, with the server name', () => {
    assert.deepEqual(parseServerLine('# logresp N0CALL-10 verified, server T2FINLAND\r\n'), { kind: 'logresp', callsign: 'N0CALL-10', verified: true, server: 'T2FINLAND' });
  });
  it('logresp unverified', () => {
    assert.deepEqual(parseServerLine('# logresp N0CALL unverified, server T2TEST'), { kind: 'logresp', callsign: 'N0CALL', verified: false, server: 'T2TEST' });
  });
  it('logresp with more text after the server name (javAPRSSrvr adds the filter state)', () => {
    const r = parseServerLine('# logresp N0CALL-10 verified, server T2XYZ, adjunct "filter m/50" OK');
    assert.deepEqual(r, { kind: 'logresp', callsign: 'N0CALL-10', verified: true, server: 'T2XYZ' });
  });
  it('logresp without a server name', () => {
    assert.deepEqual(parseServerLine('# logresp N0CALL verified'), { kind: 'logresp', callsign: 'N0CALL', verified: true, server: null });
  });
  it('banner and keepalives are comments', () => {
    assert.deepEqual(parseServerLine('# aprsc 2.1.19-g730c5c0 22 Jan 2025 10:00:00 GMT T2TEST 1.2.3.4:14580'), { kind: 'comment', text: 'aprsc 2.1.19-g730c5c0 22 Jan 2025 10:00:00 GMT T2TEST 1.2.3.4:14580' });
    assert.equal(parseServerLine('#').kind, 'comment');
  });
  it('anything else is a packet line', () => {
    assert.deepEqual(parseServerLine('N0CALL>APRS,TCPIP*,qAC,T2TEST:>hello\r\n'), { kind: 'packet', line: 'N0CALL>APRS,TCPIP*,qAC,T2TEST:>hello' });
    assert.deepEqual(parseServerLine('X>Y:# not a comment'), { kind: 'packet', line: 'X>Y:# not a comment' });
  });
});

describe('gateToIs', () => {
  const pkt = (over: Partial<HeardPacket> = {}): HeardPacket => ({ source: 'N0CALL-9', destination: 'APRS', path: ['WIDE1*', 'WIDE2-1'], info: '!4903.50N/07201.75W>test', ...over });
  const IGATE = 'N0CALL-10';

  it('appends qAO,IGATECALL and keeps the path exactly as heard (receive-only IGate)', () => {
    assert.deepEqual(gateToIs(pkt(), IGATE), { gate: true, line: 'N0CALL-9>APRS,WIDE1*,WIDE2-1,qAO,N0CALL-10:!4903.50N/07201.75W>test' });
  });
  it('qAR when the caller says the IGate also gates to RF', () => {
    assert.deepEqual(gateToIs(pkt(), IGATE, { qConstruct: 'qAR' }), { gate: true, line: 'N0CALL-9>APRS,WIDE1*,WIDE2-1,qAR,N0CALL-10:!4903.50N/07201.75W>test' });
  });
  it('an empty path (heard direct)', () => {
    assert.deepEqual(gateToIs(pkt({ path: [] }), IGATE), { gate: true, line: 'N0CALL-9>APRS,qAO,N0CALL-10:!4903.50N/07201.75W>test' });
  });
  it('the information field is passed byte for byte (Mic-E binary, trailing spaces)', () => {
    const info = "`(_fn\"Oj/]\x1c\x7f\xb0 hi  ";
    const r = gateToIs(pkt({ destination: 'T2SP0W', info }), IGATE);
    assert.ok(r.gate);
    assert.ok(r.line.endsWith(':' + info));
  });

  for (const word of ['TCPIP', 'TCPXX', 'NOGATE', 'RFONLY']) {
    for (const [label, path] of [
      ['first', [word, 'WIDE2-1']],
      ['last', ['WIDE1*', word]],
      ['starred', ['WIDE1*', `${word}*`]],
      ['alone', [word]],
    ] as const) {
      it(`${word} in the path (${label}) is not gated`, () => {
        const r = gateToIs(pkt({ path: [...path] }), IGATE);
        assert.equal(r.gate, false);
        assert.match((r as { reason: string }).reason, new RegExp(word));
      });
    }
  }
  it('NOGATE as the destination is not gated either', () => {
    assert.equal(gateToIs(pkt({ destination: 'NOGATE' }), IGATE).gate, false);
  });
  it('generic queries are not gated', () => {
    for (const info of ['?APRS?', '?IGATE?', '?WX?']) assert.deepEqual(gateToIs(pkt({ info }), IGATE), { gate: false, reason: 'generic query' });
  });
  it('a directed query (a message) is gated', () => {
    assert.equal(gateToIs(pkt({ info: ':N0CALL-10:?APRSP' }), IGATE).gate, true);
  });

  it('third-party packets from APRS-IS (TCPIP/TCPXX inside) are not gated', () => {
    for (const inner of ['K1ABC>APRS,TCPIP,N0CALL-10*:>hi', 'K1ABC>APRS,TCPXX*,N0CALL-10*:>hi', 'K1ABC>APRS,TCPIP*:>hi']) {
      const r = gateToIs(pkt({ info: '}' + inner }), IGATE);
      assert.equal(r.gate, false, inner);
      assert.match((r as { reason: string }).reason, /third-party packet from APRS-IS/);
    }
  });
  it('other third-party packets go up as their inner packet, RF header and } stripped', () => {
    assert.deepEqual(gateToIs(pkt({ info: '}K1ABC>APRS,WIDE2-1:>hello' }), IGATE), { gate: true, line: 'K1ABC>APRS,WIDE2-1,qAO,N0CALL-10:>hello' });
    assert.deepEqual(gateToIs(pkt({ info: '}K1ABC>APRS:>hello' }), IGATE), { gate: true, line: 'K1ABC>APRS,qAO,N0CALL-10:>hello' });
  });
  it('the inner packet meets the same rules (NOGATE, query, nesting, malformed)', () => {
    assert.equal(gateToIs(pkt({ info: '}K1ABC>APRS,NOGATE:>x' }), IGATE).gate, false);
    assert.equal(gateToIs(pkt({ info: '}K1ABC>APRS:?APRS?' }), IGATE).gate, false);
    assert.equal(gateToIs(pkt({ info: '}K1ABC>APRS:}K2ABC>APRS,TCPIP*:>x' }), IGATE).gate, false);
    assert.equal(gateToIs(pkt({ info: '}' + 'A>B:}'.repeat(2) + 'A>B:>x' }), IGATE).gate, true);
    assert.match((gateToIs(pkt({ info: '}' + 'A>B:}'.repeat(4) + 'A>B:>x' }), IGATE) as { reason: string }).reason, /nested/);
    for (const bad of ['}no header', '}>APRS:x', '}K1ABC:APRS>x', '}K1 ABC>APRS:x']) assert.equal(gateToIs(pkt({ info: bad }), IGATE).gate, false, bad);
  });

  it('our own call heard on RF is gated like any other (the criteria make no exception)', () => {
    assert.equal(gateToIs(pkt({ source: IGATE }), IGATE).gate, true);
    assert.equal(gateToIs(pkt({ source: 'N0CALL' }), IGATE).gate, true);
  });

  it('the information field ends at the first CR or LF, as other IGates cut it', () => {
    assert.deepEqual(gateToIs(pkt({ info: '>status\r' }), IGATE), { gate: true, line: 'N0CALL-9>APRS,WIDE1*,WIDE2-1,qAO,N0CALL-10:>status' });
    assert.deepEqual(gateToIs(pkt({ info: '>a\nN0CALL>APRS:injected' }), IGATE), { gate: true, line: 'N0CALL-9>APRS,WIDE1*,WIDE2-1,qAO,N0CALL-10:>a' });
    assert.deepEqual(gateToIs(pkt({ info: '\r\n>x' }), IGATE), { gate: false, reason: 'empty information field' });
    assert.deepEqual(gateToIs(pkt({ info: '' }), IGATE), { gate: false, reason: 'empty information field' });
  });

  it('lines over 512 bytes with CRLF are refused, up to 512 accepted', () => {
    const head = 'N0CALL-9>APRS,WIDE1*,WIDE2-1,qAO,N0CALL-10:';
    const fits = 'x'.repeat(MAX_IS_LINE_BODY_BYTES - head.length);
    assert.deepEqual(gateToIs(pkt({ info: fits }), IGATE), { gate: true, line: head + fits });
    const r = gateToIs(pkt({ info: fits + 'x' }), IGATE);
    assert.equal(r.gate, false);
    assert.match((r as { reason: string }).reason, /512/);
    // Wide characters count as their UTF-8 bytes.
    assert.equal(gateToIs(pkt({ info: 'é'.repeat(300) + '€' }), IGATE).gate, false);
  });

  it('malformed headers are refused, not repaired', () => {
    for (const over of [{ source: '' }, { source: 'N0 CALL' }, { destination: 'AP,RS' }, { path: ['WIDE1:'] }, { path: ['TOOLONGCALL1'] }, { source: 'N0CALL*' }, { path: [''] }]) {
      assert.equal(gateToIs(pkt(over), IGATE).gate, false, JSON.stringify(over));
    }
  });
  it('a q construct heard on RF (a leaking gate) is refused', () => {
    const r = gateToIs(pkt({ path: ['WIDE1*', 'qAR', 'K1ABC'] }), IGATE);
    assert.equal(r.gate, false);
    assert.match((r as { reason: string }).reason, /q construct/);
  });
  it('an invalid IGate callsign is refused', () => {
    assert.equal(gateToIs(pkt(), 'N0 CALL').gate, false);
    assert.equal(gateToIs(pkt(), '').gate, false);
  });
});
