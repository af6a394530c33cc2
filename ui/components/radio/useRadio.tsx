import { useState } from 'preact/hooks';
import { errorText, postJson } from '../../lib/api';
import { usePoll } from '../usePoll';

// The radio page's one source of truth: GET /api/v1/radio/state every 1.5 s, and actions that
// POST, show their outcome and refresh the state at once.

export interface RadioRuntime {
  connected: boolean;
  control_mode: string;
  active_sat_id: string | null;
  last_poll_at: string | null;
  last_error: string | null;
  targets: { vfo_a_freq_hz: number | null; vfo_b_freq_hz: number | null; vfo_a_mode: string | null; vfo_b_mode: string | null };
  raw_state: { selected_vfo: string | null; split_enabled: boolean | null; scope_enabled: boolean | null };
  capabilities: { model: string; radio: string; validated: boolean; validation_note: string; target_mapping: { tx: string; rx: string } } | null;
  auto_track: { sat_id: string; interval_ms: number; owner: string; writes: number; targets: { rx_hz: number; tx_hz: number | null } | null; knob: { following: boolean; last_follow_at: string | null; note: string | null } } | null;
}

export interface RadioSession {
  active: boolean;
  selected_sat_id: string | null;
  sat_name: string | null;
  pass_aos: string | null;
  pass_los: string | null;
  max_el_deg: number | null;
  screen_state: string;
  control_state: string;
  is_eligible: boolean;
  eligibility_reason?: string;
  has_test_pair: boolean;
  test_pair: { uplink_hz: number | null; downlink_hz: number; uplink_mode: string; downlink_mode: string; source: string } | null;
  ended_reason: string | null;
}

export interface RadioState {
  settings: { enabled: boolean; rig_model: string; serial_device: string; baud_rate: number; civ_address: string };
  runtime: RadioRuntime;
  session: RadioSession;
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
