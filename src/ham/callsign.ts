// Station identity (system state `stationIdentity`): is the saved APRS callsign/SSID pair
// good enough for APRS send actions? Pure. identityOf is the one place the station's identity is
// computed from its settings: the APRS side, system state, the lite snapshot, the Hamlib PTT rule
// and the logbook all read that one value.
//
// Rule: a prefix of 1–2 letters/digits that contains a letter (every ITU prefix does: W, DL,
// 9A, 2E), one digit, a suffix of 1–4 letters; at most 6 characters in all (the AX.25 address
// field holds six); SSID an integer 0–15. Placeholders (N0CALL, NOCALL) and portable forms with
// a slash are refused: they cannot go into an AX.25 source address.

const CALLSIGN = /^(?=[A-Z0-9]{0,1}[A-Z])[A-Z0-9]{1,2}[0-9][A-Z]{1,4}$/;
const PLACEHOLDERS = new Set(['N0CALL', 'NOCALL', 'MYCALL']);

export interface StationIdentity {
  valid: boolean;
  /** Callsign plus SSID as it goes on the air: `CALL` for SSID 0, else `CALL-SSID`. */
  callsign: string;
  /** Why it is invalid (absent when valid). */
  reason?: string;
}

export function callsignProblem(callsign: string): string | null {
  const c = callsign.trim().toUpperCase();
  if (c === '') return 'no callsign set';
  if (PLACEHOLDERS.has(c)) return `${c} is a placeholder, not a callsign`;
  if (c.length > 6) return 'a callsign has at most 6 characters (AX.25 address)';
  if (!CALLSIGN.test(c)) return 'not a callsign: 1–2 character prefix with a letter, one digit, 1–4 letter suffix';
  return null;
}

export function ssidProblem(ssid: number): string | null {
  return Number.isInteger(ssid) && ssid >= 0 && ssid <= 15 ? null : 'SSID must be an integer 0–15';
}

export function stationIdentity(callsign: string, ssid: number): StationIdentity {
  const c = callsign.trim().toUpperCase();
  const shown = ssid === 0 || !Number.isFinite(ssid) ? c : `${c}-${ssid}`;
  const reason = callsignProblem(c) ?? ssidProblem(ssid);
  return reason ? { valid: false, callsign: shown, reason } : { valid: true, callsign: shown };
}

const identities = new WeakMap<object, StationIdentity>();

/**
 * The identity of saved settings, computed once per settings object: stores hand out a new object
 * on every change, so a changed callsign or SSID is seen at once and an unchanged one costs nothing.
 */
export function identityOf(s: { readonly callsign: string; readonly ssid: number }): StationIdentity {
  let id = identities.get(s);
  if (!id) identities.set(s, (id = stationIdentity(s.callsign, s.ssid)));
  return id;
}
