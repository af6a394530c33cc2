import { RIG_MODES, type RigMode } from '../radio/radio-api.js';
import { parseMode, type HamlibMode } from '../ham/hamlib/vocab.js';

// The modes the station sets (the radio's RIG_MODES, spelled as the radios' displays spell them)
// in Hamlib's spelling and back. The list is the radio's; only the spelling is Hamlib's: a data
// mode is "USB-D" on the rig and PKTUSB in Hamlib, the reversed modes lose their dash, DV is
// D-STAR, and every other mode is spelled alike.

const SPELLED_APART: Readonly<Partial<Record<RigMode, HamlibMode>>> = {
  'USB-D': 'PKTUSB', 'LSB-D': 'PKTLSB', 'FM-D': 'PKTFM', 'AM-D': 'PKTAM', 'CW-R': 'CWR', 'RTTY-R': 'RTTYR', DV: 'D-STAR',
};

/** A mode the rig reads back, in Hamlib's spelling (one outside the station's list, such as WFM, as read). */
export const hamlibModeOf = (mode: string): HamlibMode => SPELLED_APART[mode as RigMode] ?? mode;

/** Every mode the station sets, in Hamlib's spelling: what \get_modes lists and \dump_state announces. */
export const HAMLIB_MODES: readonly HamlibMode[] = RIG_MODES.map(hamlibModeOf);

const BY_HAMLIB = new Map<HamlibMode, RigMode>(RIG_MODES.map((m) => [hamlibModeOf(m), m]));

/** A mode word a client sent (any spelling Hamlib parses) as the station's mode; null for one the station does not set. */
export function stationModeOf(word: string): RigMode | null {
  const h = parseMode(word);
  return h === null ? null : (BY_HAMLIB.get(h) ?? null);
}
