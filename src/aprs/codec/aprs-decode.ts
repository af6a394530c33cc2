import { aprsParser } from 'js-aprs-fap';

// APRS info-field decoding for packets heard on air or read from APRS-IS. Position formats
// (uncompressed, compressed, Mic-E, objects, items) go through js-aprs-fap (a port of
// Ham::APRS::FAP); messages and status reports are parsed here, because the library refuses any
// non-ASCII message text (UTF-8 from modern clients) and the formats are a few lines each.
// Nothing here throws: whatever the air delivers comes back as some `kind`, at worst 'unparsed'.

/** One packet in TNC2 pieces; `info` is the information field as latin1 text (one char per byte). */
export interface AprsPacketIn {
  source: string;
  destination: string;
  path: string[];
  info: string;
}

/** The originating header of a third-party (`}`) packet, e.g. a message an IGate brought from APRS-IS. */
export interface ThirdPartyHeader {
  source: string;
  destination: string;
  path: string[];
}

type AprsDecodedKind =
  | {
      kind: 'position';
      format: 'uncompressed' | 'compressed' | 'mic-e';
      lat: number;
      lon: number;
      symbol_table: string;
      symbol_code: string;
      comment: string;
      messaging: boolean;
      speed_kmh: number | null;
      course_deg: number | null;
      altitude_m: number | null;
    }
  | { kind: 'message'; addressee: string; text: string; msg_id: string | null }
  | { kind: 'ack' | 'reject'; addressee: string; msg_id: string }
  | { kind: 'status'; text: string }
  | { kind: 'object' | 'item'; name: string; alive: boolean; lat: number | null; lon: number | null; symbol_table: string | null; symbol_code: string | null; comment: string }
  | { kind: 'unparsed'; reason: string };

/** Set only on packets that arrived wrapped in a third-party header: who really sent them. */
export type AprsDecoded = AprsDecodedKind & { third_party?: ThirdPartyHeader };

const parser = new aprsParser(); // stateless between calls: one instance serves every packet

const unparsed = (reason: string): AprsDecoded => ({ kind: 'unparsed', reason });

/** Decodes one packet's info field. Never throws. */
export function decodeAprs(p: AprsPacketIn): AprsDecoded {
  try {
    return decodeInfo(typeof p?.info === 'string' ? p.info : '', typeof p?.destination === 'string' ? p.destination : '', 0);
  } catch (e) {
    // The library is third-party code fed with air data: a bug there must cost one packet only.
    return unparsed(`decoder error: ${e instanceof Error ? e.message : String(e)}`.slice(0, 120));
  }
}

// A third-party packet inside a third-party packet is legal but never useful; stop there.
const MAX_THIRD_PARTY_DEPTH = 1;

function decodeInfo(rawInfo: string, destination: string, depth: number): AprsDecoded {
  // TNC2 lines end at CR/LF; anything after one is not part of this packet.
  const cut = rawInfo.search(/[\r\n]/);
  const info = cut >= 0 ? rawInfo.slice(0, cut) : rawInfo;
  if (info.length === 0) return unparsed('empty information field');
  // AX.25 carries at most 256 info bytes and APRS-IS lines 512; longer is garbage, and it bounds
  // the library's regex work.
  if (info.length > 512) return unparsed('information field longer than 512 characters');
  const dti = info[0];
  switch (dti) {
    case ':':
      return decodeMessage(info);
    case '>':
      return decodeStatus(info);
    case '}':
      return decodeThirdParty(info, depth);
    case '!':
    case '=':
    case '/':
    case '@':
    case ';':
    case ')':
      return fromLibrary(info, 'APRS', false);
    case '`':
    case "'":
      return decodeMicE(info, destination);
    case '_':
      return unparsed('weather report without position (not decoded)');
    case 'T':
      return unparsed(info.startsWith('T#') ? 'telemetry (not decoded)' : 'unsupported data type T');
    case '$':
      return unparsed('raw GPS/NMEA or weather station data (not decoded)');
    case '<':
      return unparsed('station capabilities (not decoded)');
    case '?':
      return unparsed('query (not decoded)');
    default: {
      // APRS 1.01: a '!' within the first 40 characters still marks a position (old TNC beacons).
      const bang = info.indexOf('!');
      if (bang > 0 && bang < 40) return fromLibrary(info, 'APRS', false);
      return unparsed(`unsupported data type ${printable(dti)}`);
    }
  }
}

// ---- messages and status (our own parsing) ----

const MSG_ID = /^[A-Za-z0-9]{1,5}$/;
// A reply-ack ({MM}AA, APRS 1.1) may follow the id; only the id is reported.
const ACK_REJ = /^(ack|rej)([A-Za-z0-9]{1,5})(\}[A-Za-z0-9]{0,5})?\s*$/;

function decodeMessage(info: string): AprsDecoded {
  // ":ADDRESSEE:text" with the addressee padded to exactly nine characters.
  if (info.length < 11 || info[10] !== ':') return unparsed('message addressee is not 9 characters');
  const addressee = info.slice(1, 10).trim();
  if (addressee.length === 0) return unparsed('message without addressee');
  const body = info.slice(11);
  const ar = ACK_REJ.exec(body);
  if (ar) return { kind: ar[1] === 'ack' ? 'ack' : 'reject', addressee, msg_id: ar[2] };
  const brace = body.indexOf('{');
  if (brace >= 0) {
    const tail = body.slice(brace + 1).trimEnd();
    const close = tail.indexOf('}');
    const id = close >= 0 ? tail.slice(0, close) : tail;
    if (MSG_ID.test(id)) return { kind: 'message', addressee, text: body.slice(0, brace), msg_id: id };
  }
  // No valid id: the '{' (forbidden in text) is kept as text rather than losing the message.
  return { kind: 'message', addressee, text: body.trimEnd(), msg_id: null };
}

function decodeStatus(info: string): AprsDecoded {
  let text = info.slice(1);
  // An optional DDHHMMz timestamp leads the status text (APRS 1.01 ch. 16).
  if (/^\d{6}z/.test(text)) text = text.slice(7);
  return { kind: 'status', text: text.trim() };
}

// ---- third party ----

function decodeThirdParty(info: string, depth: number): AprsDecoded {
  if (depth >= MAX_THIRD_PARTY_DEPTH) return unparsed('nested third-party packet');
  const inner = parseTnc2Line(info.slice(1));
  if (!inner) return unparsed('third-party packet with a malformed inner header');
  const d = decodeInfo(inner.info, inner.destination, depth + 1);
  return { ...d, third_party: { source: inner.source, destination: inner.destination, path: inner.path } };
}

/** Splits `SRC>DEST,PATH1,PATH2:info` into pieces, or null when it is not shaped like one. */
export function parseTnc2Line(line: string): AprsPacketIn | null {
  if (typeof line !== 'string') return null;
  const colon = line.indexOf(':');
  if (colon < 0) return null;
  const header = line.slice(0, colon);
  const gt = header.indexOf('>');
  if (gt <= 0) return null;
  const [destination, ...path] = header.slice(gt + 1).split(',');
  const source = header.slice(0, gt);
  const call = /^[A-Za-z0-9-]{1,9}\*?$/;
  if (!call.test(source) || !destination || !call.test(destination)) return null;
  return { source, destination, path, info: line.slice(colon + 1).replace(/[\r\n]+$/, '') };
}

/** Convenience for logs and APRS-IS lines: parse the TNC2 text, then decode it. Never throws. */
export function decodeTnc2Line(line: string): AprsDecoded & { packet: AprsPacketIn | null } {
  const packet = parseTnc2Line(line);
  if (!packet) return { kind: 'unparsed', reason: 'not a TNC2 line (SRC>DEST,PATH:info)', packet: null };
  return { ...decodeAprs(packet), packet };
}

// ---- position formats via js-aprs-fap ----

// Mic-E type codes (aprs.org/aprs12/mic-e-types.txt): the first status byte names the device
// family and, for '`' and "'", the last two bytes name the model. They are not comment text.
function micEStatus(status: string): { status: string; messaging: boolean } {
  const t = status[0];
  if (t === '`' || t === "'") {
    const rest = status.slice(1);
    return { status: rest.length >= 2 ? rest.slice(0, -2) : rest, messaging: t === '`' };
  }
  if (t === '>') return { status: status.slice(1).replace(/[=^&]$/, ''), messaging: true }; // TH-D7x family
  if (t === ']') return { status: status.slice(1).replace(/=$/, ''), messaging: true }; // TM-D700/D710
  return { status, messaging: false };
}

function decodeMicE(info: string, destination: string): AprsDecoded {
  if (info.length < 9) return unparsed('Mic-E packet too short');
  // Mic-E carries latitude in the destination address; its SSID is a path code, not position.
  const dest = destination.replace(/\*$/, '').replace(/-\d{1,2}$/, '').toUpperCase();
  if (!/^[0-9A-LP-Z]{6}$/.test(dest)) return unparsed('Mic-E destination address is not a valid latitude');
  const s = micEStatus(info.slice(9));
  return fromLibrary(info.slice(0, 9) + s.status, dest, s.messaging);
}

// Only lat/lon-bearing fields are read from the library's result.
interface FapResult {
  resultCode?: string;
  resultMessage?: string;
  type?: string;
  format?: string;
  latitude?: number;
  longitude?: number;
  symboltable?: string;
  symbolcode?: string;
  comment?: string;
  messaging?: boolean;
  speed?: number;
  course?: number;
  altitude?: number;
  objectname?: string;
  itemname?: string;
  alive?: boolean;
}

function fromLibrary(info: string, destination: string, micEMessaging: boolean): AprsDecoded {
  // The library wants a whole TNC2 line. The header is synthetic: the real source and path are
  // the caller's, and keeping them out avoids the library rejecting packets over header syntax.
  const r = parser.parseaprs(`N0CALL>${destination}:${info}`) as FapResult | null;
  if (!r) return unparsed('decoder returned nothing');
  const name = r.type === 'object' ? r.objectname : r.type === 'item' ? r.itemname : undefined;
  if (name !== undefined) {
    // A named object/item is reported even when its position would not decode.
    const pos = r.resultCode ? null : position(r);
    return {
      kind: r.type === 'object' ? 'object' : 'item',
      name: name.trimEnd(),
      alive: r.alive === true,
      lat: pos ? pos.lat : null,
      lon: pos ? pos.lon : null,
      symbol_table: pos ? pos.symbol_table : null,
      symbol_code: pos ? pos.symbol_code : null,
      comment: r.comment ?? '',
    };
  }
  if (r.resultCode) return unparsed(reasonOf(r));
  if (r.type !== 'location') return unparsed(r.type ? `${r.type} (not decoded)` : 'unrecognised information field');
  const format = r.format === 'uncompressed' || r.format === 'compressed' ? r.format : r.format === 'mice' ? 'mic-e' : null;
  if (!format) return unparsed(`${r.format ?? 'unknown'} position format (not decoded)`);
  const pos = position(r);
  if (!pos) return unparsed('position out of range');
  return {
    kind: 'position',
    format,
    ...pos,
    comment: r.comment ?? '',
    messaging: format === 'mic-e' ? micEMessaging : r.messaging === true,
    speed_kmh: finite(r.speed),
    // FAP convention: 0 = course unknown, 360 = due north.
    course_deg: typeof r.course === 'number' && r.course >= 1 && r.course <= 360 ? r.course : null,
    altitude_m: finite(r.altitude),
  };
}

function position(r: FapResult): { lat: number; lon: number; symbol_table: string; symbol_code: string } | null {
  const lat = r.latitude;
  const lon = r.longitude;
  if (typeof lat !== 'number' || typeof lon !== 'number' || !(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 180)) return null;
  let table = r.symboltable ?? '';
  // Compressed overlays a-j stand for digits 0-9 (APRS 1.01 ch. 9); the library leaves them as letters.
  if (r.format === 'compressed' && table >= 'a' && table <= 'j') table = String.fromCharCode(table.charCodeAt(0) - 49);
  return { lat, lon, symbol_table: table, symbol_code: r.symbolcode ?? '' };
}

const finite = (n: unknown): number | null => (typeof n === 'number' && Number.isFinite(n) ? n : null);

function reasonOf(r: FapResult): string {
  // The library appends ": undefined" when an error carries no detail.
  return (r.resultMessage ?? r.resultCode ?? 'invalid packet').replace(/: undefined$/, '');
}

// ---- one-line summary ----

/** Control and non-ASCII bytes shown as '.', so a log line stays one readable line. */
function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '.');
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const coord = (lat: number, lon: number) => `${lat.toFixed(4)},${lon.toFixed(4)}`;

/** One short human line for logs and the UI, e.g. "position 49.0583,-72.0292 Test 001234". */
export function summarize(d: AprsDecoded, info: string): string {
  // Text from the air is made printable; our own words (°, …) are not touched.
  const t = (x: string) => clip(printable(x), 80);
  let s: string;
  switch (d.kind) {
    case 'position': {
      const parts = [`position ${coord(d.lat, d.lon)}`];
      if (d.speed_kmh !== null && d.speed_kmh > 0) parts.push(`${Math.round(d.speed_kmh)} km/h`);
      if (d.course_deg !== null) parts.push(`${d.course_deg}°`);
      if (d.altitude_m !== null) parts.push(`${Math.round(d.altitude_m)} m`);
      if (d.comment) parts.push(t(d.comment));
      s = parts.join(' ');
      break;
    }
    case 'message':
      s = `msg to ${t(d.addressee)}: ${t(d.text)}${d.msg_id !== null ? ` {${d.msg_id}}` : ''}`;
      break;
    case 'ack':
    case 'reject':
      s = `${d.kind === 'ack' ? 'ack' : 'rej'} to ${t(d.addressee)} {${d.msg_id}}`;
      break;
    case 'status':
      s = `status ${t(d.text)}`;
      break;
    case 'object':
    case 'item': {
      const parts = [`${d.kind} ${t(d.name)}${d.alive ? '' : ' (killed)'}`];
      if (d.lat !== null && d.lon !== null) parts.push(coord(d.lat, d.lon));
      if (d.comment) parts.push(t(d.comment));
      s = parts.join(' ');
      break;
    }
    default:
      s = `unparsed (${t(d.reason)}): ${t(typeof info === 'string' ? info : '')}`;
  }
  return d.third_party ? `[via ${t(d.third_party.source)}] ${s}` : s;
}
