// Operating modes as the 5-byte CAT spells them. Command 07 takes the code in P1; the 03 reply
// carries it in its fifth byte with bit 7 meaning "narrow filter" (so FM-N reads back as 88, and
// CW with the narrow filter as 82). DIG is the radio's digital mode, whose sideband and flavour
// (RTTY, PSK, USER-L/U) are a menu setting the CAT cannot set, only read from EEPROM; PKT is FM
// packet. WFM (broadcast receive) can be read but not set: Hamlib sets none for the FT-817 and
// maps it to FM for the FT-857, so we refuse it instead of quietly changing it.
// Sources: Hamlib rigs/yaesu/ft817.c / ft857.c (ncmd table, get_mode).

export const YAESU_MODES = ['LSB', 'USB', 'CW', 'CW-R', 'AM', 'WFM', 'FM', 'FM-N', 'DIG', 'PKT'] as const;
export type YaesuMode = (typeof YAESU_MODES)[number];

/** P1 of command 07 for every mode the radio accepts by CAT. */
export const SET_MODE_CODES: Readonly<Partial<Record<YaesuMode, number>>> = Object.freeze({
  LSB: 0x00, USB: 0x01, CW: 0x02, 'CW-R': 0x03, AM: 0x04, FM: 0x08, 'FM-N': 0x88, DIG: 0x0a, PKT: 0x0c,
});

/** The low 7 bits of the 03 reply's mode byte. */
const READ_NAMES = new Map<number, YaesuMode>([
  [0x00, 'LSB'], [0x01, 'USB'], [0x02, 'CW'], [0x03, 'CW-R'], [0x04, 'AM'], [0x06, 'WFM'], [0x08, 'FM'], [0x0a, 'DIG'], [0x0c, 'PKT'],
]);

export const NARROW_BIT = 0x80;

// Spellings the rest of the station (and Hamlib) use for the same modes. USB-D/PKTUSB go to DIG
// as Hamlib sends them; the operator sets DIG to a USB flavour on the radio (menu "DIG MODE").
const ALIASES: Readonly<Record<string, YaesuMode>> = Object.freeze({
  CWR: 'CW-R', 'USB-D': 'DIG', PKTUSB: 'DIG', 'FM-D': 'PKT', PKTFM: 'PKT', FMN: 'FM-N',
});

/** 'USB' -> 0x01, 'USB-D' -> 0x0A (DIG), case-insensitive; null for a mode the radio cannot be set to by CAT. */
export function setModeCode(name: string): number | null {
  if (typeof name !== 'string') return null;
  const up = name.trim().toUpperCase();
  const mode = (ALIASES[up] ?? up) as YaesuMode;
  return SET_MODE_CODES[mode] ?? null;
}

// Every mode byte's meaning, built once: the poll loop reads one each tick and gets a shared,
// frozen answer instead of a new object.
const READ_TABLE: ReadonlyArray<Readonly<{ mode: YaesuMode; narrow: boolean }> | null> = Array.from({ length: 256 }, (_, byte) => {
  const base = READ_NAMES.get(byte & 0x7f);
  if (base === undefined) return null;
  const narrow = (byte & NARROW_BIT) !== 0;
  return Object.freeze({ mode: base === 'FM' && narrow ? 'FM-N' : base, narrow });
});

/** The mode byte of a 03 reply -> its mode and narrow flag; null for a code no radio of the family sends. */
export function readMode(byte: number): Readonly<{ mode: YaesuMode; narrow: boolean }> | null {
  return READ_TABLE[byte & 0xff] ?? null;
}
