// TNC2 monitor text, the form APRS-IS and most software show: SRC>DEST,DIGI1*,WIDE2-1:info.
// Info bytes map 1:1 to the chars U+0000..U+00FF (latin1) so any byte string survives the trip;
// a caller reading APRS-IS must decode the socket as latin1 too, not UTF-8.

import {
  AX25_CONTROL_UI,
  AX25_MAX_DIGIS,
  AX25_PID_NO_L3,
  formatAddress,
  parseAddress,
  type Ax25Address,
  type Ax25Decoded,
  type Ax25Frame,
} from './ax25.js';

const CHUNK = 4096; // keeps String.fromCharCode's argument list well under engine limits

/** Info bytes as a latin1 string (byte n → U+00nn). */
export function infoText(info: Uint8Array): string {
  if (info.length <= CHUNK) return String.fromCharCode.apply(null, info as unknown as number[]);
  let s = '';
  for (let i = 0; i < info.length; i += CHUNK) s += String.fromCharCode.apply(null, info.subarray(i, i + CHUNK) as unknown as number[]);
  return s;
}

/** True when every char fits one byte (U+0000..U+00FF), i.e. infoBytes is lossless. */
export function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return false;
  return true;
}

/**
 * Text as info bytes (latin1). Never throws: a char above U+00FF becomes '?'. Check isLatin1
 * first where that loss matters (parseTnc2 does and refuses).
 */
export function infoBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out[i] = c > 0xff ? 0x3f : c;
  }
  return out;
}

/**
 * The TNC2 line for a frame. A star follows only the LAST repeated digipeater (the common
 * convention: H bits are set in order, so it implies the ones before). Dest/source C bits are
 * not shown. No line terminator is added.
 */
export function toTnc2(f: Ax25Frame): string {
  let lastRepeated = -1;
  for (let i = 0; i < f.path.length; i++) if (f.path[i].repeated) lastRepeated = i;
  let s = `${formatAddress(f.source)}>${formatAddress(f.destination)}`;
  for (let i = 0; i < f.path.length; i++) s += `,${formatAddress(f.path[i])}${i === lastRepeated ? '*' : ''}`;
  return `${s}:${infoText(f.info)}`;
}

const Q_CONSTRUCT = /^q[A-Z]{2}$/;

/** Why an APRS-IS header element cannot be an on-air AX.25 address. */
function badElement(el: string, role: string): string {
  if (Q_CONSTRUCT.test(el)) return `APRS-IS q-construct '${el}' in the path: an Internet packet, cannot go on air`;
  return `${role} '${el}' is not an AX.25 address (A-Z0-9, 1-6 chars, SSID 0-15)`;
}

/**
 * Parses a TNC2 line (without its line terminator: info may legitimately end in CR) into a UI
 * frame: control 0x03, PID 0xF0, destination C bit set / source clear (an AX.25 v2 command, as
 * TNCs send APRS). A star on digipeater k marks 0..k repeated. Headers that cannot be AX.25
 * (q-constructs, TCPIP/TCPXX, lower case, calls over 6 chars) answer ok:false.
 */
export function parseTnc2(line: string): Ax25Decoded {
  const colon = line.indexOf(':');
  if (colon < 0) return { ok: false, error: "no ':' between header and info" };
  const gt = line.indexOf('>');
  if (gt < 0 || gt > colon) return { ok: false, error: "no '>' after the source" };
  const srcText = line.slice(0, gt);
  const source = parseAddress(srcText);
  if (source === null || source.repeated) return { ok: false, error: badElement(srcText, 'source') };
  source.repeated = false;
  const parts = line.slice(gt + 1, colon).split(',');
  if (parts.length - 1 > AX25_MAX_DIGIS) return { ok: false, error: `more than ${AX25_MAX_DIGIS} digipeaters` };
  const destination = parseAddress(parts[0]);
  if (destination === null || destination.repeated) return { ok: false, error: badElement(parts[0], 'destination') };
  destination.repeated = true;
  const path: Ax25Address[] = [];
  let lastStar = -1;
  for (let i = 1; i < parts.length; i++) {
    const el = parts[i];
    const a = parseAddress(el);
    if (a === null) return { ok: false, error: badElement(el, 'path element') };
    if (a.call === 'TCPIP' || a.call === 'TCPXX') return { ok: false, error: `${a.call} in the path: an Internet packet, cannot go on air` };
    if (a.repeated) lastStar = i - 1;
    path.push(a);
  }
  for (let i = 0; i < path.length; i++) path[i].repeated = i <= lastStar;
  const infoStr = line.slice(colon + 1);
  if (!isLatin1(infoStr)) return { ok: false, error: 'info has characters above U+00FF (decode APRS-IS as latin1)' };
  return { ok: true, frame: { destination, source, path, control: AX25_CONTROL_UI, pid: AX25_PID_NO_L3, info: infoBytes(infoStr) } };
}
