import { RIG_MODES } from '../schemas.js';
import { parseMode, type HamlibMode } from '../../ham/hamlib/vocab.js';

// The station's modes (RIG_MODES, spelled as the radios' displays spell them) as a rig behind
// rigctld takes them, and Hamlib's answers spelled back the station's way. Hamlib itself reads
// the dashed spellings (USB-D is PKTUSB, CW-R is CWR); only DV has no Hamlib alias (D-STAR).

const spelled = (mode: string): HamlibMode | null => parseMode(mode) ?? (mode === 'DV' ? 'D-STAR' : null);

const BY_HAMLIB = new Map<HamlibMode, string>(RIG_MODES.map((m) => [spelled(m)!, m]));

/** A mode the station sets, as rigctld's M and X take it; RangeError for one Hamlib does not know. */
export function hamlibModeFor(mode: string): HamlibMode {
  const h = spelled(mode);
  if (h === null) throw new RangeError(`${JSON.stringify(mode)} is no mode Hamlib sets`);
  return h;
}

/** A mode rigctld read back, as the station spells it (one outside RIG_MODES, such as WFM, as Hamlib printed it). */
export const radioModeOf = (mode: string): string => BY_HAMLIB.get(mode) ?? mode;
