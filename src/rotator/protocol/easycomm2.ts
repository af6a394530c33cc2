import { asciiBytes } from '../../links/line-reader.js';
import { outOfRange, type Encoded } from './encoded.js';

// EasyComm II (WiSP's rotator standard; SatNOGS rotator firmware and many homebrew controllers).
// Two-letter commands with their value, separated by spaces, the line ended by LF:
//   AZ123.4 EL45.6   go to (one decimal each): no reply
//   AZ / EL          query: answered by an echo of the command with the value, "AZ123.4"
//   SA SE            stop azimuth, stop elevation: no reply
// Bytes follow Hamlib's rotators/easycomm/easycomm.c (model 202): the position is read with
// "AZ\n" then "EL\n", and stop is "SA SE \n". Some controllers answer "AZ" with both values on
// one line ("AZ123.4 EL45.6"); the parser takes whichever values a line carries.

/** Hamlib's limits for EasyComm II: 0..360 azimuth, 0..180 elevation. */
export const EASYCOMM_AZ = { min: 0, max: 360 };
export const EASYCOMM_EL = { min: 0, max: 180 };

export function encodeGoto(az_deg: number, el_deg: number): Encoded {
  const bad = outOfRange('az_deg', az_deg, EASYCOMM_AZ) ?? outOfRange('el_deg', el_deg, EASYCOMM_EL);
  if (bad) return bad;
  return { kind: 'bytes', bytes: asciiBytes(`AZ${az_deg.toFixed(1)} EL${el_deg.toFixed(1)}\n`) };
}

export const encodeQueryAz = (): Uint8Array => asciiBytes('AZ\n');
export const encodeQueryEl = (): Uint8Array => asciiBytes('EL\n');
export const encodeStop = (): Uint8Array => asciiBytes('SA SE \n');

export type EasycommReply =
  /** At least one of the two is set. */
  | { kind: 'position'; az_deg: number | null; el_deg: number | null }
  | { kind: 'garbled'; text: string };

const NUMBER = /^[+-]?\d+(?:\.\d+)?$/;

/** One reply line: "AZ123.4", "EL45.6", or both separated by spaces. Anything else is garbled. */
export function parseReply(line: string): EasycommReply {
  const text = line.trim();
  let az: number | null = null;
  let el: number | null = null;
  for (const word of text.split(/\s+/)) {
    const key = word.slice(0, 2);
    const value = word.slice(2);
    if ((key !== 'AZ' && key !== 'EL') || !NUMBER.test(value)) return { kind: 'garbled', text };
    if (key === 'AZ') az = Number(value);
    else el = Number(value);
  }
  if (az === null && el === null) return { kind: 'garbled', text };
  return { kind: 'position', az_deg: az, el_deg: el };
}
