// Hamlib's names and bit values for modes, VFOs and PTT types (include/hamlib/rig.h and
// src/misc.c of Hamlib 4.5): the words that travel in rigctld's lines and the bits that travel
// in \dump_state. Only names Hamlib itself prints or parses are here.

/** rmode_t bits by Hamlib's mode name (rig_strrmode prints the first name of a bit). */
const MODE_BITS: Readonly<Record<string, number>> = {
  AM: 0, CW: 1, USB: 2, LSB: 3, RTTY: 4, FM: 5, WFM: 6, CWR: 7, RTTYR: 8, AMS: 9,
  PKTLSB: 10, PKTUSB: 11, PKTFM: 12, ECSSUSB: 13, ECSSLSB: 14, FAX: 15, SAM: 16, SAL: 17, SAH: 18,
  DSB: 19, FMN: 21, PKTAM: 22, P25: 23, 'D-STAR': 24, DPMR: 25, 'NXDN-VN': 26, 'NXDN-N': 27, DCR: 28,
  AMN: 29, PSK: 30, PSKR: 31, DD: 32, C4FM: 33, PKTFMN: 34, SPEC: 35, CWN: 36, IQ: 37, ISBUSB: 38, ISBLSB: 39,
};

/** Other spellings rig_parse_mode accepts for the same bit. */
const MODE_ALIASES: Readonly<Record<string, string>> = {
  'AM-D': 'PKTAM', 'FM-D': 'PKTFM', 'CW-R': 'CWR', 'RTTY-R': 'RTTYR', 'LSB-D': 'PKTLSB', 'USB-D': 'PKTUSB',
};

export type HamlibMode = keyof typeof MODE_BITS & string;

/** A mode name as a client sent it, in Hamlib's canonical spelling; null when Hamlib would not know it. */
export function parseMode(word: string): HamlibMode | null {
  if (Object.hasOwn(MODE_BITS, word)) return word;
  return Object.hasOwn(MODE_ALIASES, word) ? MODE_ALIASES[word] : null;
}

/** The rmode_t bitmask of a set of modes (64-bit in Hamlib, so a bigint here). */
export function modeMask(modes: readonly HamlibMode[]): bigint {
  let mask = 0n;
  for (const m of modes) mask |= 1n << BigInt(MODE_BITS[m]);
  return mask;
}

/** vfo_t bits by the name rig_strvfo prints and rig_parse_vfo reads. */
const VFO_BITS: Readonly<Record<string, number>> = {
  VFOA: 1 << 0, VFOB: 1 << 1, VFOC: 1 << 2, SubC: 1 << 3, MainC: 1 << 4, otherVFO: 1 << 5,
  SubA: 1 << 21, SubB: 1 << 22, MainA: 1 << 23, MainB: 1 << 24, Sub: 1 << 25, Main: 1 << 26,
  VFO: 1 << 27, MEM: 1 << 28, currVFO: 1 << 29,
  // RIG_VFO_TX is currVFO with the TX flag (bit 30); RX is currVFO itself.
  TX: (1 << 29) | (1 << 30), RX: 1 << 29, AllVFOs: 2 ** 31,
};

export type HamlibVfo = keyof typeof VFO_BITS & string;

/** A VFO name as Hamlib spells it ("VFOA", "currVFO", "Main"...), or null ("None" included: rig_parse_vfo's failure). */
export function parseVfo(word: string): HamlibVfo | null {
  return Object.hasOwn(VFO_BITS, word) ? word : null;
}

/** The vfo_t bitmask of a set of VFOs (32-bit unsigned in Hamlib). */
export function vfoMask(vfos: readonly HamlibVfo[]): number {
  let mask = 0;
  for (const v of vfos) mask = (mask | VFO_BITS[v]) >>> 0;
  return mask;
}

/** ptt_type_t: how the rig is keyed. MICDATA is CAT PTT that tells mic from data (Hamlib's netrigctl keeps it). */
export const PttType = { NONE: 0, RIG: 1, SERIAL_DTR: 2, SERIAL_RTS: 3, PARALLEL: 4, RIG_MICDATA: 5, CM108: 6, GPIO: 7, GPION: 8 } as const;
export type PttTypeName = keyof typeof PttType;
