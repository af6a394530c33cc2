import { asciiBytes } from '../../links/line-reader.js';
import { outOfRange, type Encoded } from './encoded.js';

// Yaesu GS-232A and GS-232B computer control (and the many controllers that emulate them, e.g.
// K3NG firmware). Commands are ASCII ended by CR:
//   W aaa eee  go to azimuth aaa, elevation eee (whole degrees, 3 digits each): no reply
//   C2         read azimuth and elevation
//   S          all stop: no reply
// The two differ in the C2 reply: GS-232A answers "+0aaa+0eee", GS-232B "AZ=aaa  EL=eee" (any
// spacing; a 12PR1A-type controller answers only "AZ=aaa"). Both answer "?>" to a command they
// do not know. Bytes follow Hamlib's rotators/gs232a (gs232a.c, gs232b.c): after a command that
// has no reply, Hamlib's GS-232B backend writes one more CR, and so do we, so our bytes are the
// ones every GS-232B emulation has been tested with.

export type Gs232Variant = 'gs232a' | 'gs232b';

/** What W can carry: 0..450 azimuth (overlap rotators), 0..180 elevation (G-5500 flip). */
export const GS232_AZ = { min: 0, max: 450 };
export const GS232_EL = { min: 0, max: 180 };

function withEnd(variant: Gs232Variant, cmd: string, hasReply: boolean): Uint8Array {
  return asciiBytes(cmd + (variant === 'gs232b' && !hasReply ? '\r\r' : '\r'));
}

export function encodeGoto(variant: Gs232Variant, az_deg: number, el_deg: number): Encoded {
  const az = Math.round(az_deg);
  const el = Math.round(el_deg);
  const bad = outOfRange('az_deg', az, GS232_AZ) ?? outOfRange('el_deg', el, GS232_EL);
  if (bad) return bad;
  const pad = (n: number) => String(n).padStart(3, '0');
  return { kind: 'bytes', bytes: withEnd(variant, `W${pad(az)} ${pad(el)}`, false) };
}

export const encodeReadPosition = (variant: Gs232Variant): Uint8Array => withEnd(variant, 'C2', true);
export const encodeStop = (variant: Gs232Variant): Uint8Array => withEnd(variant, 'S', false);

export type Gs232Reply =
  | { kind: 'position'; az_deg: number; el_deg: number | null }
  /** "?>": the controller did not understand the command. */
  | { kind: 'rejected' }
  | { kind: 'garbled'; text: string };

const A_POSITION = /^\+0(\d{3})\+0(\d{3})$/;
const B_POSITION = /^AZ=\s*(\d{1,3})(?:\s*EL=\s*(\d{1,3}))?$/;

/** One reply line (terminator already stripped) in the variant's own format. */
export function parseReply(variant: Gs232Variant, line: string): Gs232Reply {
  const text = line.trim();
  if (text.startsWith('?')) return { kind: 'rejected' };
  if (variant === 'gs232a') {
    const m = A_POSITION.exec(text);
    if (m) return { kind: 'position', az_deg: Number(m[1]), el_deg: Number(m[2]) };
  } else {
    const m = B_POSITION.exec(text);
    if (m) return { kind: 'position', az_deg: Number(m[1]), el_deg: m[2] === undefined ? null : Number(m[2]) };
  }
  return { kind: 'garbled', text };
}
