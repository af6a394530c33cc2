import { useState } from 'preact/hooks';
import { errorText, postJson } from '../../lib/api';
import { usePoll } from '../usePoll';
import type { RadioRuntime } from '../../../src/radio/types';
import type { SessionView } from '../../../src/radio/session';
import type { RadioSettings } from '../../../src/radio/settings';

// The radio page's one source of truth: GET /api/v1/radio/state every 1.5 s, and actions that
// POST, show their outcome and refresh the state at once.

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
}

export function useRadio() {
  const poll = usePoll<RadioState>('/api/v1/radio/state', 1500);
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Record<string, Outcome>>({});
  /** Runs one action (keyed for where its outcome shows); the state is read again afterwards. */
  const act = async (key: string, path: string, body: unknown = {}, done = 'done') => {
    setBusy(key);
    try {
      await postJson(`/api/v1/radio${path}`, body);
      setOutcome((o) => ({ ...o, [key]: { ok: true, text: done } }));
    } catch (e) {
      setOutcome((o) => ({ ...o, [key]: { ok: false, text: errorText(e) } }));
    } finally {
      setBusy(null);
      poll.refresh();
    }
  };
  return { poll, state: poll.data, busy, outcome, act };
}

export type Radio = ReturnType<typeof useRadio>;

/** One action's outcome, beside the control that ran it. */
export function OutcomeLine(props: { o?: Outcome; name: string }) {
  if (!props.o) return null;
  return (
    <p class={props.o.ok ? 'ok' : 'bad'} role={props.o.ok ? 'status' : 'alert'} data-outcome={props.name}>
      {props.o.text}
    </p>
  );
}

/** "435.800 000" style: MHz with the kHz and Hz groups a ham reads off a rig. */
export function rigMhz(hz: number | null | undefined): string {
  if (hz == null) return '—';
  const s = (hz / 1e6).toFixed(6);
  return `${s.slice(0, -3)} ${s.slice(-3)}`;
}

/** MHz text from a form to whole Hz, or null when it is not a number. */
export function mhzToHz(text: string): number | null {
  const v = Number(text.trim().replace(',', '.'));
  return Number.isFinite(v) && v > 0 ? Math.round(v * 1e6) : null;
}
