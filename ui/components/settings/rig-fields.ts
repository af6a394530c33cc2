import type { FieldSpec } from '../../lib/schema-form';

// The rig choice as the radio and APRS settings both offer it. The API's values stay rigA/rigB
// (spec); the operator reads the radio's name, and that rigB has not been proven on a radio.
export const RIG_LABELS: Readonly<Record<string, string>> = {
  rigA: 'Icom IC-705',
  rigB: 'Icom IC-9700 (not validated)',
};

export const rigModelField = (help: string): FieldSpec => ({ name: 'rig_model', label: 'Rig', help, optionLabels: RIG_LABELS });
