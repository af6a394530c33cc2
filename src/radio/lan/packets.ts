// The Icom network ("LAN", RS-BA1) protocol's packets, as the IC-705/IC-9700 and wfview speak
// them (wfview include/packettypes.h; cross-checked against kappanhang and icom-wlan-node).
// Pure: encoders write into a buffer (or return a new one), decoders take any bytes and return a
// typed packet or null, and never throw.
//
// Every packet starts with the same 16-byte header:
//   0x00 len u32 LE · 0x04 type u16 LE · 0x06 seq u16 LE · 0x08 sentid u32 LE · 0x0c rcvdid u32 LE
// The ids are opaque: each side makes its own from its IP address and port and learns the
// other's from the "I am here" answer; we write both little-endian as wfview does (kappanhang
// writes them big-endian, which gives the same bytes since it echoes what it read).
// Packets are recognised by datagram length first (as wfview does), so the decoders are per
// stream: a 64-byte CI-V packet must not be taken for a token packet.
//
// Byte order inside the bodies is mixed, and that is a fact of the protocol, not a choice:
// little-endian for the header, the CI-V data length, tokrequest/token (opaque: echoed), error
// codes and the radio's sample-rate masks; big-endian for payloadsize, innerseq, the CI-V and
// audio inner sequence numbers, the audio data length, ports, sample rates, tx buffer, baud
// rate, numradios and the client IP address.

import { PASSCODE_LEN, passcode } from './passcode.js';

/** Header types. */
export const PT = {
  /** A tracked packet: idle (16 bytes) or any data packet (login, CI-V, audio...). */
  DATA: 0x00,
  /** Retransmit request: 16 bytes for one seq (in the header), longer for a list. */
  RETRANSMIT: 0x01,
  ARE_YOU_THERE: 0x03,
  I_AM_HERE: 0x04,
  DISCONNECT: 0x05,
  /** "Are you ready" from the client, "I am ready" from the radio. */
  ARE_YOU_READY: 0x06,
  PING: 0x07,
} as const;

export const SIZE = {
  HEADER: 0x10,
  CONTROL: 0x10,
  PING: 0x15,
  OPENCLOSE: 0x16,
  RETRANSMIT_RANGE: 0x18,
  TOKEN: 0x40,
  STATUS: 0x50,
  LOGIN_RESPONSE: 0x60,
  LOGIN: 0x80,
  CONNINFO: 0x90,
  CAPABILITIES: 0x42,
  RADIO_CAP: 0x66,
  CIV_HEADER: 0x15,
  AUDIO_HEADER: 0x18,
} as const;

/** Token packet request types (byte 0x15). */
export const TOKEN_REQ = {
  /** Token removal: sent on disconnect, releases the radio. */
  REMOVE: 0x01,
  /** Token confirm: sent once after the login answer. */
  CONFIRM: 0x02,
  /** Close the CI-V/audio streams but keep the login. */
  STREAM_CLOSE: 0x04,
  /** Token renewal, every 60 s. */
  RENEW: 0x05,
} as const;

/** Auth-body request types besides the token's: login 0x00, conninfo/status 0x03, capabilities 0x02. */
export const REQ = { LOGIN: 0x00, CAPABILITIES: 0x02, STREAM: 0x03 } as const;
/** Auth-body direction byte (0x14): 0x01 from the client, 0x02 a reply from the radio (0x03 its conninfo). */
export const DIR = { REQUEST: 0x01, REPLY: 0x02, CONNINFO: 0x03 } as const;

/** Audio codecs (conninfo rxcodec/txcodec), as wfview names them. */
export const CODEC = {
  ULAW_1CH: 0x01,
  PCM8_1CH: 0x02,
  /** 16-bit signed linear PCM, mono, little-endian samples: what we use both ways. */
  PCM16_1CH: 0x04,
  PCM8_2CH: 0x08,
  PCM16_2CH: 0x10,
  ULAW_2CH: 0x20,
  OPUS_1CH: 0x40,
  OPUS_2CH: 0x41,
  ADPCM_1CH: 0x80,
} as const;

/** Login answer error (LE u32 at 0x30; bytes ff ff ff fe): wrong user name or password. */
export const LOGIN_ERR_CREDENTIALS = 0xfeffffff;
/** Status / token answer error (all ones): refused (stream in use, token rejected). */
export const ERR_REFUSED = 0xffffffff;
/** commoncap value that says the 16-byte radio ident is a MAC address (at +0x0a), not a GUID. */
export const COMMONCAP_MAC = 0x8010;
/** CI-V data packets carry 0xc1 at 0x10; the open/close packet 0xc0 0x01. */
export const CIV_MARK = 0xc1;
export const OPENCLOSE_MARK = 0x01c0;
export const CIV_OPEN = 0x04;
export const CIV_CLOSE = 0x00;
/** Audio ident (LE u16 at 0x10): 0x0080 for every packet but 160-byte ones (0x9781). */
export const AUDIO_IDENT = 0x0080;
export const AUDIO_IDENT_160 = 0x9781;
/** What wfview's token packets put at 0x24 (big-endian). */
export const TOKEN_RESETCAP = 0x0798;

// ---------------------------------------------------------------------------------------------
// Byte helpers (no DataView: nothing to allocate, and bounds are checked by the callers)

const u16le = (b: Uint8Array, o: number) => b[o] | (b[o + 1] << 8);
const u16be = (b: Uint8Array, o: number) => (b[o] << 8) | b[o + 1];
const u32le = (b: Uint8Array, o: number) => (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
const u32be = (b: Uint8Array, o: number) => ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
function w16le(b: Uint8Array, o: number, v: number): void {
  b[o] = v & 0xff;
  b[o + 1] = (v >>> 8) & 0xff;
}
function w16be(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 8) & 0xff;
  b[o + 1] = v & 0xff;
}
function w32le(b: Uint8Array, o: number, v: number): void {
  b[o] = v & 0xff;
  b[o + 1] = (v >>> 8) & 0xff;
  b[o + 2] = (v >>> 16) & 0xff;
  b[o + 3] = (v >>> 24) & 0xff;
}
function w32be(b: Uint8Array, o: number, v: number): void {
  b[o] = (v >>> 24) & 0xff;
  b[o + 1] = (v >>> 16) & 0xff;
  b[o + 2] = (v >>> 8) & 0xff;
  b[o + 3] = v & 0xff;
}

/** A NUL-terminated string from a fixed field (Latin-1, as the radio's names are ASCII). */
function cstr(b: Uint8Array, o: number, n: number): string {
  let s = '';
  for (let i = o; i < o + n && i < b.length; i++) {
    if (b[i] === 0) break;
    s += String.fromCharCode(b[i]);
  }
  return s;
}
/** Writes s (UTF-8, truncated to leave a NUL) into a zeroed fixed field. */
function wstr(b: Uint8Array, o: number, n: number, s: string): void {
  const bytes = new TextEncoder().encode(s);
  b.fill(0, o, o + n);
  b.set(bytes.subarray(0, n - 1), o);
}

export const formatMac = (b: Uint8Array, o = 0) => Array.from(b.subarray(o, o + 6), (x) => x.toString(16).padStart(2, '0')).join(':');
export const formatIp = (v: number) => `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;

// ---------------------------------------------------------------------------------------------
// Header

export interface Header {
  len: number;
  type: number;
  seq: number;
  sentid: number;
  rcvdid: number;
}

export function readHeader(b: Uint8Array): Header | null {
  if (!(b instanceof Uint8Array) || b.length < SIZE.HEADER) return null;
  return { len: u32le(b, 0), type: u16le(b, 4), seq: u16le(b, 6), sentid: u32le(b, 8), rcvdid: u32le(b, 12) };
}

/** Writes the 16-byte header at the start of out. */
export function writeHeader(out: Uint8Array, len: number, type: number, seq: number, sentid: number, rcvdid: number): void {
  w32le(out, 0, len);
  w16le(out, 4, type);
  w16le(out, 6, seq);
  w32le(out, 8, sentid);
  w32le(out, 12, rcvdid);
}

/** Rewrites the seq of an encoded packet (tracked packets get theirs when sent). */
export function setSeq(out: Uint8Array, seq: number): void {
  w16le(out, 6, seq);
}

/** Our id, as wfview and kappanhang make it: the local IPv4 address's last two bytes, then the port. */
export function makeId(localAddress: string, localPort: number): number {
  const parts = localAddress.split('.').map((x) => Number(x));
  let a = 0;
  let b = 0;
  if (parts.length === 4 && parts.every((x) => Number.isInteger(x) && x >= 0 && x <= 255)) {
    a = parts[2];
    b = parts[3];
  } else {
    // IPv6 (or anything else): the last two bytes of what we have, still unique per port
    const hex = localAddress.replace(/[^0-9a-f]/gi, '').padStart(4, '0');
    a = parseInt(hex.slice(-4, -2), 16) || 0;
    b = parseInt(hex.slice(-2), 16) || 0;
  }
  return ((a << 24) | (b << 16) | (localPort & 0xffff)) >>> 0;
}

// ---------------------------------------------------------------------------------------------
// Decoded packets

/** The fields every auth-style (control stream) packet has from 0x10 to 0x1f. */
export interface AuthBody {
  payloadSize: number;
  requestReply: number;
  requestType: number;
  innerSeq: number;
  tokRequest: number;
  token: number;
}

export interface RadioCap {
  /** The 16 bytes that identify the radio in later packets (a GUID, or commoncap + MAC). */
  ident: Uint8Array;
  /** aa:bb:cc:dd:ee:ff when the ident is a MAC (commoncap 0x8010), else null. */
  mac: string | null;
  name: string;
  audioName: string;
  connType: number;
  civAddr: number;
  /** The radio's sample-rate masks as it sends them (LE u16), see SAMPLE_RATE_BITS. */
  rxSampleMask: number;
  txSampleMask: number;
  enableA: number;
  baudRate: number;
}

export type LanPacket =
  /** 16 bytes: idle (type 0), are you there (3), I am here (4), disconnect (5), are you / I am ready (6). */
  | { kind: 'control'; h: Header }
  | { kind: 'ping'; h: Header; reply: boolean; time: number }
  /** type 1: one seq (16 bytes, in the header) or a list of u16 LE seqs after the header. */
  | { kind: 'retransmit'; h: Header; seqs: number[] }
  | { kind: 'token'; h: Header; a: AuthBody; ident: Uint8Array; response: number }
  | { kind: 'status'; h: Header; a: AuthBody; ident: Uint8Array; error: number; disconnected: boolean; civPort: number; audioPort: number }
  | { kind: 'login_response'; h: Header; a: AuthBody; error: number; connection: string }
  | { kind: 'login'; h: Header; a: AuthBody; username: Uint8Array; password: Uint8Array; name: string }
  | { kind: 'conninfo'; h: Header; a: AuthBody; ident: Uint8Array; mac: string | null; name: string; busy: number; computer: string; ip: number; request: ConninfoRequestFields }
  | { kind: 'capabilities'; h: Header; a: AuthBody; count: number; radios: RadioCap[] }
  | { kind: 'civ'; h: Header; civSeq: number; data: Uint8Array }
  | { kind: 'openclose'; h: Header; civSeq: number; magic: number }
  | { kind: 'audio'; h: Header; ident: number; audioSeq: number; data: Uint8Array }
  /** Any other tracked packet: it still takes a sequence number. */
  | { kind: 'data'; h: Header };

/** The client's view of the conninfo bytes from 0x60 (the same bytes as busy/computer/ip). */
export interface ConninfoRequestFields {
  username: Uint8Array;
  rxEnable: number;
  txEnable: number;
  rxCodec: number;
  txCodec: number;
  rxSampleRate: number;
  txSampleRate: number;
  civPort: number;
  audioPort: number;
  txBufferMs: number;
  convert: number;
}

function auth(b: Uint8Array): AuthBody {
  return { payloadSize: u32be(b, 0x10), requestReply: b[0x14], requestType: b[0x15], innerSeq: u16be(b, 0x16), tokRequest: u16le(b, 0x1a), token: u32le(b, 0x1c) };
}

function identMac(ident: Uint8Array): string | null {
  return ident.length >= 16 && u16le(ident, 7) === COMMONCAP_MAC ? formatMac(ident, 10) : null;
}

/** Packets every stream shares: control (16 bytes), ping, retransmit requests. */
export function decodeCommon(b: Uint8Array): LanPacket | null {
  const h = readHeader(b);
  if (!h) return null;
  if (h.type === PT.RETRANSMIT) {
    if (b.length === SIZE.CONTROL) return { kind: 'retransmit', h, seqs: [h.seq] };
    if ((b.length - SIZE.HEADER) % 2 !== 0) return null;
    const seqs: number[] = [];
    for (let o = SIZE.HEADER; o + 1 < b.length; o += 2) seqs.push(u16le(b, o));
    return { kind: 'retransmit', h, seqs };
  }
  // A ping's len field may be 0 when the radio sends it: recognised by size and type only.
  if (b.length === SIZE.PING && h.type === PT.PING) return { kind: 'ping', h, reply: b[0x10] === 0x01, time: u32le(b, 0x11) };
  if (b.length === SIZE.CONTROL) return { kind: 'control', h };
  return null;
}

/** The control stream (port 50001): common packets plus login, token, status, conninfo, capabilities. */
export function decodeControlStream(b: Uint8Array): LanPacket | null {
  try {
    const c = decodeCommon(b);
    if (c) return c;
    const h = readHeader(b);
    if (!h || h.type === PT.PING) return null;
    switch (b.length) {
      case SIZE.TOKEN:
        return { kind: 'token', h, a: auth(b), ident: b.slice(0x20, 0x30), response: u32le(b, 0x30) };
      case SIZE.STATUS:
        return {
          kind: 'status',
          h,
          a: auth(b),
          ident: b.slice(0x20, 0x30),
          error: u32le(b, 0x30),
          disconnected: b[0x40] === 0x01,
          civPort: u16be(b, 0x42),
          audioPort: u16be(b, 0x46),
        };
      case SIZE.LOGIN_RESPONSE:
        return { kind: 'login_response', h, a: auth(b), error: u32le(b, 0x30), connection: cstr(b, 0x40, 16) };
      case SIZE.LOGIN:
        return { kind: 'login', h, a: auth(b), username: b.slice(0x40, 0x50), password: b.slice(0x50, 0x60), name: cstr(b, 0x60, 16) };
      case SIZE.CONNINFO: {
        const ident = b.slice(0x20, 0x30);
        return {
          kind: 'conninfo',
          h,
          a: auth(b),
          ident,
          mac: identMac(ident),
          name: cstr(b, 0x40, 32),
          busy: u32le(b, 0x60),
          computer: cstr(b, 0x64, 16),
          ip: u32be(b, 0x84),
          request: {
            username: b.slice(0x60, 0x70),
            rxEnable: b[0x70],
            txEnable: b[0x71],
            rxCodec: b[0x72],
            txCodec: b[0x73],
            rxSampleRate: u32be(b, 0x74),
            txSampleRate: u32be(b, 0x78),
            civPort: u32be(b, 0x7c),
            audioPort: u32be(b, 0x80),
            txBufferMs: u32be(b, 0x84),
            convert: b[0x88],
          },
        };
      }
    }
    if (b.length > SIZE.CAPABILITIES && (b.length - SIZE.CAPABILITIES) % SIZE.RADIO_CAP === 0) {
      const radios: RadioCap[] = [];
      for (let o = SIZE.CAPABILITIES; o + SIZE.RADIO_CAP <= b.length; o += SIZE.RADIO_CAP) {
        const ident = b.slice(o, o + 16);
        radios.push({
          ident,
          mac: identMac(ident),
          name: cstr(b, o + 0x10, 32),
          audioName: cstr(b, o + 0x30, 32),
          connType: u16le(b, o + 0x50),
          civAddr: b[o + 0x52],
          rxSampleMask: u16le(b, o + 0x53),
          txSampleMask: u16le(b, o + 0x55),
          enableA: b[o + 0x57],
          baudRate: u32be(b, o + 0x5a),
        });
      }
      return { kind: 'capabilities', h, a: auth(b), count: u16be(b, 0x40), radios };
    }
    return h.type === PT.DATA ? { kind: 'data', h } : null;
  } catch {
    return null; // unreachable by construction; a decoder never throws
  }
}

/** The CI-V stream (radio port 50002): common packets plus CI-V data and open/close. */
export function decodeCivStream(b: Uint8Array): LanPacket | null {
  const c = decodeCommon(b);
  if (c) return c;
  const h = readHeader(b);
  if (!h || h.type === PT.PING) return null;
  if (b.length > SIZE.CIV_HEADER && b[0x10] === CIV_MARK && u16le(b, 0x11) + SIZE.CIV_HEADER === b.length) {
    return { kind: 'civ', h, civSeq: u16be(b, 0x13), data: b.subarray(SIZE.CIV_HEADER) };
  }
  if (b.length === SIZE.OPENCLOSE && u16le(b, 0x10) === OPENCLOSE_MARK) return { kind: 'openclose', h, civSeq: u16be(b, 0x13), magic: b[0x15] };
  return h.type === PT.DATA ? { kind: 'data', h } : null;
}

/** The audio stream (radio port 50003): common packets plus audio (0x18 header, then PCM). */
export function decodeAudioStream(b: Uint8Array): LanPacket | null {
  const c = decodeCommon(b);
  if (c) return c;
  const h = readHeader(b);
  if (!h || h.type === PT.PING) return null;
  if (b.length > SIZE.AUDIO_HEADER && h.type === PT.DATA) {
    // datalen (BE at 0x16) should be the rest; wfview takes the rest whatever it says
    const declared = u16be(b, 0x16);
    const n = declared > 0 && declared < b.length - SIZE.AUDIO_HEADER ? declared : b.length - SIZE.AUDIO_HEADER;
    return { kind: 'audio', h, ident: u16le(b, 0x10), audioSeq: u16be(b, 0x12), data: b.subarray(SIZE.AUDIO_HEADER, SIZE.AUDIO_HEADER + n) };
  }
  return h.type === PT.DATA ? { kind: 'data', h } : null;
}

// ---------------------------------------------------------------------------------------------
// Encoders. Each returns the packet; seq is 0 unless given (tracked packets get theirs on send).

export interface Ids {
  sentid: number;
  rcvdid: number;
}

export function encodeControl(type: number, seq: number, ids: Ids): Uint8Array {
  const b = new Uint8Array(SIZE.CONTROL);
  writeHeader(b, SIZE.CONTROL, type, seq, ids.sentid, ids.rcvdid);
  return b;
}

/** A ping (reply false, time = our clock) or the answer to one (reply true, its seq and time echoed). */
export function encodePing(seq: number, ids: Ids, reply: boolean, time: number, out: Uint8Array = new Uint8Array(SIZE.PING)): Uint8Array {
  writeHeader(out, SIZE.PING, PT.PING, seq, ids.sentid, ids.rcvdid);
  out[0x10] = reply ? 0x01 : 0x00;
  w32le(out, 0x11, time >>> 0);
  return out;
}

/**
 * A retransmit request: one seq in a 16-byte control packet, several as a list after the
 * header. wfview writes each missing seq twice (a pair a,a), which reads the same whether the
 * radio takes the list as single seqs or as first,last ranges; we do the same.
 */
export function encodeRetransmitRequest(seqs: readonly number[], ids: Ids): Uint8Array {
  if (seqs.length === 1) return encodeControl(PT.RETRANSMIT, seqs[0] & 0xffff, ids);
  const b = new Uint8Array(SIZE.HEADER + seqs.length * 4);
  writeHeader(b, b.length, PT.RETRANSMIT, 0, ids.sentid, ids.rcvdid);
  seqs.forEach((s, i) => {
    w16le(b, SIZE.HEADER + i * 4, s);
    w16le(b, SIZE.HEADER + i * 4 + 2, s);
  });
  return b;
}

export interface AuthFields {
  requestReply?: number;
  requestType?: number;
  innerSeq?: number;
  tokRequest?: number;
  token?: number;
}

function writeAuth(b: Uint8Array, f: AuthFields, defaults: { requestReply: number; requestType: number }): void {
  w32be(b, 0x10, b.length - SIZE.HEADER);
  b[0x14] = f.requestReply ?? defaults.requestReply;
  b[0x15] = f.requestType ?? defaults.requestType;
  w16be(b, 0x16, f.innerSeq ?? 0);
  w16le(b, 0x1a, f.tokRequest ?? 0);
  w32le(b, 0x1c, f.token ?? 0);
}

function authPacket(size: number, ids: Ids, f: AuthFields, defaults: { requestReply: number; requestType: number }): Uint8Array {
  const b = new Uint8Array(size);
  writeHeader(b, size, PT.DATA, 0, ids.sentid, ids.rcvdid);
  writeAuth(b, f, defaults);
  return b;
}

/** 16 bytes identifying the radio: a GUID, or commoncap 0x8010 at +7 and the MAC at +10. */
function writeIdent(b: Uint8Array, o: number, ident: Uint8Array | undefined): void {
  if (!ident) return;
  if (identMac(ident) !== null) {
    b.fill(0, o, o + 16);
    w16le(b, o + 7, COMMONCAP_MAC);
    b.set(ident.subarray(10, 16), o + 10);
  } else b.set(ident.subarray(0, 16), o);
}

export function encodeLogin(ids: Ids, f: AuthFields & { username: string; password: string; name: string }): Uint8Array {
  const b = authPacket(SIZE.LOGIN, ids, f, { requestReply: DIR.REQUEST, requestType: REQ.LOGIN });
  passcode(f.username, b, 0x40);
  passcode(f.password, b, 0x50);
  wstr(b, 0x60, 16, f.name);
  return b;
}

/** The client's token request (confirm, renew, remove), or the radio's answer (requestReply 2, response). */
export function encodeToken(ids: Ids, f: AuthFields & { requestType: number; ident?: Uint8Array; response?: number; resetcap?: boolean }): Uint8Array {
  const b = authPacket(SIZE.TOKEN, ids, f, { requestReply: DIR.REQUEST, requestType: f.requestType });
  writeIdent(b, 0x20, f.ident);
  if (f.resetcap ?? (f.requestReply ?? DIR.REQUEST) === DIR.REQUEST) w16be(b, 0x24, TOKEN_RESETCAP);
  w32le(b, 0x30, f.response ?? 0);
  return b;
}

export function encodeLoginResponse(ids: Ids, f: AuthFields & { error: number; connection?: string }): Uint8Array {
  const b = authPacket(SIZE.LOGIN_RESPONSE, ids, f, { requestReply: DIR.REQUEST, requestType: REQ.LOGIN });
  w32le(b, 0x30, f.error);
  if (f.connection) wstr(b, 0x40, 16, f.connection);
  return b;
}

export function encodeStatus(ids: Ids, f: AuthFields & { ident?: Uint8Array; error: number; disconnected?: boolean; civPort: number; audioPort: number }): Uint8Array {
  const b = authPacket(SIZE.STATUS, ids, f, { requestReply: DIR.REPLY, requestType: REQ.STREAM });
  writeIdent(b, 0x20, f.ident);
  w32le(b, 0x30, f.error);
  b[0x40] = f.disconnected ? 0x01 : 0x00;
  w16be(b, 0x42, f.civPort);
  w16be(b, 0x46, f.audioPort);
  return b;
}

export interface ConninfoRequest {
  ident?: Uint8Array;
  /** The radio's name, as its capabilities gave it. */
  radioName: string;
  username: string;
  rxEnable: boolean;
  txEnable: boolean;
  rxCodec: number;
  txCodec: number;
  rxSampleRate: number;
  txSampleRate: number;
  /** Our local UDP ports for the CI-V and audio streams. */
  civPort: number;
  audioPort: number;
  txBufferMs: number;
}

/** The client's stream request: which codec and rate, and where our CI-V and audio sockets are. */
export function encodeConninfoRequest(ids: Ids, f: AuthFields & ConninfoRequest): Uint8Array {
  const b = authPacket(SIZE.CONNINFO, ids, f, { requestReply: DIR.REQUEST, requestType: REQ.STREAM });
  writeIdent(b, 0x20, f.ident);
  wstr(b, 0x40, 32, f.radioName);
  passcode(f.username, b, 0x60);
  b[0x70] = f.rxEnable ? 1 : 0;
  b[0x71] = f.txEnable ? 1 : 0;
  b[0x72] = f.rxCodec;
  b[0x73] = f.txCodec;
  w32be(b, 0x74, f.rxSampleRate);
  w32be(b, 0x78, f.txSampleRate);
  w32be(b, 0x7c, f.civPort);
  w32be(b, 0x80, f.audioPort);
  w32be(b, 0x84, f.txBufferMs);
  b[0x88] = 0x01; // "convert", always 1 from wfview
  return b;
}

/** The radio's conninfo: which radio, and whether (and by whom) it is in use. */
export function encodeConninfoReply(ids: Ids, f: AuthFields & { ident?: Uint8Array; name: string; busy: number; computer?: string; ip?: number }): Uint8Array {
  const b = authPacket(SIZE.CONNINFO, ids, f, { requestReply: DIR.CONNINFO, requestType: REQ.LOGIN });
  writeIdent(b, 0x20, f.ident);
  wstr(b, 0x40, 32, f.name);
  w32le(b, 0x60, f.busy);
  if (f.computer) wstr(b, 0x64, 16, f.computer);
  w32be(b, 0x84, f.ip ?? 0);
  return b;
}

export interface RadioCapFields {
  ident: Uint8Array;
  name: string;
  audioName?: string;
  connType?: number;
  civAddr: number;
  rxSampleMask: number;
  txSampleMask: number;
  enableA?: number;
  baudRate?: number;
}

export function encodeCapabilities(ids: Ids, f: AuthFields & { radios: RadioCapFields[] }): Uint8Array {
  const b = new Uint8Array(SIZE.CAPABILITIES + f.radios.length * SIZE.RADIO_CAP);
  writeHeader(b, b.length, PT.DATA, 0, ids.sentid, ids.rcvdid);
  writeAuth(b, f, { requestReply: DIR.REPLY, requestType: REQ.CAPABILITIES });
  w16be(b, 0x40, f.radios.length);
  f.radios.forEach((r, i) => {
    const o = SIZE.CAPABILITIES + i * SIZE.RADIO_CAP;
    writeIdent(b, o, r.ident);
    wstr(b, o + 0x10, 32, r.name);
    wstr(b, o + 0x30, 32, r.audioName ?? 'ICOM_VAUDIO');
    w16le(b, o + 0x50, r.connType ?? 0x0707);
    b[o + 0x52] = r.civAddr;
    w16le(b, o + 0x53, r.rxSampleMask);
    w16le(b, o + 0x55, r.txSampleMask);
    b[o + 0x57] = r.enableA ?? 0x01;
    b[o + 0x58] = 0x01;
    b[o + 0x59] = 0x01;
    w32be(b, o + 0x5a, r.baudRate ?? 115200);
  });
  return b;
}

/** CI-V bytes in one packet: 0xc1, data length (LE), the inner send seq (BE), then the bytes. */
export function civPacketLength(n: number): number {
  return SIZE.CIV_HEADER + n;
}
export function writeCivPacket(out: Uint8Array, ids: Ids, civSeq: number, data: Uint8Array, from = 0, to = data.length): number {
  const n = to - from;
  const len = SIZE.CIV_HEADER + n;
  writeHeader(out, len, PT.DATA, 0, ids.sentid, ids.rcvdid);
  out[0x10] = CIV_MARK;
  w16le(out, 0x11, n);
  w16be(out, 0x13, civSeq);
  out.set(data.subarray(from, to), SIZE.CIV_HEADER);
  return len;
}
export function encodeCiv(ids: Ids, civSeq: number, data: Uint8Array): Uint8Array {
  const b = new Uint8Array(SIZE.CIV_HEADER + data.length);
  writeCivPacket(b, ids, civSeq, data);
  return b;
}

/** CI-V stream open (magic 0x04) or close (0x00). */
export function encodeOpenClose(ids: Ids, civSeq: number, magic: number): Uint8Array {
  const b = new Uint8Array(SIZE.OPENCLOSE);
  writeHeader(b, SIZE.OPENCLOSE, PT.DATA, 0, ids.sentid, ids.rcvdid);
  w16le(b, 0x10, OPENCLOSE_MARK);
  w16be(b, 0x13, civSeq);
  b[0x15] = magic;
  return b;
}

export const audioPacketLength = (samples: number) => SIZE.AUDIO_HEADER + samples * 2;

/**
 * One audio packet into out (which has room for audioPacketLength): the 0x18 header, then the
 * samples as 16-bit little-endian. A loop, no views: no allocation on the audio path.
 */
export function writeAudioPacket(out: Uint8Array, ids: Ids, audioSeq: number, pcm: Int16Array, from: number, to: number): number {
  const bytes = (to - from) * 2;
  const len = SIZE.AUDIO_HEADER + bytes;
  writeHeader(out, len, PT.DATA, 0, ids.sentid, ids.rcvdid);
  w16le(out, 0x10, bytes === 0xa0 ? AUDIO_IDENT_160 : AUDIO_IDENT);
  w16be(out, 0x12, audioSeq);
  w16le(out, 0x14, 0);
  w16be(out, 0x16, bytes);
  let o = SIZE.AUDIO_HEADER;
  for (let i = from; i < to; i++) {
    const s = pcm[i];
    out[o++] = s & 0xff;
    out[o++] = (s >> 8) & 0xff;
  }
  return len;
}
export function encodeAudio(ids: Ids, audioSeq: number, pcm: Int16Array): Uint8Array {
  const b = new Uint8Array(audioPacketLength(pcm.length));
  writeAudioPacket(b, ids, audioSeq, pcm, 0, pcm.length);
  return b;
}

/** 16-bit LE samples (an odd trailing byte is dropped) into a new Int16Array. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * 16-bit LE samples as an Int16Array: a view of the same bytes where the host is little-endian
 * and the data 2-byte aligned (every target: x64, arm64, armv7), else a copy. Receive audio is 50
 * packets a second: no allocation and no conversion loop per packet.
 */
export function pcmFromBytes(data: Uint8Array): Int16Array {
  const n = data.length >> 1;
  if (LITTLE_ENDIAN_HOST && (data.byteOffset & 1) === 0) return new Int16Array(data.buffer, data.byteOffset, n);
  const out = new Int16Array(n);
  for (let i = 0, o = 0; i < n; i++, o += 2) out[i] = (data[o] | (data[o + 1] << 8)) << 16 >> 16;
  return out;
}

/**
 * The sample-rate mask bits the radio advertises (wfview icomserver.cpp): high byte 0x80 12 k,
 * 0x40 44.1 k, 0x20 22.05 k, 0x10 11.025 k, 0x08 48 k, 0x04 32 k, 0x02 16 k, 0x01 8 k; low
 * byte 0x01 24 k. The IC-705 sends 0xff01: all of them.
 */
export const SAMPLE_RATE_BITS: ReadonlyArray<readonly [number, number]> = [
  [8000, 0x0100],
  [16000, 0x0200],
  [32000, 0x0400],
  [48000, 0x0800],
  [11025, 0x1000],
  [22050, 0x2000],
  [44100, 0x4000],
  [12000, 0x8000],
  [24000, 0x0001],
];
export function maskAllows(mask: number, rate: number): boolean | null {
  const bit = SAMPLE_RATE_BITS.find(([r]) => r === rate)?.[1];
  return bit === undefined ? null : (mask & bit) !== 0;
}

export { PASSCODE_LEN };
