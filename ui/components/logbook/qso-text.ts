import type { OperatorMode } from '../../../src/logbook/operator-modes';
import type { PushState, QsoRecord } from '../../../src/logbook/schemas';
import type { Tone } from '../StatusBadge';

// How a logged QSO reads on every page: what the station filled in, and where its push stands.

const mhz3 = (x: number) => x.toFixed(3);

/** "ARISS U/V · FM · ↑145.990 ↓437.800": the satellite, mode and frequencies the station filled in. */
export function qsoFilled(q: QsoRecord): string {
  const sat = q.sat_name ?? q.sat_id;
  const parts = [sat ? [sat, q.sat_mode].filter(Boolean).join(' ') : 'no satellite'];
  if (q.mode) parts.push(q.submode ? `${q.mode} ${q.submode}` : q.mode);
  const freqs = [q.freq_mhz != null && `↑${mhz3(q.freq_mhz)}`, q.freq_rx_mhz != null && `↓${mhz3(q.freq_rx_mhz)}`].filter(Boolean).join(' ');
  parts.push(freqs || 'no frequency');
  return parts.join(' · ');
}

/**
 * The push state in words and colour: 'pending' reads as waiting for the logger (not as a fault),
 * or, with the push off, as what it is: not pushed, nothing waits (grey).
 */
export function pushBadge(state: PushState, pushOn: boolean): { tone: Tone; text: string } {
  if (state === 'pending') return pushOn ? { tone: 'warn', text: 'push pending' } : { tone: 'idle', text: 'not pushed (push off)' };
  return state === 'pushed' ? { tone: 'ok', text: 'pushed' } : { tone: 'bad', text: 'push failed' };
}

/** An APRS source as a loggable call: the SSID goes ("DL1ABC-7" → "DL1ABC"); null for what is not a call. */
export function heardCall(source: string): string | null {
  const base = source.trim().toUpperCase().replace(/-\d{1,2}$/, '');
  return /^[A-Z0-9]{1,3}[0-9][A-Z0-9]{0,3}[A-Z](\/[A-Z0-9]{1,4})?$/.test(base) ? base : null;
}

/**
 * The Log sheet's mode picker, in the server's order: every mode POST /logbook/qso takes (the
 * type makes a mode the server adds or drops a build error here), as the operator says it.
 */
export const MODE_LABELS: Readonly<Record<OperatorMode, string>> = {
  FM: 'FM',
  USB: 'USB',
  LSB: 'LSB',
  CW: 'CW',
  AM: 'AM',
  PKT: 'Packet',
  FT8: 'FT8',
  FT4: 'FT4',
  PSK31: 'PSK31',
  SSTV: 'SSTV',
  RTTY: 'RTTY',
  DSTAR: 'D-STAR',
};
