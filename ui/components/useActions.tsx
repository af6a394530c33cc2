import { useState } from 'preact/hooks';
import { ApiError, errorText, postJson } from '../lib/api';

// Actions of a station page (radio, APRS): each POSTs under one API prefix, shows its outcome
// beside the control that ran it, and reads the page's state again at once. One at a time:
// every action button is disabled while one runs.

export interface Outcome {
  ok: boolean;
  text: string;
  /** The API's error code (not_eligible, invalid_callsign, rig_timeout…) when it failed. */
  code?: string;
  /** The first field the API named (a goto's az_deg beyond the limits), to show the error beside it. */
  field?: string;
}

export function useActions(base: string, refresh: () => void) {
  const [busy, setBusy] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<Record<string, Outcome>>({});
  const say = (key: string, o: Outcome) => setOutcome((all) => ({ ...all, [key]: o }));
  /** Forgets outcomes a later action made stale ("connected" once an emergency stop dropped the link). */
  const forget = (...keys: string[]) =>
    setOutcome((all) => {
      const next = { ...all };
      for (const k of keys) delete next[k];
      return next;
    });
  /**
   * Runs one action, keyed by where its outcome shows; `done` words the success from the answer,
   * or turns it into a failure (a blocked APRS send answers 200).
   */
  const act = async <T = unknown,>(key: string, path: string, body: unknown, done: string | ((answer: T) => string | Outcome)): Promise<T | null> => {
    setBusy(key);
    try {
      const answer = await postJson<T>(`${base}${path}`, body);
      const said = typeof done === 'string' ? done : done(answer);
      say(key, typeof said === 'string' ? { ok: true, text: said } : said);
      return answer;
    } catch (e) {
      say(key, e instanceof ApiError ? { ok: false, text: errorText(e), code: e.code, field: e.fields[0]?.field } : { ok: false, text: errorText(e) });
      return null;
    } finally {
      setBusy(null);
      refresh();
    }
  };
  return { busy, outcome, act, say, forget };
}

/** One action's outcome, beside the control that ran it. */
export function OutcomeLine(props: { o?: Outcome; name: string }) {
  if (!props.o) return null;
  return (
    <p class={`outcome ${props.o.ok ? 'ok' : 'bad'}`} role={props.o.ok ? 'status' : 'alert'} data-outcome={props.name} data-code={props.o.code}>
      {props.o.ok ? '✓ ' : '✗ '}
      {props.o.text}
      <SignInHint code={props.o.code} />
    </p>
  );
}

/** After a refusal by the operator lock: a link to /login that comes back here. */
export function SignInHint(props: { code?: string }) {
  if (!props.code?.startsWith('operator_token')) return null;
  return (
    <>
      {' '}
      <a href={`/login?next=${encodeURIComponent(location.pathname)}`}>Sign in</a>
    </>
  );
}

/** "manual applied" from "manual_applied". */
export const words = (s: string): string => s.replace(/_/g, ' ');
