// What a logbook accepts as a callsign (pure). A worked station's call is wider than the APRS
// identity rule in ham/callsign.ts: it can carry a portable prefix or suffix ("VE3/W1AW",
// "W1AW/P", "DL/G4ABC/MM"), and real calls fall outside the six-character AX.25 form: three-
// character prefixes (3DA0RU, 4U1ITU) and special-event calls with several digits (GB70RSGB).
// The base call (the longest slash part) is checked with the project's rule first; only when
// that refuses it does the wider ITU form apply, and a placeholder (N0CALL) stays refused.
import { callsignProblem } from '../ham/callsign.js';

/** ADIF CALL has no fixed length; 13 holds the longest portable forms (XX9/AB1CDE/QRP is 14: refused as noise). */
export const CALL_MAX = 13;
/** ITU form: prefix of 1–3 letters/digits with a letter, 1–4 digits, suffix ending in a letter. */
const WIDE_BASE = /^(?=[A-Z0-9]{0,2}[A-Z])[A-Z0-9]{1,3}[0-9]{1,4}[A-Z0-9]{0,3}[A-Z]$/;
/** A portable part: a prefix ("VE3", "DL") or an indicator ("P", "M", "MM", "QRP", "7"). */
const PART = /^[A-Z0-9]{1,4}$/;

export const normalizeCall = (call: string): string => call.trim().toUpperCase();

/** Why `call` (already normalized) cannot be logged, or null. */
export function loggableCallProblem(call: string): string | null {
  if (call === '') return 'must not be empty';
  if (call.length > CALL_MAX) return `at most ${CALL_MAX} characters`;
  if (!/^[A-Z0-9/]+$/.test(call)) return 'letters, digits and / only';
  const parts = call.split('/');
  if (parts.length > 3 || parts.some((p) => p === '')) return 'at most two / between non-empty parts';
  const base = parts.reduce((a, p) => (p.length > a.length ? p : a));
  const own = callsignProblem(base);
  if (own !== null) {
    // The project's rule names placeholders explicitly; the wider form must not let them through.
    if (/placeholder/.test(own)) return own;
    if (!WIDE_BASE.test(base)) return 'not a callsign: prefix, digit(s), suffix ending in a letter';
  }
  return parts.every((p) => p === base || PART.test(p)) ? null : 'a portable part has 1–4 letters/digits';
}
