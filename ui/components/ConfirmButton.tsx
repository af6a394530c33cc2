import { useEffect, useRef, useState } from 'preact/hooks';
import { errorText } from '../lib/api';

/** How long the armed "Confirm" state waits for the second press. */
export const CONFIRM_WINDOW_MS = 5000;

/**
 * A button for actions that cannot be taken back or that key a transmitter: the first press
 * arms it ("Confirm: …"), a second press within 5 s runs the action; Escape, blur or the
 * timeout disarm it. Shows busy while the action runs and its error if it fails.
 */
export function ConfirmButton(props: { label: string; confirmLabel?: string; action: () => Promise<unknown>; class?: string; disabled?: boolean }) {
  const [armed, setArmed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const disarm = () => {
    clearTimeout(timer.current);
    setArmed(false);
  };
  const press = async () => {
    if (!armed) {
      setError(null);
      setArmed(true);
      timer.current = setTimeout(() => setArmed(false), CONFIRM_WINDOW_MS);
      return;
    }
    disarm();
    setBusy(true);
    try {
      await props.action();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <span class="confirm">
      <button
        type="button"
        class={`${props.class ?? ''} ${armed ? 'danger armed' : ''}`}
        disabled={busy || props.disabled}
        aria-live="polite"
        onClick={press}
        onBlur={disarm}
        onKeyDown={(e) => e.key === 'Escape' && disarm()}
      >
        {busy ? `${props.label}…` : armed ? `Confirm: ${props.confirmLabel ?? props.label}` : props.label}
      </button>
      {error && (
        <span class="field-error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
