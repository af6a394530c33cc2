// What every rotator codec's encoder answers: the bytes to send, or why there are none. Encoders
// never throw, so a bad target (NaN from a broken calculation, a position the protocol cannot
// express) is a value the driver turns into a clear error, never a crash in a tracking tick.

export type Encoded = { kind: 'bytes'; bytes: Uint8Array } | { kind: 'unencodable'; field: 'az_deg' | 'el_deg'; message: string };

export interface AxisRange {
  min: number;
  max: number;
}

/** Checks one axis value against what the protocol can carry; null when it fits. */
export function outOfRange(field: 'az_deg' | 'el_deg', value: number, range: AxisRange): Encoded | null {
  if (!Number.isFinite(value)) return { kind: 'unencodable', field, message: `${field} is not a number` };
  if (value < range.min || value > range.max) {
    return { kind: 'unencodable', field, message: `${field} ${value} is outside ${range.min}..${range.max}, which this protocol can carry` };
  }
  return null;
}
