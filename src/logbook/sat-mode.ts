// Satellite operating mode (pure): ADIF SAT_MODE as AMSAT and LoTW loggers write it, one band
// letter for the uplink, a slash, one for the downlink: "V/U" (2 m up, 70 cm down, SO-50),
// "U/V" (the linear birds' 70 cm up, 2 m down), "L/U", "S/X" (QO-100). The letters are AMSAT's
// band names; a band without one gives no SAT_MODE rather than a made-up letter.
import { adifBandOfHz } from './bands.js';

/** ADIF band → AMSAT band letter. */
const LETTER_OF_BAND: Readonly<Record<string, string>> = {
  '15m': 'H',
  '10m': 'A',
  '2m': 'V',
  '70cm': 'U',
  '23cm': 'L',
  '13cm': 'S',
  '9cm': 'S2',
  '6cm': 'C',
  '3cm': 'X',
  '1.25cm': 'K',
  '6mm': 'R',
};

/** ADIF PROP_MODE of every QSO through a satellite. */
export const PROP_MODE_SATELLITE = 'SAT';

export function bandLetterOfHz(hz: number): string | null {
  const band = adifBandOfHz(hz);
  return band ? (LETTER_OF_BAND[band] ?? null) : null;
}

/** "U/V" from uplink and downlink in hertz; null when either is missing or has no AMSAT letter. */
export function satModeOf(uplinkHz: number | null, downlinkHz: number | null): string | null {
  if (uplinkHz == null || downlinkHz == null) return null;
  const up = bandLetterOfHz(uplinkHz);
  const down = bandLetterOfHz(downlinkHz);
  return up && down ? `${up}/${down}` : null;
}
