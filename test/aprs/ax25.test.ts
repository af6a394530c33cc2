import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  decodeAx25,
  encodeAx25,
  formatAddress,
  parseAddress,
  sameStation,
  tryEncodeAx25,
  type Ax25Frame,
} from '../../src/aprs/codec/ax25.js';
import { infoBytes, infoText, parseTnc2, toTnc2 } from '../../src/aprs/codec/tnc2.js';
import { mulberry32 } from '../helpers/prng.js';

const hex = (s: string) => Uint8Array.from(s.replace(/\s+/g, '').match(/../g)!.map((h) => parseInt(h, 16)));
const toHex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const addr = (s: string) => {
  const a = parseAddress(s);
  assert.ok(a, s);
  return a;
};
function decoded(b: Uint8Array): Ax25Frame {
  const r = decodeAx25(b);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frame;
}
function tnc2(line: string): Ax25Frame {
  const r = parseTnc2(line);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.frame;
}

// Capture quoted on aprssig (Henk de Groot, 2004): an AX.25 v1 frame (C bits clear) from a KPC-3,
// "VK4TEC>APU25N,RELAY,WIDE:<CR>".
const VK4TEC = hex('82A0AA646A9C60 AC9668A88A8660 A48A9882B24060 AE92888A404061 03F00D');
// AX.25 2.2 §3.12 address example: NJ7P (dest, C=1) from N7LEM (source, C=0, last address).
const NJ7P = hex('9C946EA04040E0 9C6E988A9A4061 03F0');
// Hand-encoded: N0CALL-7>APRS,WIDE1-1*,WIDE2-1:>hi
//   APRS    82 A0 A4 A6 40 40 | E0 (C, RR, SSID 0)
//   N0CALL  9C 60 86 82 98 98 | 6E (RR, SSID 7)
//   WIDE1   AE 92 88 8A 62 40 | E2 (H, RR, SSID 1)
//   WIDE2   AE 92 88 8A 64 40 | 63 (RR, SSID 1, extension = last)
const MINE = hex('82A0A4A64040E0 9C60868298986E AE92888A6240E2 AE92888A644063 03F0 3E6869');

describe('AX.25 addresses', () => {
  it('parses and formats calls, SSIDs and stars', () => {
    assert.deepEqual(parseAddress('WIDE1-1'), { call: 'WIDE1', ssid: 1, repeated: false });
    assert.deepEqual(parseAddress('N0CALL-15*'), { call: 'N0CALL', ssid: 15, repeated: true });
    assert.deepEqual(parseAddress('APRS'), { call: 'APRS', ssid: 0, repeated: false });
    assert.deepEqual(parseAddress('CALL-0'), { call: 'CALL', ssid: 0, repeated: false });
    for (const bad of ['', '*', 'wide1-1', 'ABCDEFG', 'CALL-16', 'CALL-07', 'CALL-', 'CALL-1-2', 'CA LL', 'CALL**', 'qAR', 'A/B', '-1']) {
      assert.equal(parseAddress(bad), null, bad);
    }
    assert.equal(formatAddress(addr('CALL-0')), 'CALL');
    assert.equal(formatAddress(addr('CALL-7*')), 'CALL-7');
    assert.equal(formatAddress(addr('CALL-7*'), true), 'CALL-7*');
    assert.equal(formatAddress(addr('CALL-7'), true), 'CALL-7');
    assert.ok(sameStation(addr('N0CALL-1*'), addr('N0CALL-1')));
    assert.ok(!sameStation(addr('N0CALL-1'), addr('N0CALL-2')));
  });
});

describe('AX.25 frames: byte vectors', () => {
  it('decodes the VK4TEC capture and encodes it back byte for byte', () => {
    const f = decoded(VK4TEC);
    assert.deepEqual(f.source, { call: 'VK4TEC', ssid: 0, repeated: false });
    assert.deepEqual(f.destination, { call: 'APU25N', ssid: 0, repeated: false });
    assert.deepEqual(f.path.map((a) => formatAddress(a, true)), ['RELAY', 'WIDE']);
    assert.equal(f.control, 0x03);
    assert.equal(f.pid, 0xf0);
    assert.deepEqual([...f.info], [0x0d]);
    assert.equal(toTnc2(f), 'VK4TEC>APU25N,RELAY,WIDE:\r');
    assert.equal(toHex(encodeAx25(f)), toHex(VK4TEC));
  });

  it('encodes the AX.25 2.2 address example (command: dest C set, source C clear)', () => {
    const f: Ax25Frame = {
      destination: { call: 'NJ7P', ssid: 0, repeated: true },
      source: { call: 'N7LEM', ssid: 0, repeated: false },
      path: [],
      control: 0x03,
      pid: 0xf0,
      info: new Uint8Array(0),
    };
    assert.equal(toHex(encodeAx25(f)), toHex(NJ7P));
    assert.deepEqual(decoded(NJ7P), f); // empty info is fine
  });

  it('encodes SSIDs, H bits and the extension bit on the last digipeater', () => {
    const f = tnc2('N0CALL-7>APRS,WIDE1-1*,WIDE2-1:>hi');
    assert.equal(toHex(encodeAx25(f)), toHex(MINE));
    assert.deepEqual(decoded(MINE), f);
    assert.equal(toTnc2(decoded(MINE)), 'N0CALL-7>APRS,WIDE1-1*,WIDE2-1:>hi');
  });

  it('accepts UI with the poll bit (0x13) and keeps it', () => {
    const b = MINE.slice();
    b[28] = 0x13;
    assert.equal(decoded(b).control, 0x13);
    assert.equal(toHex(encodeAx25(decoded(b))), toHex(b));
  });

  it('copies the info out of the receive buffer', () => {
    const b = MINE.slice();
    const f = decoded(b);
    b[b.length - 1] = 0;
    assert.equal(infoText(f.info), '>hi');
  });

  it('rejects malformed frames with a reason', () => {
    const cases: [string, Uint8Array, RegExp][] = [
      ['empty', new Uint8Array(0), /truncated/],
      ['dest only', hex('82A0A4A6404061 03F0'), /no source/],
      ['lower case', hex('C2A0A4A64040E0 9C6E988A9A4061 03F0'), /invalid callsign/],
      ['space inside call', hex('8240A4A64040E0 9C6E988A9A4061 03F0'), /invalid callsign/],
      ['all spaces', hex('404040404040E0 9C6E988A9A4061 03F0'), /invalid callsign/],
      ['odd call byte', hex('83A0A4A64040E0 9C6E988A9A4061 03F0'), /invalid callsign/],
      ['no control', hex('9C946EA04040E0 9C6E988A9A4061'), /missing control/],
      ['no pid', hex('9C946EA04040E0 9C6E988A9A4061 03'), /missing PID/],
      ['I frame', hex('9C946EA04040E0 9C6E988A9A4061 00F0'), /not a UI frame/],
      ['SABM', hex('9C946EA04040E0 9C6E988A9A4061 3F'), /not a UI frame/],
      ['never terminated', new Uint8Array(7 * 12).fill(0x82), /not terminated/],
    ];
    for (const [name, b, re] of cases) {
      const r = decodeAx25(b);
      assert.ok(!r.ok, name);
      assert.match(r.error, re, name);
    }
  });

  it('takes 8 digipeaters and refuses 9', () => {
    const eight = tnc2('A>B,C1,C2,C3,C4,C5,C6,C7,C8:x');
    assert.equal(decoded(encodeAx25(eight)).path.length, 8);
    const nine = new Uint8Array(7 * 11 + 2);
    nine.set(encodeAx25(eight).subarray(0, 70));
    nine[69] &= 0xfe; // C8 no longer last
    nine.set(hex('86724040404061 03F0'), 70); // C9, last
    const r = decodeAx25(nine);
    assert.ok(!r.ok);
    assert.match(r.error, /not terminated/);
    assert.ok(!parseTnc2('A>B,C1,C2,C3,C4,C5,C6,C7,C8,C9:x').ok);
  });

  it('encode throws on programmer error only; tryEncodeAx25 answers', () => {
    const f = tnc2('N0CALL>APRS:x');
    const bad = { ...f, source: { call: 'toolong1', ssid: 0, repeated: false } };
    assert.throws(() => encodeAx25(bad), RangeError);
    assert.equal(tryEncodeAx25(bad).ok, false);
    assert.equal(tryEncodeAx25({ ...f, source: { call: 'N0CALL', ssid: 16, repeated: false } }).ok, false);
    assert.equal(tryEncodeAx25({ ...f, control: 0x00 }).ok, false);
    assert.equal(tryEncodeAx25({ ...f, path: Array.from({ length: 9 }, () => addr('WIDE1-1')) }).ok, false);
  });
});

describe('TNC2 text', () => {
  it('stars only the last repeated digipeater, and a star marks all before it', () => {
    const f = tnc2('N0CALL-9>APRS,K1ABC,W1XYZ-3*,WIDE2-1:!hello');
    assert.deepEqual(f.path.map((a) => a.repeated), [true, true, false]);
    assert.equal(toTnc2(f), 'N0CALL-9>APRS,K1ABC,W1XYZ-3*,WIDE2-1:!hello');
    assert.equal(toTnc2(tnc2('A>B,C*,D*,E:x')), 'A>B,C,D*,E:x');
    assert.equal(f.control, 0x03);
    assert.equal(f.pid, 0xf0);
    assert.equal(f.destination.repeated, true); // command frame
    assert.equal(f.source.repeated, false);
  });

  it('keeps every info byte 1:1 (latin1), including ":" and CR', () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const f = { ...tnc2('A>B:'), info: bytes };
    const back = tnc2(toTnc2(f));
    assert.deepEqual([...back.info], [...bytes]);
    assert.deepEqual(tnc2('A>B::N0CALL   :msg{1').info, infoBytes(':N0CALL   :msg{1'));
    assert.equal(tnc2('A>B:').info.length, 0);
    assert.equal(infoText(infoBytes('\u00e9\u00ff')), '\u00e9\u00ff');
    assert.deepEqual([...infoBytes('\u20ac')], [0x3f]);
  });

  it('refuses headers that cannot go on air', () => {
    const cases: [string, RegExp][] = [
      ['N0CALL>APRS,TCPIP*,qAC,T2TEXAS:x', /TCPIP/],
      ['N0CALL>APRS,WIDE2-1,qAR,K1ABC:x', /q-construct 'qAR'/],
      ['N0CALL>APRS,T2TEXAS:x', /'T2TEXAS' is not an AX.25 address/],
      ['n0call>APRS:x', /source 'n0call'/],
      ['N0CALL>APRS,wide1-1:x', /path element/],
      ['N0CALL-WX>APRS:x', /source/],
      ['N0CALL>APRS-16:x', /destination/],
      ['N0CALL*>APRS:x', /source/],
      ['N0CALL>APRS*:x', /destination/],
      ['N0CALL>APRS,,WIDE1-1:x', /path element ''/],
      ['N0CALL APRS:x', /'>'/],
      ['N0CALL>APRS', /':'/],
      ['N0CALL:x>y', /'>'/],
      ['N0CALL>APRS:\u20ac', /U\+00FF/],
    ];
    for (const [line, re] of cases) {
      const r = parseTnc2(line);
      assert.ok(!r.ok, line);
      assert.match(r.error, re, line);
    }
  });

  it('round-trips text → bytes → text', () => {
    for (const line of [
      'N0CALL>APRS:>hello',
      'K1ABC-15>APDW16,WIDE1*,WIDE2-1:=4237.14N/07120.83W-',
      'VE3XYZ-9>T2SP0W,K1ABC-1,DIGI*,WIDE2:`c51l}}>/\'"4T}|!w%\'!|3',
      'A>B,C1,C2,C3,C4,C5,C6,C7,C8*:x',
    ]) {
      assert.equal(toTnc2(decoded(encodeAx25(tnc2(line)))), line);
    }
  });
});

describe('fuzz: decoding never throws', () => {
  const rng = mulberry32;
  const rand = rng(0xa9b5);
  const int = (n: number) => Math.floor(rand() * n);
  const valid = [VK4TEC, NJ7P, MINE, encodeAx25(tnc2('A>B,C1,C2,C3,C4,C5,C6,C7,C8*:x'))];

  /** Any frame that decodes must encode and decode back to itself. */
  function check(b: Uint8Array) {
    const r = decodeAx25(b);
    if (!r.ok) {
      assert.equal(typeof r.error, 'string');
      return false;
    }
    assert.deepEqual(decodeAx25(encodeAx25(r.frame)), r);
    assert.deepEqual(parseTnc2(toTnc2(r.frame)).ok, true);
    return true;
  }

  it('survives 20k random frames and 20k mutated valid frames', () => {
    let ok = 0;
    for (let i = 0; i < 20_000; i++) {
      const b = new Uint8Array(int(100));
      for (let k = 0; k < b.length; k++) b[k] = int(256);
      if (check(b)) ok++;
    }
    for (let i = 0; i < 20_000; i++) {
      const b = valid[int(valid.length)].slice(0);
      const flips = 1 + int(3);
      for (let k = 0; k < flips; k++) {
        // Mostly plausible address bytes so some mutants pass and get round-tripped.
        b[int(b.length)] = rand() < 0.5 ? (0x41 + int(26)) << 1 : int(256);
      }
      if (check(b.subarray(0, b.length - int(4)))) ok++;
    }
    assert.ok(ok > 1000, `some mutants decode (${ok})`);
  });

  it('answers every truncation of valid frames', () => {
    for (const v of valid) {
      for (let n = 0; n < v.length; n++) {
        const r = decodeAx25(v.subarray(0, n));
        // With the PID present a UI frame is complete (info may be empty).
        const addrEnd = v.findIndex((x, i) => i % 7 === 6 && (x & 1) === 1) + 1;
        assert.equal(r.ok, n >= addrEnd + 2, `length ${n}`);
      }
    }
  });

  it('parseTnc2 survives 20k random lines', () => {
    const alphabet = 'AZ09>,:*-qW1IDE \r\u00ff\u20ac';
    for (let i = 0; i < 20_000; i++) {
      let s = '';
      const n = int(40);
      for (let k = 0; k < n; k++) s += alphabet[int(alphabet.length)];
      const r = parseTnc2(s);
      if (r.ok) assert.equal(toTnc2(decoded(encodeAx25(r.frame))), toTnc2(r.frame));
    }
  });
});
