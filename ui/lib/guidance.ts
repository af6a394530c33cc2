// Receive-only guidance (issue 27) in words, the same on every page: a satellite heard but not
// worked (beacon, telemetry, SSTV) has a downlink and no uplink, and the operator needs its mode
// and symbol rate to know what they will hear: "↓ 437.525 FM-D 9600 Bd", never an empty uplink.

/** The fields that tell a receive-only recommendation, in MHz (embedded) or Hz (passes, sessions). */
export interface DownlinkOnly {
  receive_only?: boolean;
  uplink_mhz?: number | null;
  uplink_hz?: number | null;
  downlink_mhz?: number | null;
  downlink_hz?: number | null;
}

/**
 * True when there is a downlink to hear and no uplink to work: the API says receive_only, and a
 * pair from an older snapshot without the flag still reads as receive-only when its uplink is null.
 */
export function isReceiveOnly(r: DownlinkOnly): boolean {
  if (r.receive_only) return true;
  const hasDown = r.downlink_mhz != null || r.downlink_hz != null;
  return hasDown && r.uplink_mhz == null && r.uplink_hz == null;
}

/** "9600 Bd"; null when the rate is not known (voice, CW). */
export const baudText = (baud: number | null | undefined): string | null => (baud != null && baud > 0 ? `${Number.isInteger(baud) ? baud : baud.toFixed(1)} Bd` : null);

/** What follows the downlink frequency: "FM-D 9600 Bd", "CW". */
export function listenText(r: { downlink_mode?: string | null; baud?: number | null }): string {
  return [r.downlink_mode ?? '', baudText(r.baud) ?? ''].filter(Boolean).join(' ');
}
