import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../lib/api';

/** How long the armed "Confirm" state waits for the second press. */
export const CONFIRM_WINDOW_MS = 5000;

export interface ConfirmButtonProps {
  label: string;
  /** What the armed button says after "Confirm: " (default: the label). */
  confirmLabel?: string;
  action: () => Promise<unknown>;
  /** Shown after the action succeeded, until the next press ("Pass cache cleared"). */
  done?: string;
  class?: string;
  disabled?: boolean;
}

/**
 * A button for actions that cannot be taken back or that key a transmitter: the first press
 * arms it ("Confirm: …"), a second press within 5 s runs the action; Escape, leaving the
 * button or the timeout disarm it, so a stray tap or a key held down never runs it. Busy while
 * the action runs; its error stays beside the button.
 */
export function ConfirmButton(props: ConfirmButtonProps) {
  const [armed, setArmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const disarm = () => {
    clearTimeout(timer.current);
    setArmed(false);
  };
  const press = async () => {
    if (!armed) {
      setOutcome(null);
      setArmed(true);
      timer.current = setTimeout(() => setArmed(false), CONFIRM_WINDOW_MS);
      return;
    }
    disarm();
    setBusy(true);
    try {
      await props.action();
      if (props.done) setOutcome({ ok: true, text: props.done });
    } catch (e) {
      setOutcome({ ok: false, text: errorText(e) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="confirm">
      <button
        type="button"
        class={`${props.class ?? ''}${armed ? ' danger armed' : ''}`}
        disabled={busy || props.disabled}
        aria-busy={busy || undefined}
        data-armed={armed || undefined}
        onClick={press}
        onBlur={disarm}
        onKeyDown={(e) => e.key === 'Escape' && disarm()}
      >
        {busy ? `${props.label}…` : armed ? `Confirm: ${props.confirmLabel ?? props.label}` : props.label}
      </button>
      {/* Announces the armed state and the outcome to screen readers as well. */}
      <span class={outcome ? (outcome.ok ? 'ok' : 'field-error') : 'sr-only'} role="status">
        {outcome ? outcome.text : armed ? 'Press again within 5 seconds to confirm, Escape to cancel' : ''}
      </span>
    </span>
  );
}
