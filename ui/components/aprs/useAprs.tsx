import { useActions } from '../useActions';
import { usePoll } from '../usePoll';
import { clock, day, zoneLabel, type Zone } from '../../lib/time';
import type { AprsRuntime, AprsTarget } from '../../../src/aprs/schemas';
import type { AprsSettings } from '../../../src/aprs/settings';

// The APRS page's one source of truth: GET /api/v1/aprs/state every 1.5 s (none while the page
// is hidden), the target list every 15 s; actions POST, show their outcome beside their
// control and read the state again at once (the radio page's pattern).

export type { AprsRuntime, AprsTarget, RecentPacket, HeardStation } from '../../../src/aprs/schemas';
export type { AprsSettings } from '../../../src/aprs/settings';

export interface AprsState {
  settings: AprsSettings;
  runtime: AprsRuntime;
  previewTarget: AprsTarget;
}

export const STATE_URL = '/api/v1/aprs/state';
/** The server holds the state; this only reads its copy. Packets show within this. */
export const STATE_POLL_MS = 1500;
/** Targets move slowly (pass windows, Doppler): read every 15 s and after a selection. */
const TARGETS_POLL_MS = 15_000;

export function useAprs() {
  const poll = usePoll<AprsState>(STATE_URL, STATE_POLL_MS, undefined, { topic: 'aprs' });
  const targets = usePoll<{ items: AprsTarget[] }>('/api/v1/aprs/targets', TARGETS_POLL_MS, undefined, { on: ['aprs', 'passes'] });
  const { busy, outcome, act, say, forget } = useActions('/api/v1/aprs', () => poll.refresh());
  return { poll, state: poll.data, targets, busy, outcome, act, say, forget };
}

export type Aprs = ReturnType<typeof useAprs>;
export { OutcomeLine, words, type Outcome } from '../useActions';

/** "144.800" MHz with three decimals (APRS channels sit on 5 kHz steps, Doppler on 1 kHz). */
export const mhz = (hz: number | null | undefined): string => (hz == null ? '—' : (hz / 1e6).toFixed(3));

/** Server text with UTC instants in it ("AOS 2026-11-23T12:21:59.474Z"), the instants in the display zone. */
export const localTimes = (text: string, zone: Zone): string =>
  text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z/g, (iso) => `${day(iso, zone)} ${clock(iso, zone, true)} ${zoneLabel(zone)}`);

/** Is the transport up or coming up: the emergency stop must be in reach. */
export const live = (rt: AprsRuntime): boolean => rt.connected || rt.sidecar_running || rt.kiss_connected;

/** How the packets reach the air, in words. */
export function transportText(s: AprsSettings): string {
  if (s.transport_mode === 'wifi') return `rig LAN session ${s.wifi_host || '(no host set)'}`;
  if (s.kiss_host) return `external KISS TNC at ${s.kiss_host}:${s.kiss_port}`;
  return `${s.tnc_binary || 'direwolf'} sidecar (KISS on a pseudo-terminal)`;
}

