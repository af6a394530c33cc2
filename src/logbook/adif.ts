// ADIF 3.1 writer (pure). A header (a free-text line, then ADIF_VER, PROGRAMID, PROGRAMVERSION,
// CREATED_TIMESTAMP, <EOH>) and one record per QSO, each field `<NAME:length>data` with the
// length counted in characters, as ADIF counts them. Output is ASCII only (ADIF's String type),
// so length in characters is also length in bytes and any reader agrees on where data ends.
// Non-ASCII text (only a comment or a satellite name can hold any) is transliterated: accents
// dropped (é → e), a few letters spelled out (ß → ss, æ → ae, ø → o), anything else → '?'.
// '<' and '>' in text become '(' and ')': ADIF itself allows them (lengths decide), but Cloudlog
// and Wavelog split a pushed string at "<eor>" before reading lengths, so a comment saying
// "<eor>" would cut the record there. Empty and absent fields are left out.
import type { QsoRecord } from './schemas.js';

export const ADIF_VERSION = '3.1.4';
export const PROGRAM_ID = 'satstation';

const SPELLED: Readonly<Record<string, string>> = {
  ß: 'ss', æ: 'ae', Æ: 'AE', ø: 'o', Ø: 'O', œ: 'oe', Œ: 'OE', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', þ: 'th', Þ: 'TH', ð: 'd', Ð: 'D', ı: 'i',
  '\u2018': "'", '\u2019': "'", '\u201c': '"', '\u201d': '"', '\u2013': '-', '\u2014': '-', '\u2026': '...', '\u00a0': ' ',
};

/** Text as ADIF String data: printable ASCII; control characters become spaces. */
export function toAdifAscii(text: string): string {
  if (/^[\x20-\x3b=\x3f-\x7e]*$/.test(text)) return text; // the common case costs one test
  let out = '';
  for (const ch of text.normalize('NFKD')) {
    const c = ch.codePointAt(0)!;
    if (ch === '<') out += '(';
    else if (ch === '>') out += ')';
    else if (c >= 0x20 && c <= 0x7e) out += ch;
    else if (c < 0x20 || c === 0x7f) out += ' ';
    else if (c >= 0x300 && c <= 0x36f) continue; // combining accent left by NFKD
    else out += SPELLED[ch] ?? '?';
  }
  return out;
}

/** One field, or '' when the value is absent or empty (ADIF: an empty field says nothing). */
export function adifField(name: string, value: string | number | null | undefined): string {
  if (value == null) return '';
  const data = toAdifAscii(String(value));
  return data === '' ? '' : `<${name}:${data.length}>${data}`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
/** YYYYMMDD of an ISO time, in UTC. */
export const adifDate = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
/** HHMMSS of an ISO time, in UTC. */
export const adifTime = (d: Date) => `${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;

/** MHz with hertz resolution and no trailing zeros: 145.99, 435.8, 10489.55. */
export function adifFreq(mhz: number | null): string | null {
  if (mhz == null || !Number.isFinite(mhz) || mhz <= 0) return null;
  const hz = Math.round(mhz * 1_000_000);
  const whole = Math.floor(hz / 1_000_000);
  const frac = String(hz % 1_000_000).padStart(6, '0').replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export interface AdifHeaderOptions {
  programVersion: string;
  /** When the file was made (epoch ms). */
  createdMs: number;
  /** Stored QSOs not in the file because they have no mode (said in the header's text). */
  leftOutWithoutMode?: number;
}

export function adifHeader(o: AdifHeaderOptions): string {
  const created = new Date(o.createdMs);
  const n = o.leftOutWithoutMode ?? 0;
  const leftOut = n > 0 ? `; ${n} ${n === 1 ? 'QSO' : 'QSOs'} without a mode left out (LoTW and the loggers refuse a record without MODE)` : '';
  // The first character must not be '<': a reader takes that as a file without a header.
  return (
    `satstation ADIF export, ${created.toISOString()}${leftOut}\n` +
    [
      adifField('ADIF_VER', ADIF_VERSION),
      adifField('PROGRAMID', PROGRAM_ID),
      adifField('PROGRAMVERSION', o.programVersion),
      adifField('CREATED_TIMESTAMP', `${adifDate(created)} ${adifTime(created)}`),
    ].join('\n') +
    '\n<EOH>\n'
  );
}

/** Fields of one QSO in the order loggers show them. */
export function adifRecord(q: QsoRecord): string {
  const t = new Date(q.time_on);
  const fields = [
    adifField('CALL', q.call),
    adifField('QSO_DATE', adifDate(t)),
    adifField('TIME_ON', adifTime(t)),
    adifField('BAND', q.band),
    adifField('BAND_RX', q.band_rx),
    adifField('FREQ', adifFreq(q.freq_mhz)),
    adifField('FREQ_RX', adifFreq(q.freq_rx_mhz)),
    adifField('MODE', q.mode),
    adifField('SUBMODE', q.submode),
    adifField('PROP_MODE', q.prop_mode),
    adifField('SAT_NAME', q.sat_name),
    adifField('SAT_MODE', q.sat_mode),
    adifField('STATION_CALLSIGN', q.station_callsign),
    adifField('MY_GRIDSQUARE', q.my_gridsquare),
    adifField('GRIDSQUARE', q.their_grid),
    adifField('RST_SENT', q.rst_sent),
    adifField('RST_RCVD', q.rst_rcvd),
    adifField('COMMENT', q.comment),
  ];
  return fields.filter((f) => f !== '').join(' ') + ' <EOR>\n';
}

/** Records joined per chunk: big enough that a socket write per chunk is cheap, small enough to stay flat in memory. */
export const RECORDS_PER_CHUNK = 256;

/**
 * The whole file as a stream of chunks (header first), so an export of 10,000 QSOs never holds
 * more than one chunk of text: the caller writes each chunk (and may wait for the socket to
 * drain) before asking for the next.
 */
export function* adifChunks(records: Iterable<QsoRecord>, o: AdifHeaderOptions, perChunk = RECORDS_PER_CHUNK): Generator<string, void, undefined> {
  yield adifHeader(o);
  let chunk = '';
  let n = 0;
  for (const q of records) {
    chunk += adifRecord(q);
    if (++n >= perChunk) {
      yield chunk;
      chunk = '';
      n = 0;
    }
  }
  if (chunk !== '') yield chunk;
}

/** What one push to Cloudlog carries: the record alone, as loggers send it (Cloudlog needs no header). */
export const adifPushString = (q: QsoRecord): string => adifRecord(q);

/** A whole (small) file as one string: one QSO for a Cloudlog push, or a test. */
export const adifDocument = (records: Iterable<QsoRecord>, o: AdifHeaderOptions): string => [...adifChunks(records, o)].join('');
