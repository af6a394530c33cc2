// Operating-mode bytes shared by 01/04/06 and the mode field of 26 (Icom CI-V reference;
// Hamlib icom_defs.h S_LSB..S_DD). Data mode is not a mode byte: 26 carries it as its own
// field (00 off / 01 on), and names spell it with a "-D" suffix as the radios' displays do.

export const MODE_CODES: Readonly<Record<string, number>> = Object.freeze({
  LSB: 0x00,
  USB: 0x01,
  AM: 0x02,
  CW: 0x03,
  RTTY: 0x04,
  FM: 0x05,
  WFM: 0x06,
  'CW-R': 0x07,
  'RTTY-R': 0x08,
  DV: 0x17, // D-STAR
  DD: 0x22, // IC-9700, 1.2 GHz band only
});

/** Modes the radios can run with data mode on (USB-D, LSB-D, AM-D, FM-D). */
export const DATA_CAPABLE: ReadonlySet<string> = new Set(['LSB', 'USB', 'AM', 'FM']);

/** Filter bytes: FIL1, FIL2, FIL3. */
export type Filter = 1 | 2 | 3;

const NAMES = new Map<number, string>(Object.entries(MODE_CODES).map(([n, c]) => [c, n]));

// Every accepted spelling (upper case) -> its bytes; built once so lookups are one Map.get.
const LOOKUP = new Map<string, { code: number; data: boolean }>();
for (const [n, code] of Object.entries(MODE_CODES)) {
  LOOKUP.set(n, Object.freeze({ code, data: false }));
  if (DATA_CAPABLE.has(n)) LOOKUP.set(`${n}-D`, Object.freeze({ code, data: true }));
}
// Spellings other software uses for the same modes.
for (const [alias, n] of Object.entries({ CWR: 'CW-R', RTTYR: 'RTTY-R', PKTUSB: 'USB-D', PKTLSB: 'LSB-D', PKTFM: 'FM-D', PKTAM: 'AM-D' })) {
  LOOKUP.set(alias, LOOKUP.get(n)!);
}

/** 'USB-D' -> { code: 0x01, data: true }; case-insensitive; unknown (or "-D" on a mode without data) -> null. */
export function modeByte(name: string): { code: number; data: boolean } | null {
  if (typeof name !== 'string') return null;
  const hit = LOOKUP.get(name) ?? LOOKUP.get(name.trim().toUpperCase());
  return hit ? { code: hit.code, data: hit.data } : null;
}

/** 0x01 -> 'USB', (0x01, true) -> 'USB-D'; unknown code, or data on a mode without it -> null. */
export function modeName(code: number, data = false): string | null {
  const n = NAMES.get(code);
  if (n === undefined) return null;
  if (!data) return n;
  return DATA_CAPABLE.has(n) ? `${n}-D` : null;
}
