import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAprs, decodeTnc2Line, parseTnc2Line, summarize, type AprsDecoded } from '../../src/aprs/codec/aprs-decode.js';

// Real-world packets (from the APRS spec and the FAP test corpus) with the fields we report.

const line = (l: string): AprsDecoded => {
  const p = parseTnc2Line(l);
  assert.ok(p, `not a TNC2 line: ${l}`);
  return decodeAprs(p);
};
const close = (a: number | null, b: number, tol = 0.0001) => assert.ok(a !== null && Math.abs(a - b) <= tol, `${a} vs ${b}`);
function position(l: string) {
  const d = line(l);
  assert.equal(d.kind, 'position', JSON.stringify(d));
  if (d.kind !== 'position') throw new Error('unreachable');
  return d;
}

describe('APRS decode: uncompressed positions', () => {
  it('spec example, no timestamp, no messaging', () => {
    assert.deepEqual(line('N0CALL-9>APRS,WIDE1-1,WIDE2-1:!4903.50N/07201.75W-Test 001234'), {
      kind: 'position',
      format: 'uncompressed',
      lat: 49 + 3.5 / 60,
      lon: -(72 + 1.75 / 60),
      symbol_table: '/',
      symbol_code: '-',
      comment: 'Test 001234',
      messaging: false,
      speed_kmh: null,
      course_deg: null,
      altitude_m: null,
    });
  });
  it('timestamp, messaging, course/speed and altitude', () => {
    const d = position('N0CALL>APRS:@092345z4903.50N/07201.75W>088/036/A=001234 moving');
    assert.equal(d.messaging, true);
    assert.equal(d.course_deg, 88);
    close(d.speed_kmh, 36 * 1.852, 0.01);
    close(d.altitude_m, 1234 * 0.3048, 0.01);
    assert.equal(d.comment, 'moving');
    assert.equal(d.symbol_code, '>');
  });
  it('southern/eastern hemisphere with an overlay', () => {
    const d = position('VK2XYZ>APRS,WIDE2-1:=3351.90SD15112.60E&PHG5132 Sydney igate');
    close(d.lat, -(33 + 51.9 / 60));
    close(d.lon, 151 + 12.6 / 60);
    assert.equal(d.symbol_table, 'D');
    assert.equal(d.symbol_code, '&');
    assert.equal(d.comment, 'Sydney igate');
  });
  it('weather station position keeps its position', () => {
    const d = position('N0CALL>APRS:@092345z4903.50N/07201.75W_090/000g000t066r000p000P000h50b09900wRSW');
    assert.equal(d.symbol_code, '_');
    close(d.lat, 49.0583);
  });
});

describe('APRS decode: compressed positions', () => {
  it('spec example with course/speed', () => {
    const d = position('N0CALL>APRS:=/5L!!<*e7>7P[Compressed');
    assert.equal(d.format, 'compressed');
    close(d.lat, 49.5);
    close(d.lon, -72.75);
    assert.equal(d.course_deg, 88);
    close(d.speed_kmh, 36.2 * 1.852, 0.3);
    assert.equal(d.messaging, true);
    assert.equal(d.comment, 'Compressed');
  });
  it('igate beacon with overlay', () => {
    const d = position('OH2KKU-15>APRS,TCPIP*,qAC,FOURTH:!I0-X;T_Wv&{-Aigate testing');
    close(d.lat, 60.052);
    close(d.lon, 24.5045);
    assert.equal(d.symbol_table, 'I');
    assert.equal(d.symbol_code, '&');
    assert.equal(d.comment, 'igate testing');
    assert.equal(d.speed_kmh, null);
    assert.equal(d.course_deg, null);
  });
  it('moving car with comment telemetry stripped', () => {
    const d = position('OH2KKU-10>APZMDR,WIDE3-2,qAo,OH2MQK-1:!//zPHTfVv>!V_ Tero, Green Volvo 960, GGL-880|!!!!!!!!!!!!!!|');
    close(d.lat, 60.3582);
    close(d.lon, 24.8084);
    close(d.speed_kmh, 107.57, 0.01);
    assert.equal(d.course_deg, 360);
    assert.equal(d.comment, 'Tero, Green Volvo 960, GGL-880');
  });
  it('overlay a-j is reported as digit 0-9', () => {
    const d = position('N0CALL>APRS:!c5L!!<*e7>7P[');
    assert.equal(d.symbol_table, '2');
  });
});

describe('APRS decode: Mic-E', () => {
  it('Yaesu FTM-400 (` type code, _% suffix) with altitude', () => {
    const d = position('N0CALL>T2SP0W,WIDE1-1:`c_Vm6hk/`"49}_%');
    assert.equal(d.format, 'mic-e');
    close(d.lat, 42.5012);
    close(d.lon, -71.1263);
    assert.equal(d.course_deg, 276);
    close(d.speed_kmh, 12 * 1.852, 0.01);
    assert.equal(d.altitude_m, 34);
    assert.equal(d.symbol_code, 'k');
    assert.equal(d.comment, '');
    assert.equal(d.messaging, true);
  });
  it('Kenwood TM-D710 (] ... =) moving', () => {
    const d = position('OH7LZB-2>TQ4W2V,WIDE2-1,qAo,OH7LZB:`c51!f?>/]"3x}=');
    close(d.lat, 41.7877);
    close(d.lon, -71.4202);
    close(d.speed_kmh, 105.56, 0.01);
    assert.equal(d.course_deg, 35);
    assert.equal(d.altitude_m, 6);
    assert.equal(d.comment, '');
    assert.equal(d.messaging, true);
  });
  it('non-moving, southern hemisphere, binary byte in the info field', () => {
    const d = position("OH7LZB-13>SX15S6,TCPIP*,qAC,FOURTH:'I',l \x1C>/]");
    close(d.lat, -38.256);
    close(d.lon, 145.186);
    assert.equal(d.course_deg, null);
    assert.equal(d.speed_kmh, 0);
    assert.equal(d.symbol_code, '>');
  });
  it('comment text survives the type code strip; destination SSID is ignored', () => {
    const d = decodeAprs({ source: 'W4RK-9', destination: 'S8SR5R-2', path: [], info: '`x- n"@>/]"6>}Hello from the road=' });
    assert.equal(d.kind, 'position');
    if (d.kind !== 'position') return;
    close(d.lat, 38.542);
    close(d.lon, -92.284);
    assert.equal(d.altitude_m, 221);
    assert.equal(d.comment, 'Hello from the road');
  });
  it('a destination that is not a Mic-E latitude is unparsed', () => {
    const d = decodeAprs({ source: 'N0CALL', destination: 'APRS', path: [], info: '`c_Vm6hk/`"49}_%' });
    assert.equal(d.kind, 'unparsed');
  });
});

describe('APRS decode: messages', () => {
  it('spec message with id', () => {
    assert.deepEqual(line('N0CALL>APRS::WU2Z     :Testing{003'), { kind: 'message', addressee: 'WU2Z', text: 'Testing', msg_id: '003' });
  });
  it('without id, bulletin, reply-ack id', () => {
    assert.deepEqual(line('N0CALL>APRS::N0CALL-7 :hello there'), { kind: 'message', addressee: 'N0CALL-7', text: 'hello there', msg_id: null });
    assert.deepEqual(line('N0CALL>APRS::BLN1     :Net tonight 2000z'), { kind: 'message', addressee: 'BLN1', text: 'Net tonight 2000z', msg_id: null });
    assert.deepEqual(line('OH2XYZ>APWW11::N0CALL   :reply{AB}CD'), { kind: 'message', addressee: 'N0CALL', text: 'reply', msg_id: 'AB' });
  });
  it('UTF-8 text (as latin1 bytes) is kept, not rejected', () => {
    const utf8AsLatin1 = String.fromCharCode(...new TextEncoder().encode('Grüße'));
    const d = line(`DL1ABC>APRS::N0CALL   :${utf8AsLatin1}{7`);
    assert.deepEqual(d, { kind: 'message', addressee: 'N0CALL', text: utf8AsLatin1, msg_id: '7' });
  });
  it('ack and rej become their own kinds', () => {
    assert.deepEqual(line('N0CALL>APRS::KB2ICI-14:ack003'), { kind: 'ack', addressee: 'KB2ICI-14', msg_id: '003' });
    assert.deepEqual(line('N0CALL>APRS::KB2ICI-14:rej003'), { kind: 'reject', addressee: 'KB2ICI-14', msg_id: '003' });
    assert.deepEqual(line('N0CALL>APRS::N0CALL   :ackAB}'), { kind: 'ack', addressee: 'N0CALL', msg_id: 'AB' });
    assert.deepEqual(line('N0CALL>APRS::N0CALL   :ack12 '), { kind: 'ack', addressee: 'N0CALL', msg_id: '12' });
  });
  it('a short addressee field is unparsed', () => {
    assert.equal(line('N0CALL>APRS::WU2Z:Testing').kind, 'unparsed');
  });
});

describe('APRS decode: status, objects, items', () => {
  it('status with and without timestamp', () => {
    assert.deepEqual(line('N0CALL>APRS:>Net Control Center'), { kind: 'status', text: 'Net Control Center' });
    assert.deepEqual(line('N0CALL>APRS:>092345zNet Control Center'), { kind: 'status', text: 'Net Control Center' });
  });
  it('object, alive and killed', () => {
    assert.deepEqual(line('OH2KKU-1>APRS,TCPIP*,qAC,OH2KKU-1:;LEADER   *092345z4903.50N/07201.75W>088/036'), {
      kind: 'object',
      name: 'LEADER',
      alive: true,
      lat: 49 + 3.5 / 60,
      lon: -(72 + 1.75 / 60),
      symbol_table: '/',
      symbol_code: '>',
      comment: '',
    });
    const killed = line('OH2KKU-1>APRS:;LEADER   _092345z4903.50N/07201.75W>088/036');
    assert.equal(killed.kind, 'object');
    assert.equal(killed.kind === 'object' && killed.alive, false);
  });
  it('compressed object with a comment', () => {
    const d = line('OH2KKU-1>APRS:;SRAL HQ  *100927zS0%E/Th4_a  AKaupinmaenpolku9,open M-Th12-17,F12-14 lcl');
    assert.equal(d.kind, 'object');
    if (d.kind !== 'object') return;
    assert.equal(d.name, 'SRAL HQ');
    close(d.lat, 60.2305);
    close(d.lon, 24.879);
    assert.equal(d.symbol_table, 'S');
    assert.equal(d.symbol_code, 'a');
    assert.equal(d.comment, 'Kaupinmaenpolku9,open M-Th12-17,F12-14 lcl');
  });
  it('object whose position does not decode keeps its name, without position', () => {
    const d = line('K8ETN-S>APJIO4,TCPIP*,qAC,K8ETN-GS:;K8ETN  C *080015z    .  ND     .  EaRNG0045 2m Voice');
    assert.deepEqual(d, { kind: 'object', name: 'K8ETN  C', alive: true, lat: null, lon: null, symbol_table: null, symbol_code: null, comment: '' });
  });
  it('items: uncompressed, killed, compressed', () => {
    const a = line('OH2KKU-1>APRS:)AID #2!4903.50N/07201.75WA');
    assert.equal(a.kind, 'item');
    if (a.kind !== 'item') return;
    assert.equal(a.name, 'AID #2');
    assert.equal(a.alive, true);
    close(a.lat, 49.0583);
    close(a.lon, -72.0292);
    assert.equal(a.symbol_code, 'A');
    const k = line('OH2KKU-1>APRS:)AID #2_4903.50N/07201.75WA');
    assert.equal(k.kind === 'item' && k.alive, false);
    const c = line('OH2KKU-1>APRS:)MOBIL!\\5L!!<*e79 sT');
    assert.equal(c.kind, 'item');
    if (c.kind !== 'item') return;
    assert.equal(c.name, 'MOBIL');
    close(c.lat, 49.5);
    close(c.lon, -72.75);
    assert.equal(c.symbol_table, '\\');
    assert.equal(c.symbol_code, '9');
  });
});

describe('APRS decode: third party and odd input', () => {
  it('third-party packets decode the inner packet and name its real sender', () => {
    const d = line('KB2ICI>APRS,WIDE1-1:}WB4APR>APRS,TCPIP,KB2ICI*::N0CALL   :hello{12');
    assert.deepEqual(d, { kind: 'message', addressee: 'N0CALL', text: 'hello', msg_id: '12', third_party: { source: 'WB4APR', destination: 'APRS', path: ['TCPIP', 'KB2ICI*'] } });
    assert.equal(summarize(d, '}WB4APR>APRS,TCPIP,KB2ICI*::N0CALL   :hello{12'), '[via WB4APR] msg to N0CALL: hello {12}');
    const m = line('IGATE>APRS:}N0CALL>T2SP0W,TCPIP,IGATE*:`c_Vm6hk/`"49}_%');
    assert.equal(m.kind, 'position');
    assert.equal(m.third_party?.source, 'N0CALL');
  });
  it('nested or malformed third-party packets are unparsed', () => {
    assert.equal(line('A>APRS:}B>APRS:}C>APRS:>hi').kind, 'unparsed');
    assert.equal(line('A>APRS:}garbage').kind, 'unparsed');
    assert.equal(line('A>APRS:}').kind, 'unparsed');
  });
  it('unsupported types are unparsed with a reason', () => {
    for (const info of ['', 'T#005,199,000,255,073,123,01101001', '_10090556c220s004g005t077r000p000P000h50b09900wRSW', '$GPRMC,1', '<IGATE,MSG_CNT=1', '?APRS?', '{{experimental', 'x', '!', '!4903.50N/07201.75', '!9903.50N/07201.75W-', '$ULTW', '!!0000000001FF']) {
      const d = decodeAprs({ source: 'N0CALL', destination: 'APRS', path: [], info });
      assert.equal(d.kind, 'unparsed', `${JSON.stringify(info)} -> ${JSON.stringify(d)}`);
      assert.ok(d.kind === 'unparsed' && d.reason.length > 0 && !d.reason.includes('undefined'), d.kind === 'unparsed' ? d.reason : '');
    }
  });
  it('the info field ends at CR/LF; overlong fields are refused', () => {
    assert.deepEqual(line('N0CALL>APRS:>status\r\n'), { kind: 'status', text: 'status' });
    assert.deepEqual(decodeAprs({ source: 'A', destination: 'APRS', path: [], info: '>one\rtwo' }), { kind: 'status', text: 'one' });
    assert.equal(decodeAprs({ source: 'A', destination: 'APRS', path: [], info: '>' + 'x'.repeat(600) }).kind, 'unparsed');
  });
  it('non-object input never throws', () => {
    for (const p of [{}, null, undefined, { info: 5 }, { info: '!4903.50N/07201.75W-', destination: null }]) {
      assert.equal(decodeAprs(p as never).kind === 'unparsed' || decodeAprs(p as never).kind === 'position', true);
    }
  });
  it('decodeTnc2Line returns the pieces too', () => {
    const d = decodeTnc2Line('N0CALL-9>APRS,WIDE1-1,WIDE2-1:!4903.50N/07201.75W-Test 001234');
    assert.equal(d.kind, 'position');
    assert.deepEqual(d.packet, { source: 'N0CALL-9', destination: 'APRS', path: ['WIDE1-1', 'WIDE2-1'], info: '!4903.50N/07201.75W-Test 001234' });
    assert.deepEqual(decodeTnc2Line('no header here'), { kind: 'unparsed', reason: 'not a TNC2 line (SRC>DEST,PATH:info)', packet: null });
    assert.equal(parseTnc2Line('>APRS:x'), null);
    assert.equal(parseTnc2Line('N0CALL>:x'), null);
  });
});

describe('APRS decode: summarize', () => {
  const s = (l: string) => {
    const p = parseTnc2Line(l)!;
    return summarize(decodeAprs(p), p.info);
  };
  it('one short line per kind', () => {
    assert.equal(s('N0CALL-9>APRS,WIDE1-1,WIDE2-1:!4903.50N/07201.75W-Test 001234'), 'position 49.0583,-72.0292 Test 001234');
    assert.equal(s('N0CALL>T2SP0W,WIDE1-1:`c_Vm6hk/`"49}_%'), 'position 42.5012,-71.1263 22 km/h 276° 34 m');
    assert.equal(s('A>APRS::N0CALL   :hi{12'), 'msg to N0CALL: hi {12}');
    assert.equal(s('A>APRS::N0CALL   :hi'), 'msg to N0CALL: hi');
    assert.equal(s('A>APRS::N0CALL   :ack12'), 'ack to N0CALL {12}');
    assert.equal(s('A>APRS::N0CALL   :rej12'), 'rej to N0CALL {12}');
    assert.equal(s('A>APRS:>On the air'), 'status On the air');
    assert.equal(s('A>APRS:;LEADER   _092345z4903.50N/07201.75W>'), 'object LEADER (killed) 49.0583,-72.0292');
    assert.equal(s('A>APRS:)AID #2!4903.50N/07201.75WA'), 'item AID #2 49.0583,-72.0292');
    assert.equal(s('A>APRS:T#005,1'), 'unparsed (telemetry (not decoded)): T#005,1');
  });
  it('control and binary bytes are shown as dots; long text is clipped', () => {
    assert.equal(s('A>APRS:>bell\x07 and \xff'), 'status bell. and .');
    const long = s(`A>APRS:>${'x'.repeat(200)}`);
    assert.equal(long, `status ${'x'.repeat(79)}…`);
  });
});

describe('APRS decode: fuzz', () => {
  const real = [
    ['APRS', '!4903.50N/07201.75W-Test 001234'],
    ['APRS', '@092345z4903.50N/07201.75W>088/036/A=001234 moving'],
    ['APRS', '=/5L!!<*e7>7P[Compressed'],
    ['APRS', '!//zPHTfVv>!V_ Tero, Green Volvo 960, GGL-880|!!!!!!!!!!!!!!|'],
    ['T2SP0W', '`c_Vm6hk/`"49}_%'],
    ['TQ4W2V', '`c51!f?>/]"3x}='],
    ['SX15S6', "'I',l \x1C>/]"],
    ['APRS', ':WU2Z     :Testing{003'],
    ['APRS', ':KB2ICI-14:ack003'],
    ['APRS', '>092345zNet Control Center'],
    ['APRS', ';LEADER   *092345z4903.50N/07201.75W>088/036'],
    ['APRS', ';SRAL HQ  *100927zS0%E/Th4_a  AKaupinmaenpolku9'],
    ['APRS', ')AID #2!4903.50N/07201.75WA'],
    ['APRS', ')MOBIL!\\5L!!<*e79 sT'],
    ['APRS', '}WB4APR>APRS,TCPIP,KB2ICI*::N0CALL   :hello{12'],
    ['APRS', '@092345z4903.50N/07201.75W_090/000g000t066r000p000P000h50b09900wRSW'],
    ['APRS', '$ULTW0000000001FF0004'],
    ['APRS', '!!0000000001FF'],
    ['APRS', 'T#005,199,000,255,073,123,01101001'],
    ['GPSC32', '$GPRMC,145526,A,3349.0378,N,08406.2617,W,23.726,27.9,121207,4.9,W*7A'],
  ] as const;
  const KINDS = new Set(['position', 'message', 'ack', 'reject', 'status', 'object', 'item', 'unparsed']);
  let seed = 0x5eed;
  const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const byte = () => String.fromCharCode(Math.floor(rnd() * 256));

  function check(destination: string, info: string) {
    let d: AprsDecoded;
    try {
      d = decodeAprs({ source: 'N0CALL', destination, path: ['WIDE1-1'], info });
    } catch (e) {
      assert.fail(`threw on ${JSON.stringify(info)}: ${e}`);
    }
    assert.ok(KINDS.has(d.kind), `${JSON.stringify(info)} -> ${JSON.stringify(d)}`);
    if (d.kind === 'position') assert.ok(Math.abs(d.lat) <= 90 && Math.abs(d.lon) <= 180, JSON.stringify(info));
    assert.equal(typeof summarize(d, info), 'string');
  }

  it('every prefix of every real packet', () => {
    for (const [dest, info] of real) for (let n = 0; n <= info.length; n++) check(dest, info.slice(0, n));
  });

  it('20k random, mutated and truncated info fields (bytes 0x00-0xFF)', () => {
    for (let i = 0; i < 20_000; i++) {
      const [dest, base] = real[i % real.length];
      const m = rnd();
      let info: string;
      if (m < 0.4) {
        const a = base.split('');
        for (let k = 1 + Math.floor(rnd() * 4); k > 0; k--) a[Math.floor(rnd() * a.length)] = byte();
        info = a.join('').slice(0, Math.floor(rnd() * (a.length + 1)));
      } else if (m < 0.7) {
        info = base[0];
        for (let k = Math.floor(rnd() * 90); k > 0; k--) info += byte();
      } else {
        info = '';
        for (let k = Math.floor(rnd() * 90); k > 0; k--) info += byte();
      }
      // Mic-E latitude lives in the destination: fuzz that too.
      const d = rnd() < 0.2 ? Array.from({ length: Math.floor(rnd() * 9) }, byte).join('') : dest;
      check(d, info);
    }
  });
});
