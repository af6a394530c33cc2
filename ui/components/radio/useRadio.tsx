import { useActions } from '../useActions';
import { usePoll } from '../usePoll';
import type { RadioRuntime } from '../../../src/radio/types';
import type { SessionView } from '../../../src/radio/session';
import type { RadioSettings } from '../../../src/radio/settings';

// The radio page's one source of truth: GET /api/v1/radio/state every 1.5 s (none while the
// page is hidden), and actions that POST, show their outcome beside their control and read
// the state again at once.

export type { Leg, RadioRuntime } from '../../../src/radio/types';
export type RadioSession = SessionView;

export interface RadioState {
  settings: RadioSettings;
  runtime: RadioRuntime;
  session: SessionView;
}

/** How often the page reads the state: the server polls the rig; this only reads its copy. */
export const STATE_POLL_MS = 1500;

export function useRadio() {
  const poll = usePoll<RadioState>('/api/v1/radio/state', STATE_POLL_MS, undefined, { topic: 'radio' });
  const { busy, outcome, act, say } = useActions('/api/v1/radio', () => poll.refresh());
  return { poll, state: poll.data, busy, outcome, act, say };
}

export type Radio = ReturnType<typeof useRadio>;
export { OutcomeLine, words, type Outcome } from '../useActions';

/** "435.800 000" style: MHz with the Hz group a ham reads off a rig's display. */
export function rigMhz(hz: number | null | undefined): string {
  if (hz == null) return '—';
  const s = (hz / 1e6).toFixed(6);
  return `${s.slice(0, -3)} ${s.slice(-3)}`;
}

/** MHz text from a form to whole Hz, or null when it is not a positive number. */
export function mhzToHz(text: string): number | null {
  const t = text.trim().replace(',', '.');
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(t)) return null;
  const v = Number(t);
  return Number.isFinite(v) && v > 0 ? Math.round(v * 1e6) : null;
}

