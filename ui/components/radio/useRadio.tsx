import { useState } from 'preact/hooks';
import { ApiError, errorText, postJson } from '../../lib/api';
import { usePoll } from '../usePoll';
import type { RadioRuntime } from '../../../src/radio/types';
import type { SessionView } from '../../../src/radio/session';
import type { RadioSettings } from '../../../src/radio/settings';

// The radio page's one source of truth: GET /api/v1/radio/state every 1.5 s (none while the
// page is hidden), and actions that POST, show their outcome beside their control and read
// the state again at once.

export type { RadioRuntime } from '../../../src/radio/types';
export type RadioSession = SessionView;

export interface RadioState {
  settings: RadioSettings;
  runtime: RadioRuntime;
  session: SessionView;
}

export interface Outcome {
  ok: boolean;
  text: string;
  /** The API's error code (not_eligible, session_state, rig_timeout…) when it failed. */
  code?: string;
}

/** How often the page reads the state: the server polls the rig; this only reads its copy. */
export const STATE_POLL_MS = 1500;

export function useRadio() {
  const poll = usePoll<RadioState>('/api/v1/radio/state', STATE_POLL_MS);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Record<string, Outcome>>({});
  const say = (key: string, o: Outcome) => setOutcome((all) => ({ ...all, [key]: o }));
  /**
   * Runs one action, keyed by where its outcome shows; `done` words the success from the
   * answer. One action at a time: every action button is disabled while one runs.
   */
  const act = async <T = unknown,>(key: string, path: string, body: unknown, done: string | ((answer: T) => string)): Promise<T | null> => {
    setBusy(key);
    try {
      const answer = await postJson<T>(`/api/v1/radio${path}`, body);
      say(key, { ok: true, text: typeof done === 'string' ? done : done(answer) });
      return answer;
    } catch (e) {
      say(key, { ok: false, text: errorText(e), code: e instanceof ApiError ? e.code : undefined });
      return null;
    } finally {
      setBusy(null);
      poll.refresh();
    }
  };
  return { poll, state: poll.data, busy, outcome, act, say };
}

export type Radio = ReturnType<typeof useRadio>;

/** One action's outcome, beside the control that ran it. */
export function OutcomeLine(props: { o?: Outcome; name: string }) {
  if (!props.o) return null;
  return (
    <p class={`outcome ${props.o.ok ? 'ok' : 'bad'}`} role={props.o.ok ? 'status' : 'alert'} data-outcome={props.name} data-code={props.o.code}>
      {props.o.ok ? '✓ ' : '✗ '}
      {props.o.text}
    </p>
  );
}

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

/** "manual applied" from "manual_applied". */
export const words = (s: string): string => s.replace(/_/g, ' ');
