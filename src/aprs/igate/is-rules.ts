// APRS-IS protocol rules, pure: the login passcode, the login line, what a server line is, and
// whether a packet heard on RF may be gated to APRS-IS (and as which line). No I/O here; the
// driver (aprs-is-client.ts) carries the lines. Sources: aprs-is.net "Connecting to APRS-IS",
// "IGate Details" (gating criteria, paths), "q Construct", "Server Design" (logresp), and aprsc's
// doc/IGATE-HINTS.md and limits (PACKETLEN_MAX 512 including CRLF).
//
// satstation is a receive-only IGate: RF → APRS-IS only. Nothing is ever gated APRS-IS → RF, so
// the "gate messages to RF" half of the criteria has no counterpart here.

/** Longest line APRS-IS accepts, CRLF included (aprsc PACKETLEN_MAX). */
export const MAX_IS_LINE_BYTES = 512;
/** The same limit for a line as we hold it, without its CRLF. */
export const MAX_IS_LINE_BODY_BYTES = MAX_IS_LINE_BYTES - 2;

/**
 * The APRS-IS passcode of a login: a 15-bit hash of the base callsign (SSID dropped, upper case,
 * at most 9 characters as the reference implementation reads it). Public since 2000 (aprsd,
 * aprsc passcode.c); it identifies, it does not protect anything.
 */
export function aprsIsPasscode(callsign: string): number {
  const base = callsign.split('-')[0].toUpperCase().slice(0, 9);
  let hash = 0x73e2;
  for (let i = 0; i < base.length; i += 2) {
    hash ^= (base.charCodeAt(i) & 0xff) << 8;
    if (i + 1 < base.length) hash ^= base.charCodeAt(i + 1) & 0xff;
  }
  return hash & 0x7fff;
}

export interface LoginOptions {
  /** Login callsign with SSID (CALL-10); unique on APRS-IS. */
  callsign: string;
  /** -1 logs in receive-only (unverified). */
  passcode: number;
  software: string;
  version: string;
  /** Server-side filter (port 14580), e.g. `m/50`; empty sends no filter command. */
  filter: string;
}

/** One word: `vers` takes exactly a name and a version, separated by a space. */
const word = (s: string) => s.replace(/[\r\n]/g, '').trim().replace(/\s+/g, '-') || '-';

/** `user CALL-10 pass 12345 vers satstation 0.1.0 filter m/50\r\n`; CR/LF can never be injected. */
export function loginLine(o: LoginOptions): string {
  const pass = Number.isInteger(o.passcode) ? o.passcode : -1;
  const filter = o.filter.replace(/[\r\n]/g, ' ').trim().replace(/\s+/g, ' ');
  return `user ${word(o.callsign).toUpperCase()} pass ${pass} vers ${word(o.software)} ${word(o.version)}${filter ? ` filter ${filter}` : ''}\r\n`;
}

export type ServerLine = { kind: 'logresp'; callsign: string; verified: boolean; server: string | null } | { kind: 'comment'; text: string } | { kind: 'packet'; line: string };

const LOGRESP = /^#\s*logresp\s+(\S+)\s+(unverified|verified)\s*,?(?:\s*server\s+([^\s,]+))?/i;

/**
 * A line from the server (CR/LF already or not yet removed). Lines starting with `#` are server
 * comments: the banner, keepalives and the login response
 * `# logresp CALL verified, server T2XXX` (more text may follow the server name).
 */
export function parseServerLine(line: string): ServerLine {
  const text = line.replace(/[\r\n]+$/, '');
  if (!text.startsWith('#')) return text ? { kind: 'packet', line: text } : { kind: 'comment', text: '' };
  const m = LOGRESP.exec(text);
  if (m) return { kind: 'logresp', callsign: m[1], verified: m[2].toLowerCase() === 'verified', server: m[3] ?? null };
  return { kind: 'comment', text: text.slice(1).trim() };
}

export interface HeardPacket {
  source: string;
  destination: string;
  /** TNC2 path elements as heard, with their `*` marks (WIDE1*, WIDE2-1). */
  path: string[];
  /**
   * The information field, one character per byte (latin1), exactly as received: APRS-IS
   * wants it unmodified (Mic-E carries binary bytes), or other IGates' copies become
   * "modified duplicates".
   */
  info: string;
}

export type GateDecision = { gate: true; line: string } | { gate: false; reason: string };

export interface GateOptions {
  /**
   * The q construct to append. aprs-is.net IGate Details: `qAR` for an IGate that can also gate
   * to RF, `qAO` "if the IGate is receive-only (cannot transmit)". satstation gates RF → IS
   * only, hence the default.
   */
  qConstruct?: 'qAR' | 'qAO';
}

/** Path elements that stop gating, wherever they sit, starred or not (last two: sender's choice). */
const NO_GATE = new Set(['TCPIP', 'TCPXX', 'NOGATE', 'RFONLY']);
/** Third-party headers from APRS-IS: gating them back would loop. */
const FROM_IS = new Set(['TCPIP', 'TCPXX']);
/** One header address as APRS-IS accepts it: letters, digits, '-', an optional trailing '*'. */
const ADDRESS = /^[A-Za-z0-9-]{1,9}\*?$/;
/** q constructs never appear on RF; one in a heard path means a broken gate upstream. */
const Q_CONSTRUCT = /^q[A-Z][A-Za-z]$/;
/** A third-party packet may carry another; this many levels are unwrapped before giving up. */
const MAX_THIRD_PARTY_DEPTH = 3;

const bare = (address: string) => address.replace(/\*$/, '').toUpperCase();

/** Bytes on the wire: one per character for latin1 text, UTF-8 otherwise (see the client's send). */
export function lineBytes(s: string): number {
  return /[^\u0000-\u00ff]/.test(s) ? new TextEncoder().encode(s).length : s.length;
}

/**
 * Whether a packet heard on RF goes to APRS-IS, and the line to send when it does:
 * `SRC>DEST,PATH...,qAO,IGATECALL:info` (path as heard, stars kept, nothing else changed).
 *
 * Not gated (aprs-is.net gating criteria): TCPIP, TCPXX, NOGATE or RFONLY anywhere in the
 * header; a third-party packet (`}`) whose inner header has TCPIP or TCPXX (it came from
 * APRS-IS); generic queries (`?`). A third-party packet from RF otherwise is gated as its inner
 * packet: the RF header and the `}` stripped, then the same rules again.
 *
 * Our own call heard on RF is gated like any station: the criteria make no exception, and the
 * servers handle FROMCALL = login themselves (q algorithm) and drop duplicates.
 *
 * The information field ends at the first CR or LF, the way other IGates cut it (aprsc
 * IGATE-HINTS), so every IGate sends the same copy. Over-long lines and malformed headers are
 * refused, not repaired.
 */
export function gateToIs(p: HeardPacket, igateCall: string, o: GateOptions = {}): GateDecision {
  return gate(p, igateCall, o.qConstruct ?? 'qAO', 0);
}

function gate(p: HeardPacket, igateCall: string, q: 'qAR' | 'qAO', depth: number): GateDecision {
  const header = [p.source, p.destination, ...p.path];
  for (const a of header) if (!ADDRESS.test(a)) return { gate: false, reason: `malformed address "${a}" in the header` };
  if (p.source.endsWith('*') || p.destination.endsWith('*')) return { gate: false, reason: 'malformed header: source or destination marked as repeated' };
  for (const a of [p.destination, ...p.path]) {
    if (NO_GATE.has(bare(a))) return { gate: false, reason: `${bare(a)} in the path` };
    if (Q_CONSTRUCT.test(a)) return { gate: false, reason: `q construct ${a} heard on RF` };
  }
  const cut = p.info.search(/[\r\n]/);
  const info = cut < 0 ? p.info : p.info.slice(0, cut);
  if (!info) return { gate: false, reason: 'empty information field' };
  if (info.startsWith('?')) return { gate: false, reason: 'generic query' };
  if (info.startsWith('}')) {
    if (depth >= MAX_THIRD_PARTY_DEPTH) return { gate: false, reason: 'third-party packets nested too deep' };
    const inner = parseTnc2(info.slice(1));
    if (!inner) return { gate: false, reason: 'malformed third-party header' };
    const fromIs = inner.path.find((a) => FROM_IS.has(bare(a)));
    if (fromIs) return { gate: false, reason: `third-party packet from APRS-IS (${bare(fromIs)} in its header)` };
    return gate(inner, igateCall, q, depth + 1);
  }
  const call = igateCall.toUpperCase();
  if (!ADDRESS.test(call) || call.endsWith('*')) return { gate: false, reason: `invalid IGate callsign "${igateCall}"` };
  const line = `${p.source}>${[p.destination, ...p.path, q, call].join(',')}:${info}`;
  if (lineBytes(line) > MAX_IS_LINE_BODY_BYTES) return { gate: false, reason: `line longer than ${MAX_IS_LINE_BYTES} bytes with CRLF` };
  return { gate: true, line };
}

/** `SRC>DEST,PATH...:info` → its parts; null when it is not a TNC2 monitor line. */
function parseTnc2(text: string): HeardPacket | null {
  const colon = text.indexOf(':');
  const gt = text.indexOf('>');
  if (colon < 0 || gt <= 0 || gt > colon) return null;
  const [destination, ...path] = text.slice(gt + 1, colon).split(',');
  return { source: text.slice(0, gt), destination, path, info: text.slice(colon + 1) };
}
