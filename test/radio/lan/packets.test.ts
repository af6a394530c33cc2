import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  AUDIO_IDENT,
  AUDIO_IDENT_160,
  CIV_OPEN,
  CODEC,
  ERR_REFUSED,
  LOGIN_ERR_CREDENTIALS,
  PT,
  SIZE,
  TOKEN_REQ,
  decodeAudioStream,
  decodeCivStream,
  decodeCommon,
  decodeControlStream,
  encodeAudio,
  encodeCapabilities,
  encodeCiv,
  encodeConninfoReply,
  encodeConninfoRequest,
  encodeControl,
  encodeLogin,
  encodeLoginResponse,
  encodeOpenClose,
  encodePing,
  encodeRetransmitRequest,
  encodeStatus,
  encodeToken,
  makeId,
  maskAllows,
  pcmFromBytes,
  readHeader,
} from '../../../src/radio/lan/packets.js';
import { passcode } from '../../../src/radio/lan/passcode.js';

// Packet layouts against the offsets wfview's include/packettypes.h gives (checked here byte by
// byte, not only by round trip), and decoders that never throw on any input.

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const ids = { sentid: 0x0102a4b1, rcvdid: 0xcafe0001 };
const MAC_IDENT = (() => {
  const b = new Uint8Array(16);
  b[7] = 0x10;
  b[8] = 0x80; // commoncap 0x8010 LE
  b.set([0x00, 0x90, 0xc7, 0x0e, 0x86, 0x01], 10);
  return b;
})();

describe('passcode', () => {
  // Worked out from the table in wfview include/icomudpbase.h (passcode()); "beer"/"beerbeer"
  // are also the bytes kappanhang captured from a real IC-705 login.
  const vectors: Array<[string, string]> = [
    ['beer', '2b3f555c'],
    ['beerbeer', '2b3f555c3f257758'],
    ['admin', '38406a244d'],
    ['a', '38'],
    [' ', '47'],
    ['~~~~', '52475d4c'], // 126+i wraps to 32+…
    ['Passw0rd!', '5b2b5c447a7e367757'],
    ['satstation', '692b4444363f3b283131'],
    ['ABCDEFGHIJKLMNOPQR', '5e3e2c543a4f7579354856346c617b4b'], // only 16 characters count
    ['zzzzzzzzzzzzzzzz', '3b7a515f52475d4c42662023464e5745'],
  ];
  for (const [s, want] of vectors) {
    it(`encodes ${JSON.stringify(s)}`, () => {
      const got = passcode(s);
      assert.equal(got.length, 16);
      assert.equal(hex(got.subarray(0, want.length / 2)), want);
      assert.ok(got.subarray(want.length / 2).every((x) => x === 0), 'zero padded');
    });
  }
  it('maps control characters to 0 and never reads past the table', () => {
    assert.equal(hex(passcode('\x01\x05')).slice(0, 4), '0000');
    assert.equal(hex(passcode('\x01\x1f')).slice(0, 4), '0047'); // 0x1f + 1 is a space
    for (let c = 0; c < 256; c++) for (let i = 0; i < 16; i++) assert.ok(passcode(' '.repeat(i) + String.fromCharCode(c))[i] <= 0x7e);
  });
});

describe('LAN packets: layout', () => {
  it('control header: len, type, seq, sentid, rcvdid little-endian', () => {
    const b = encodeControl(PT.ARE_YOU_THERE, 0x1234, ids);
    assert.equal(hex(b), '10000000' + '0300' + '3412' + 'b1a40201' + '0100feca');
    assert.deepEqual(readHeader(b), { len: 16, type: 3, seq: 0x1234, sentid: ids.sentid, rcvdid: ids.rcvdid });
  });

  it('ping: reply flag at 0x10, time LE at 0x11', () => {
    const b = encodePing(7, ids, false, 0x01020304);
    assert.equal(b.length, 0x15);
    assert.equal(hex(b.subarray(0x10)), '0004030201');
    const r = decodeCommon(encodePing(7, ids, true, 99));
    assert.ok(r && r.kind === 'ping' && r.reply && r.time === 99 && r.h.seq === 7);
    // the radio sends its pings with len 0: still a ping
    const z = encodePing(3, ids, false, 5);
    z.fill(0, 0, 4);
    assert.equal(decodeCommon(z)?.kind, 'ping');
  });

  it('retransmit requests: one seq in the header, several as (seq,seq) pairs', () => {
    const one = encodeRetransmitRequest([0x0102], ids);
    assert.equal(one.length, 16);
    assert.equal(hex(one.subarray(4, 8)), '01000201');
    const many = encodeRetransmitRequest([5, 0x0106], ids);
    assert.equal(many.length, 0x10 + 8);
    assert.equal(hex(many.subarray(0, 4)), '18000000');
    assert.equal(hex(many.subarray(0x10)), '0500' + '0500' + '0601' + '0601');
    const d = decodeCommon(many);
    assert.ok(d && d.kind === 'retransmit');
    assert.deepEqual(d.seqs, [5, 5, 0x106, 0x106]);
    const d1 = decodeCommon(one);
    assert.ok(d1 && d1.kind === 'retransmit');
    assert.deepEqual(d1.seqs, [0x102]);
  });

  it('login (0x80): payload size BE, request 01/00, inner seq BE, tokrequest, passcoded user and password, name', () => {
    const b = encodeLogin(ids, { innerSeq: 0x30, tokRequest: 0xbeef, username: 'beer', password: 'beerbeer', name: 'satstation' });
    assert.equal(b.length, 0x80);
    assert.equal(hex(b.subarray(0x10, 0x18)), '00000070' + '01' + '00' + '0030');
    assert.equal(hex(b.subarray(0x1a, 0x1c)), 'efbe');
    assert.equal(hex(b.subarray(0x40, 0x44)), '2b3f555c');
    assert.equal(hex(b.subarray(0x50, 0x58)), '2b3f555c3f257758');
    assert.equal(Buffer.from(b.subarray(0x60, 0x6a)).toString(), 'satstation');
    const d = decodeControlStream(b);
    assert.ok(d && d.kind === 'login' && d.name === 'satstation' && d.a.innerSeq === 0x30 && d.a.tokRequest === 0xbeef);
  });

  it('login response (0x60): rejection is error ff ff ff fe; connection name at 0x40', () => {
    const no = encodeLoginResponse(ids, { error: LOGIN_ERR_CREDENTIALS, tokRequest: 1, token: 2 });
    assert.equal(hex(no.subarray(0x30, 0x34)), 'fffffffe');
    const ok = decodeControlStream(encodeLoginResponse(ids, { error: 0, tokRequest: 0x1234, token: 0xdeadbeef, connection: 'FTTH' }));
    assert.ok(ok && ok.kind === 'login_response');
    assert.equal(ok.error, 0);
    assert.equal(ok.a.token, 0xdeadbeef);
    assert.equal(ok.connection, 'FTTH');
    const bad = decodeControlStream(no);
    assert.ok(bad && bad.kind === 'login_response' && bad.error === LOGIN_ERR_CREDENTIALS);
  });

  it('token (0x40): request type at 0x15, resetcap 0x0798 BE at 0x24, response at 0x30', () => {
    const b = encodeToken(ids, { requestType: TOKEN_REQ.RENEW, innerSeq: 0x31, tokRequest: 0x0102, token: 0x0a0b0c0d });
    assert.equal(b.length, 0x40);
    assert.equal(hex(b.subarray(0x10, 0x20)), '00000030' + '01' + '05' + '0031' + '0000' + '0201' + '0d0c0b0a');
    assert.equal(hex(b.subarray(0x24, 0x26)), '0798');
    const r = decodeControlStream(encodeToken(ids, { requestType: TOKEN_REQ.RENEW, requestReply: 2, response: ERR_REFUSED }));
    assert.ok(r && r.kind === 'token' && r.a.requestReply === 2 && r.a.requestType === 5 && r.response === ERR_REFUSED);
  });

  it('status (0x50): error, disc flag, CI-V and audio ports big-endian at 0x42/0x46', () => {
    const b = encodeStatus(ids, { error: 0, civPort: 50002, audioPort: 50003 });
    assert.equal(hex(b.subarray(0x42, 0x48)), 'c352' + '0000' + 'c353');
    const d = decodeControlStream(b);
    assert.ok(d && d.kind === 'status' && d.civPort === 50002 && d.audioPort === 50003 && !d.disconnected && d.error === 0);
    const off = decodeControlStream(encodeStatus(ids, { error: 0, disconnected: true, civPort: 0, audioPort: 0 }));
    assert.ok(off && off.kind === 'status' && off.disconnected);
  });

  it('conninfo request (0x90): ident with MAC, radio name, user, codecs, rates/ports/buffer big-endian', () => {
    const b = encodeConninfoRequest(ids, {
      innerSeq: 0x32,
      tokRequest: 1,
      token: 2,
      ident: MAC_IDENT,
      radioName: 'IC-705',
      username: 'beer',
      rxEnable: true,
      txEnable: true,
      rxCodec: CODEC.PCM16_1CH,
      txCodec: CODEC.PCM16_1CH,
      rxSampleRate: 24000,
      txSampleRate: 24000,
      civPort: 0x1234,
      audioPort: 0x5678,
      txBufferMs: 150,
    });
    assert.equal(hex(b.subarray(0x10, 0x16)), '00000080' + '0103');
    assert.equal(hex(b.subarray(0x27, 0x30)), '1080' + '00' + '0090c70e8601');
    assert.equal(Buffer.from(b.subarray(0x40, 0x46)).toString(), 'IC-705');
    assert.equal(hex(b.subarray(0x60, 0x64)), '2b3f555c');
    assert.equal(hex(b.subarray(0x70, 0x89)), '01010404' + '00005dc0' + '00005dc0' + '00001234' + '00005678' + '00000096' + '01');
    const d = decodeControlStream(b);
    assert.ok(d && d.kind === 'conninfo');
    assert.equal(d.mac, '00:90:c7:0e:86:01');
    assert.equal(d.request.rxSampleRate, 24000);
    assert.equal(d.request.civPort, 0x1234);
  });

  it("conninfo from the radio: busy (LE at 0x60), computer name, client IP big-endian", () => {
    const b = encodeConninfoReply(ids, { ident: MAC_IDENT, name: 'IC-705', busy: 1, computer: 'OTHER-PC', ip: 0xc0a80303 });
    assert.equal(hex(b.subarray(0x84, 0x88)), 'c0a80303');
    const d = decodeControlStream(b);
    assert.ok(d && d.kind === 'conninfo' && d.busy === 1 && d.computer === 'OTHER-PC' && d.ip === 0xc0a80303 && d.name === 'IC-705');
  });

  it('capabilities (0x42 + 0x66 per radio): name, CI-V address, sample masks, baud rate BE', () => {
    const b = encodeCapabilities(ids, { radios: [{ ident: MAC_IDENT, name: 'IC-705', civAddr: 0xa4, rxSampleMask: 0xff01, txSampleMask: 0xff01, baudRate: 19200 }] });
    assert.equal(b.length, 0xa8);
    assert.equal(hex(b.subarray(0x40, 0x42)), '0001');
    assert.equal(b[0x42 + 0x52], 0xa4);
    assert.equal(hex(b.subarray(0x42 + 0x53, 0x42 + 0x57)), '01ff01ff');
    assert.equal(hex(b.subarray(0x42 + 0x5a, 0x42 + 0x5e)), '00004b00');
    const d = decodeControlStream(b);
    assert.ok(d && d.kind === 'capabilities' && d.count === 1);
    assert.equal(d.radios[0].name, 'IC-705');
    assert.equal(d.radios[0].mac, '00:90:c7:0e:86:01');
    assert.equal(d.radios[0].baudRate, 19200);
    assert.equal(maskAllows(d.radios[0].rxSampleMask, 24000), true);
    assert.equal(maskAllows(0x0800, 24000), false);
    assert.equal(maskAllows(0x0800, 48000), true);
  });

  it('kappanhang\'s captured IC-705 capabilities decode: IC-705 at CI-V a4, 19200 baud, every rate', () => {
    // controlstream.go: "Example answer from radio" for the 168-byte packet
    const cap = Buffer.from(
      'a8000000000002000113111838ff557d000000980202000700007f9100004f0d0000000000000000000000000000000000000000000000000000000000000000' +
        '0001938a01241764bc4ba3a013584104582d49432d373035000000000000000000000000000000000000000000000000000049434f4d5f56415544494f0000' +
        '000000000000000000000000000000000000003f3fa401ff01ff01010100004b00015000b80b000000',
      'hex',
    );
    assert.equal(cap.length, 0xa8);
    const d = decodeControlStream(cap);
    assert.ok(d && d.kind === 'capabilities');
    assert.equal(d.radios[0].name, 'IC-705');
    assert.equal(d.radios[0].audioName, 'ICOM_VAUDIO');
    assert.equal(d.radios[0].civAddr, 0xa4);
    assert.equal(d.radios[0].rxSampleMask, 0xff01);
    assert.equal(d.radios[0].baudRate, 19200);
    assert.equal(maskAllows(d.radios[0].txSampleMask, 24000), true);
  });

  it('CI-V data (0xc1, length LE, inner seq BE) and open/close (c0 01 … magic)', () => {
    const frame = Uint8Array.from([0xfe, 0xfe, 0xa4, 0xe0, 0x03, 0xfd]);
    const b = encodeCiv(ids, 0x0102, frame);
    assert.equal(hex(b.subarray(0x10, 0x15)), 'c1' + '0600' + '0102');
    const d = decodeCivStream(b);
    assert.ok(d && d.kind === 'civ' && d.civSeq === 0x102);
    assert.deepEqual([...d.data], [...frame]);
    const o = encodeOpenClose(ids, 3, CIV_OPEN);
    assert.equal(hex(o), '16000000' + '0000' + '0000' + 'b1a40201' + '0100feca' + 'c001' + '00' + '0003' + '04');
    const od = decodeCivStream(o);
    assert.ok(od && od.kind === 'openclose' && od.magic === CIV_OPEN && od.civSeq === 3);
    // a 1-byte CI-V packet has the open/close size: told apart by the 0xc1 mark
    const one = decodeCivStream(encodeCiv(ids, 0, Uint8Array.of(0xfd)));
    assert.equal(one?.kind, 'civ');
  });

  it('audio (0x18 header: ident, seq BE, length BE) with 16-bit little-endian samples', () => {
    const pcm = Int16Array.from([1, -2, 0x1234, -32768]);
    const b = encodeAudio(ids, 0x0203, pcm);
    assert.equal(hex(b.subarray(0x10, 0x18)), '8000' + '0203' + '0000' + '0008');
    assert.equal(hex(b.subarray(0x18)), '0100' + 'feff' + '3412' + '0080');
    const d = decodeAudioStream(b);
    assert.ok(d && d.kind === 'audio' && d.audioSeq === 0x203 && d.ident === AUDIO_IDENT);
    assert.deepEqual([...pcmFromBytes(d.data)], [...pcm]);
    // Unaligned bytes are copied, with the same samples.
    const odd = new Uint8Array(d.data.length + 1);
    odd.set(d.data, 1);
    assert.deepEqual([...pcmFromBytes(odd.subarray(1))], [...pcm]);
    const b160 = encodeAudio(ids, 0, new Int16Array(80));
    assert.equal(decodeAudioStream(b160)?.kind === 'audio' && (decodeAudioStream(b160) as { ident: number }).ident, AUDIO_IDENT_160);
  });

  it('makes ids from the local IPv4 address and port as wfview does', () => {
    assert.equal(makeId('192.168.3.7', 50001), ((3 << 24) | (7 << 16) | 50001) >>> 0);
    assert.equal(makeId('127.0.0.1', 0x1234), 0x00011234);
  });
});

describe('LAN packets: decoders never throw', () => {
  const decoders = { decodeCommon, decodeControlStream, decodeCivStream, decodeAudioStream };
  let state = 12345;
  const rnd = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 8;
  };
  const valid = [
    encodeControl(PT.I_AM_HERE, 1, ids),
    encodePing(1, ids, true, 5),
    encodeRetransmitRequest([1, 2, 3], ids),
    encodeLogin(ids, { username: 'u', password: 'p', name: 'n' }),
    encodeLoginResponse(ids, { error: 0 }),
    encodeToken(ids, { requestType: 2 }),
    encodeStatus(ids, { error: 0, civPort: 1, audioPort: 2 }),
    encodeConninfoReply(ids, { name: 'x', busy: 0 }),
    encodeCapabilities(ids, { radios: [{ ident: MAC_IDENT, name: 'r', civAddr: 1, rxSampleMask: 1, txSampleMask: 1 }] }),
    encodeCiv(ids, 1, Uint8Array.of(0xfe, 0xfe, 0xfd)),
    encodeOpenClose(ids, 1, 0),
    encodeAudio(ids, 1, new Int16Array(480)),
  ];

  it('on every truncation of every packet kind', () => {
    for (const p of valid) for (let n = 0; n <= p.length; n++) for (const d of Object.values(decoders)) d(p.subarray(0, n));
  });

  it('on 20 000 random buffers, some with plausible headers', () => {
    for (let i = 0; i < 20_000; i++) {
      const len = rnd() % 300;
      const b = new Uint8Array(len);
      for (let j = 0; j < len; j++) b[j] = rnd() & 0xff;
      if (len >= 8 && i % 2 === 0) {
        b[0] = len & 0xff;
        b[1] = b[2] = b[3] = 0;
        b[4] = [0, 1, 3, 4, 5, 6, 7][rnd() % 7];
        b[5] = 0;
      }
      for (const d of Object.values(decoders)) {
        const r = d(b);
        if (r !== null) assert.equal(typeof r.kind, 'string');
      }
    }
  });

  it('on things that are not byte arrays', () => {
    for (const x of [null, undefined, 5, 'abc', {}, [1, 2, 3], new ArrayBuffer(32)] as unknown[]) for (const d of Object.values(decoders)) assert.equal(d(x as Uint8Array), null);
  });

  it('tells packet kinds apart by stream (a 64-byte CI-V packet is not a token)', () => {
    const civ64 = encodeCiv(ids, 0, new Uint8Array(SIZE.TOKEN - SIZE.CIV_HEADER).fill(1));
    assert.equal(civ64.length, SIZE.TOKEN);
    assert.equal(decodeCivStream(civ64)?.kind, 'civ');
    assert.equal(decodeControlStream(civ64)?.kind, 'token');
    assert.equal(decodeAudioStream(civ64)?.kind, 'audio');
  });
});
