// The modes an operator can name for a QSO (pure): POST /api/v1/logbook/qso `mode` and the Log
// sheet's picker, each with its ADIF MODE and SUBMODE (ADIF 3.1.4: FT4 is MFSK, PSK31 is PSK,
// sideband is SSB). Named the way operators say them, so a picker needs no second table.
import type { AdifMode } from './rig-mode.js';

export const OPERATOR_MODES = {
  FM: { mode: 'FM' },
  USB: { mode: 'SSB', submode: 'USB' },
  LSB: { mode: 'SSB', submode: 'LSB' },
  CW: { mode: 'CW' },
  AM: { mode: 'AM' },
  PKT: { mode: 'PKT' },
  FT8: { mode: 'FT8' },
  FT4: { mode: 'MFSK', submode: 'FT4' },
  PSK31: { mode: 'PSK', submode: 'PSK31' },
  SSTV: { mode: 'SSTV' },
  RTTY: { mode: 'RTTY' },
  DSTAR: { mode: 'DIGITALVOICE', submode: 'DSTAR' },
} as const satisfies Readonly<Record<string, AdifMode>>;

export type OperatorMode = keyof typeof OPERATOR_MODES;

export const OPERATOR_MODE_NAMES = Object.keys(OPERATOR_MODES) as OperatorMode[];
