// The station's rules a network PTT obeys beyond the Hamlib settings' allow_ptt (issue 26): the
// ones every transmit of the station obeys, in the order the operator should read them (the
// emergency stop first, as in the APRS transmit gate). hamlib/ names what it reads structurally,
// so it imports neither the APRS side nor the operator lock; the composition root hands them over.

/** What the rule reads of the station: the APRS service and the access service as they are. */
export interface TransmitRules {
  /** The APRS side: the emergency stop (in force until its next connect) and the station identity. */
  aprs: { readonly emergencyStopped: boolean; identity(): { valid: boolean; reason?: string } };
  /** The operator lock. */
  access: { locked(): boolean };
}

/** Why a network client may not key the rig now; null when it may. */
export function networkPttBlock(s: TransmitRules): string | null {
  if (s.aprs.emergencyStopped) return 'emergency stop in force (until the next APRS connect)';
  if (s.access.locked()) return 'the station is locked: a locked station takes no PTT from the network';
  const id = s.aprs.identity();
  if (!id.valid) return `station callsign not valid: ${id.reason ?? 'set the callsign in the APRS settings'}`;
  return null;
}
