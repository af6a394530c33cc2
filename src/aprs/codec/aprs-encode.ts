// APRS information fields this station transmits (APRS 1.01 with the 1.1/1.2 errata): position
// reports, messages, acks/rejects and status. Each encoder checks its input and answers with an
// EncodeResult, so a bad value typed by a user is a clear error and never a throw. Over-long text
// is rejected, not truncated: a silently shortened beacon or message is worse than an error
// (the settings already bound beacon comments to 43 printable characters).

/**
 * Destination (tocall) of everything we send. APZxxx is the block the APRS tocall registry keeps
 * for experimental software; SST = satstation.
 */
export const APRS_TOCALL = 'APZSST';

export type EncodeResult = { ok: true; info: string } | { ok: false; error: string };

const ok = (info: string): EncodeResult => ({ ok: true, info });
const fail = (error: string): EncodeResult => ({ ok: false, error });

// Printable ASCII without '|' and '~', which the spec reserves (TNC channel switching).
const FREE_TEXT = /^[\x20-\x7b\x7d]*$/;
const MSG_ID = /^[A-Za-z0-9]{1,5}$/;

/** Shifts a position by the configured privacy fudge: latitude clamped to ±90, longitude wrapped into [-180, 180). */
export function applyFudge(lat: number, lon: number, fudgeLatDeg: number, fudgeLonDeg: number): { lat: number; lon: number } {
  const fl = Number.isFinite(fudgeLatDeg) ? fudgeLatDeg : 0;
  const fo = Number.isFinite(fudgeLonDeg) ? fudgeLonDeg : 0;
  const la = Math.min(90, Math.max(-90, lat + fl));
  const lo = ((((lon + fo + 180) % 360) + 360) % 360) - 180;
  return { lat: la, lon: lo };
}

const pad = (n: number, w: number) => String(n).padStart(w, '0');

/**
 * DDMM.mm / DDDMM.mm to the nearest 0.01 minute. Rounding whole hundredths of a minute means a
 * carry lands in the degrees (never "60.00" minutes). The top value is held at 89°59.99' /
 * 179°59.99' (0.01' is about 18 m) because decoders such as FAP reject 90 and 180 degrees.
 */
function dm(value: number, degDigits: 2 | 3, pos: string, neg: string): string {
  const max = (degDigits === 2 ? 90 : 180) * 6000 - 1;
  const h = Math.min(max, Math.round(Math.abs(value) * 6000));
  const deg = Math.floor(h / 6000);
  const hm = h % 6000;
  return `${pad(deg, degDigits)}${pad(Math.floor(hm / 100), 2)}.${pad(hm % 100, 2)}${value < 0 && h > 0 ? neg : pos}`;
}

/** "!DDMM.mmN/DDDMM.mmW-comment" (uncompressed, no timestamp); '=' instead of '!' when messaging. */
export function encodePosition(o: { lat: number; lon: number; symbolTable: string; symbolCode: string; comment: string; messaging: boolean }): EncodeResult {
  if (!Number.isFinite(o.lat) || Math.abs(o.lat) > 90) return fail('latitude must be a number from -90 to 90');
  if (!Number.isFinite(o.lon) || Math.abs(o.lon) > 180) return fail('longitude must be a number from -180 to 180');
  // Table: primary '/', alternate '\', or an overlay digit/letter on the alternate table.
  if (typeof o.symbolTable !== 'string' || !/^[/\\0-9A-Z]$/.test(o.symbolTable)) return fail('symbol table must be "/", "\\" or an overlay 0-9/A-Z');
  if (typeof o.symbolCode !== 'string' || !/^[!-{}]$/.test(o.symbolCode)) return fail('symbol code must be one printable character');
  const comment = typeof o.comment === 'string' ? o.comment : '';
  // 43: the longest position comment without a data extension (APRS 1.01 ch. 8).
  if (comment.length > 43) return fail(`comment is ${comment.length} characters, at most 43 allowed`);
  if (!FREE_TEXT.test(comment)) return fail('comment must be printable ASCII without | or ~');
  return ok(`${o.messaging ? '=' : '!'}${dm(o.lat, 2, 'N', 'S')}${o.symbolTable}${dm(o.lon, 3, 'E', 'W')}${o.symbolCode}${comment}`);
}

/** Addressee padded to nine characters; upper-cased, since stations match callsigns in capitals. */
function addresseeField(addressee: unknown): string | null {
  if (typeof addressee !== 'string') return null;
  const a = addressee.trim().toUpperCase();
  return /^[A-Z0-9_-]{1,9}$/.test(a) ? a.padEnd(9, ' ') : null;
}

/** ":ADDRESSEE:text{id" (APRS 1.01 ch. 14). Text 1-67 printable ASCII without |, ~ or {. */
export function encodeMessage(o: { addressee: string; text: string; msgId?: string | null }): EncodeResult {
  const to = addresseeField(o.addressee);
  if (!to) return fail('addressee must be 1-9 letters, digits, "-" or "_"');
  const text = typeof o.text === 'string' ? o.text : '';
  if (text.length === 0) return fail('message text is empty');
  if (text.length > 67) return fail(`message text is ${text.length} characters, at most 67 allowed`);
  if (!FREE_TEXT.test(text) || text.includes('{')) return fail('message text must be printable ASCII without |, ~ or {');
  // Receivers would take such a text for an acknowledgement or reject.
  if (/^(ack|rej)[A-Za-z0-9]{1,5}\s*$/.test(text)) return fail('message text would be read as an ack/rej');
  const id = o.msgId ?? null;
  if (id !== null && id !== '' && !MSG_ID.test(id)) return fail('message id must be 1-5 letters or digits');
  return ok(`:${to}:${text}${id ? `{${id}` : ''}`);
}

function ackOrRej(kind: 'ack' | 'rej', addressee: string, msgId: string): EncodeResult {
  const to = addresseeField(addressee);
  if (!to) return fail('addressee must be 1-9 letters, digits, "-" or "_"');
  if (typeof msgId !== 'string' || !MSG_ID.test(msgId)) return fail('message id must be 1-5 letters or digits');
  return ok(`:${to}:${kind}${msgId}`);
}

/** ":ADDRESSEE:ackNN", answering message NN from ADDRESSEE. */
export function encodeAck(addressee: string, msgId: string): EncodeResult {
  return ackOrRej('ack', addressee, msgId);
}

/** ":ADDRESSEE:rejNN", refusing message NN from ADDRESSEE. */
export function encodeReject(addressee: string, msgId: string): EncodeResult {
  return ackOrRej('rej', addressee, msgId);
}

/** ">text": status report without timestamp, at most 62 characters (APRS 1.01 ch. 16). */
export function encodeStatus(text: string): EncodeResult {
  const t = typeof text === 'string' ? text : '';
  if (t.length === 0) return fail('status text is empty');
  if (t.length > 62) return fail(`status text is ${t.length} characters, at most 62 allowed`);
  if (!FREE_TEXT.test(t)) return fail('status text must be printable ASCII without | or ~');
  // Six digits and 'z' up front would be read as a timestamp.
  if (/^\d{6}z/.test(t)) return fail('status text must not start like a DDHHMMz timestamp');
  return ok(`>${t}`);
}
