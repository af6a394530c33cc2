// SatNOGS modulation names → the rig mode the receiver is set to (RIG_MODES in src/radio/schemas.ts).
// Audio-tone data over FM (AFSK packet, G3RUH FSK/GMSK/GFSK, DOKA) takes the rig's FM data mode so
// the audio goes to the data port; phase-shift keying is received on SSB (USB-D). Modes a
// transceiver cannot demodulate at all (LoRa, OFDM, QPSK/DVB-S2 wideband) have no rig mode.

const EXACT: Record<string, string> = {
  CW: 'CW',
  FM: 'FM',
  FMN: 'FM',
  SSTV: 'FM',
  DUV: 'FM',
  USB: 'USB',
  LSB: 'LSB',
  AM: 'AM',
  AFSK: 'FM-D',
  FSK: 'FM-D',
  GFSK: 'FM-D',
  GMSK: 'FM-D',
  MSK: 'FM-D',
  DOKA: 'FM-D',
  BPSK: 'USB-D',
  PSK: 'USB-D',
};

/** The rig mode for a SatNOGS mode ("GMSK USP", "AFSK TUBiX10": the first word decides), or null. */
export function rigModeFor(satnogsMode: string | null): string | null {
  if (!satnogsMode) return null;
  const m = satnogsMode.trim().toUpperCase();
  return EXACT[m] ?? EXACT[m.split(/[\s(]/)[0]] ?? null;
}

/** How much a listener gets from a downlink by ear: CW and voice-like FM first, then data. */
export function listenRank(rigMode: string): number {
  if (rigMode === 'CW') return 3;
  if (rigMode === 'FM' || rigMode === 'USB' || rigMode === 'LSB' || rigMode === 'AM') return 2;
  return 1;
}
