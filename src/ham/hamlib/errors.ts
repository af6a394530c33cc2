// Hamlib's error codes as its daemons send them: "RPRT -n", n from enum rig_errcode_e in
// include/hamlib/rig.h (Hamlib 4.5). Clients match these numbers (gpredict checks "RPRT 0" after
// a set, WSJT-X maps them to messages), so the names follow Hamlib's, not ours.

export const HamlibError = {
  OK: 0,
  /** Invalid parameter: a bad argument, a missing one, or a line that is no command. */
  EINVAL: -1,
  ECONF: -2,
  ENOMEM: -3,
  /** Not implemented yet: SDRangel answered this to \chk_vfo and WSJT-X gave up; we never send it for a command we know. */
  ENIMPL: -4,
  ETIMEOUT: -5,
  EIO: -6,
  EINTERNAL: -7,
  EPROTO: -8,
  /** Command rejected: the station refuses (a session owns the rig, the lock, a transmit rule). */
  ERJCTED: -9,
  ETRUNC: -10,
  /** Function not available: a Hamlib command this station does not offer. */
  ENAVAIL: -11,
  ENTARGET: -12,
  BUSERROR: -13,
  BUSBUSY: -14,
  EARG: -15,
  EVFO: -16,
  EDOM: -17,
  EDEPRECATED: -18,
  ESECURITY: -19,
  EPOWER: -20,
} as const;

export type HamlibErrorCode = (typeof HamlibError)[keyof typeof HamlibError];

/** What each code means, in Hamlib's words (rigerror_table in src/misc.c), shortened; index is -code. */
const HAMLIB_ERROR_TEXT = ['ok', 'invalid parameter', 'invalid configuration', 'memory shortage', 'not implemented', 'communication timed out', 'IO error', 'internal Hamlib error', 'protocol error', 'command rejected', 'truncated', 'not available', 'target VFO unaccessible', 'communication bus error', 'communication bus collision', 'NULL argument', 'invalid VFO', 'argument out of domain', 'deprecated', 'security error', 'rig not powered on'];

export function hamlibErrorText(code: number): string {
  return HAMLIB_ERROR_TEXT[Math.abs(code)] ?? 'unknown error';
}
