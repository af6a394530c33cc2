// The four radios of Yaesu's 5-byte CAT family we drive natively, and where they differ.
// The FT-818 is an FT-817 with a 60 m band and more power: same CAT, same EEPROM map. The FT-897
// is an FT-857 in a bigger box: same CAT, same EEPROM map. Between the two pairs the CAT differs
// in the tone-mode codes (the FT-857/897 add decoder-only and encoder-only DCS and a decoder-only
// CTCSS) and in what they do with the second tone pair of 0B (the FT-857/897 need it, see
// commands.ts), and the EEPROM addresses of the VFO, split and DIG sub-mode bits differ.
// Sources: Hamlib rigs/yaesu/ft817.c, ft857.c, ft897.c (4.5.4); docs/decisions/yaesu.md.

export const YAESU_MODELS = ['FT-817', 'FT-818', 'FT-857', 'FT-897'] as const;
export type YaesuModel = (typeof YAESU_MODELS)[number];

export type YaesuFamily = 'FT-817' | 'FT-857';

export interface YaesuModelInfo {
  model: YaesuModel;
  /** Whose CAT it speaks: the FT-818 the FT-817's, the FT-897 the FT-857's. */
  family: YaesuFamily;
  /** Hamlib's model number (rigctl -l). */
  hamlibModel: number;
  /** EEPROM addresses (read with BB): the VFO bit (bit 0: 0 = A, 1 = B), the split bit (bit 7), the DIG sub-mode (top 3 bits). */
  eeprom: { readonly vfo: number; readonly split: number; readonly digMode: number };
}

const FT817_EEPROM = Object.freeze({ vfo: 0x55, split: 0x7a, digMode: 0x65 });
const FT857_EEPROM = Object.freeze({ vfo: 0x68, split: 0x8d, digMode: 0x78 });

const INFO: Readonly<Record<YaesuModel, YaesuModelInfo>> = Object.freeze({
  'FT-817': Object.freeze({ model: 'FT-817', family: 'FT-817', hamlibModel: 1020, eeprom: FT817_EEPROM }),
  'FT-818': Object.freeze({ model: 'FT-818', family: 'FT-817', hamlibModel: 1041, eeprom: FT817_EEPROM }),
  'FT-857': Object.freeze({ model: 'FT-857', family: 'FT-857', hamlibModel: 1022, eeprom: FT857_EEPROM }),
  'FT-897': Object.freeze({ model: 'FT-897', family: 'FT-857', hamlibModel: 1023, eeprom: FT857_EEPROM }),
} satisfies Record<YaesuModel, YaesuModelInfo>);

/** The model's facts; throws RangeError on a name that is not one of YAESU_MODELS (a caller's bug, not radio input). */
export function modelInfo(model: YaesuModel): YaesuModelInfo {
  const info = (INFO as Record<string, YaesuModelInfo | undefined>)[model];
  if (!info) throw new RangeError(`${JSON.stringify(model)} is not one of ${YAESU_MODELS.join(', ')}`);
  return info;
}
