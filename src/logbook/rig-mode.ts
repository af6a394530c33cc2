// Rig mode → ADIF MODE and SUBMODE (pure). ADIF 3.1.4's Mode enumeration puts sideband under
// SSB (SUBMODE USB/LSB) and D-STAR under DIGITALVOICE (SUBMODE DSTAR); the reversed CW and RTTY
// of a rig are still CW and RTTY on the air. A rig's data modes only say "data through the
// audio path": FM-D and AM-D on a satellite are AFSK packet (the ISS and the APRS digipeaters),
// which ADIF calls PKT; USB-D/LSB-D carry FT4, FT8, PSK31 or SSTV alike, which the rig cannot
// tell apart, so they map to nothing and the record leaves MODE out rather than guess.

export interface AdifMode {
  mode: string;
  /** Absent when ADIF has no submode for it. */
  submode?: string;
}

const MODES: Readonly<Record<string, AdifMode>> = {
  FM: { mode: 'FM' },
  USB: { mode: 'SSB', submode: 'USB' },
  LSB: { mode: 'SSB', submode: 'LSB' },
  AM: { mode: 'AM' },
  CW: { mode: 'CW' },
  'CW-R': { mode: 'CW' },
  RTTY: { mode: 'RTTY' },
  'RTTY-R': { mode: 'RTTY' },
  DV: { mode: 'DIGITALVOICE', submode: 'DSTAR' },
  'FM-D': { mode: 'PKT' },
  'AM-D': { mode: 'PKT' },
};

/** The ADIF mode of a rig mode (FM, USB, CW-R, DV, FM-D, …), or null when ADIF cannot be told. */
export function adifModeOfRig(rigMode: string | null | undefined): AdifMode | null {
  if (!rigMode) return null;
  return MODES[rigMode.trim().toUpperCase()] ?? null;
}
