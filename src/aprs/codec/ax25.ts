// AX.25 UI frames as APRS uses them (AX.25 2.2 §3.12 address field, §4.3.3.7 UI frame), without
// flags or FCS: the TNC (KISS) adds and strips those. Pure: no I/O, no dependencies. Decoding
// never throws on bytes from the air; it answers with a union.

export interface Ax25Address {
  call: string;
  ssid: number;
  /** H bit on digipeaters ("has been repeated"), C bit on dest/source */
  repeated: boolean;
}

export interface Ax25Frame {
  destination: Ax25Address;
  source: Ax25Address;
  path: Ax25Address[];
  control: number;
  pid: number;
  info: Uint8Array;
}

export type Ax25Decoded = { ok: true; frame: Ax25Frame } | { ok: false; error: string };

export const AX25_MAX_DIGIS = 8;
export const AX25_CONTROL_UI = 0x03;
/** PID "no layer 3 protocol", the one APRS uses. */
export const AX25_PID_NO_L3 = 0xf0;

const ADDR_LEN = 7;
const MAX_ADDRS = 2 + AX25_MAX_DIGIS;
/** Reserved bits of the SSID byte; the spec says set them to 1 ("11" unless otherwise agreed). */
const SSID_RR = 0x60;
const SSID_CH = 0x80;
const SSID_EXT = 0x01;
/** The poll/final bit is the only other bit a UI control byte may carry. */
const PF_BIT = 0x10;

const isUiControl = (c: number) => (c & ~PF_BIT) === AX25_CONTROL_UI;

function isCallChar(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/** A-Z0-9, 1..6 characters: what fits an AX.25 address. */
export function isValidCall(call: string): boolean {
  const n = call.length;
  if (n < 1 || n > 6) return false;
  for (let i = 0; i < n; i++) if (!isCallChar(call.charCodeAt(i))) return false;
  return true;
}

const isValidSsid = (ssid: number) => Number.isInteger(ssid) && ssid >= 0 && ssid <= 15;

/**
 * "CALL", "CALL-N" or "CALL-N*" (star = repeated). Strict: upper case only, SSID 0..15 without
 * leading zeros (the settings' AX.25 rule); "-0" is accepted as SSID 0 because some software
 * writes it, and formatAddress prints it back as plain "CALL". Anything else → null.
 */
export function parseAddress(s: string): Ax25Address | null {
  let end = s.length;
  let repeated = false;
  if (end > 0 && s.charCodeAt(end - 1) === 0x2a /* * */) {
    repeated = true;
    end--;
  }
  const dash = s.indexOf('-');
  const callEnd = dash >= 0 && dash < end ? dash : end;
  if (callEnd < 1 || callEnd > 6) return null;
  for (let i = 0; i < callEnd; i++) if (!isCallChar(s.charCodeAt(i))) return null;
  let ssid = 0;
  if (callEnd < end) {
    const digits = end - callEnd - 1;
    if (digits < 1 || digits > 2) return null;
    const d0 = s.charCodeAt(callEnd + 1) - 0x30;
    if (d0 < 0 || d0 > 9) return null;
    if (digits === 1) ssid = d0;
    else {
      const d1 = s.charCodeAt(callEnd + 2) - 0x30;
      if (d0 !== 1 || d1 < 0 || d1 > 5) return null;
      ssid = 10 + d1;
    }
  }
  return { call: s.slice(0, callEnd), ssid, repeated };
}

/** "CALL" for SSID 0, else "CALL-N"; "*" appended when `star` and the address is repeated. */
export function formatAddress(a: Ax25Address, star = false): string {
  const base = a.ssid === 0 ? a.call : `${a.call}-${a.ssid}`;
  return star && a.repeated ? `${base}*` : base;
}

/** Same call and SSID; the H/C bit is not part of a station's identity. */
export function sameStation(a: Ax25Address, b: Ax25Address): boolean {
  return a.ssid === b.ssid && a.call === b.call;
}

function checkFrame(f: Ax25Frame): string | null {
  const addrs = [f.destination, f.source, ...f.path];
  if (f.path.length > AX25_MAX_DIGIS) return `more than ${AX25_MAX_DIGIS} digipeaters`;
  for (const a of addrs) {
    if (!isValidCall(a.call)) return `invalid callsign '${a.call}'`;
    if (!isValidSsid(a.ssid)) return `invalid SSID ${a.ssid} on ${a.call}`;
  }
  if (!isUiControl(f.control)) return `control 0x${f.control.toString(16)} is not a UI frame`;
  if (!Number.isInteger(f.pid) || f.pid < 0 || f.pid > 0xff) return `invalid PID ${f.pid}`;
  return null;
}

function writeAddress(out: Uint8Array, at: number, a: Ax25Address, last: boolean): void {
  const call = a.call;
  for (let i = 0; i < 6; i++) out[at + i] = (i < call.length ? call.charCodeAt(i) : 0x20) << 1;
  out[at + 6] = (a.repeated ? SSID_CH : 0) | SSID_RR | (a.ssid << 1) | (last ? SSID_EXT : 0);
}

/** Like encodeAx25 but answers with a union instead of throwing. */
export function tryEncodeAx25(f: Ax25Frame): { ok: true; bytes: Uint8Array } | { ok: false; error: string } {
  const bad = checkFrame(f);
  if (bad !== null) return { ok: false, error: bad };
  const nAddr = 2 + f.path.length;
  const out = new Uint8Array(nAddr * ADDR_LEN + 2 + f.info.length);
  writeAddress(out, 0, f.destination, false);
  writeAddress(out, ADDR_LEN, f.source, f.path.length === 0);
  for (let i = 0; i < f.path.length; i++) writeAddress(out, (2 + i) * ADDR_LEN, f.path[i], i === f.path.length - 1);
  let p = nAddr * ADDR_LEN;
  out[p++] = f.control;
  out[p++] = f.pid;
  out.set(f.info, p);
  return { ok: true, bytes: out };
}

/**
 * Encodes a UI frame. Throws RangeError only on programmer error (a frame this module would not
 * have produced: bad call/SSID, > 8 digipeaters, non-UI control, PID out of range); frames from
 * decodeAx25/parseTnc2/the digipeater always encode. Use tryEncodeAx25 for untrusted input.
 */
export function encodeAx25(f: Ax25Frame): Uint8Array {
  const r = tryEncodeAx25(f);
  if (!r.ok) throw new RangeError(`encodeAx25: ${r.error}`);
  return r.bytes;
}

/** Decodes one address at `at`; null when the call characters are not A-Z0-9 + trailing spaces. */
function readAddress(b: Uint8Array, at: number): Ax25Address | null {
  let len = 0;
  let padded = false;
  for (let i = 0; i < 6; i++) {
    const raw = b[at + i];
    // Bit 0 of a call byte is the extension bit position of the unshifted field: must be 0.
    if (raw & 1) return null;
    const c = raw >> 1;
    if (c === 0x20) padded = true;
    else if (padded || !isCallChar(c)) return null; // a character after padding, or not A-Z0-9
    else len++;
  }
  if (len === 0) return null;
  let call = '';
  for (let i = 0; i < len; i++) call += String.fromCharCode(b[at + i] >> 1);
  const s = b[at + 6];
  // Reserved bits are not checked: some TNCs clear them, and they carry no meaning for APRS.
  return { call, ssid: (s >> 1) & 0x0f, repeated: (s & SSID_CH) !== 0 };
}

/**
 * Decodes a KISS payload (address field, control, PID, info; no FCS). Non-UI frames answer
 * 'not a UI frame'. The info is copied, so the caller may reuse its receive buffer.
 */
export function decodeAx25(bytes: Uint8Array): Ax25Decoded {
  // Find the address field's end: the first SSID byte with the extension bit set.
  let nAddr = 0;
  for (let i = 0; i < MAX_ADDRS; i++) {
    const at = i * ADDR_LEN + 6;
    if (at >= bytes.length) return { ok: false, error: 'truncated address field' };
    if (bytes[at] & SSID_EXT) {
      nAddr = i + 1;
      break;
    }
  }
  if (nAddr === 0) return { ok: false, error: `address field not terminated within ${MAX_ADDRS} addresses` };
  if (nAddr < 2) return { ok: false, error: 'address field ends after the destination (no source)' };
  const addrs: Ax25Address[] = new Array(nAddr);
  for (let i = 0; i < nAddr; i++) {
    const a = readAddress(bytes, i * ADDR_LEN);
    if (a === null) return { ok: false, error: `invalid callsign characters in address ${i + 1}` };
    addrs[i] = a;
  }
  const p = nAddr * ADDR_LEN;
  if (p >= bytes.length) return { ok: false, error: 'missing control field' };
  const control = bytes[p];
  if (!isUiControl(control)) return { ok: false, error: 'not a UI frame' };
  if (p + 1 >= bytes.length) return { ok: false, error: 'missing PID' };
  const pid = bytes[p + 1];
  return {
    ok: true,
    frame: { destination: addrs[0], source: addrs[1], path: addrs.slice(2), control, pid, info: bytes.slice(p + 2) },
  };
}
