import { useEffect, useState } from 'preact/hooks';
import { loggableCallProblem, normalizeCall } from '../../../src/logbook/call-rules';
import { ApiError, errorText, getJson, postJson } from '../../lib/api';
import { SignInHint } from '../useActions';

/** Brings an answer into view where the sheet scrolls inside itself (480×320): what was filled in, what was refused. */
export const reveal = (e: Element | null) => e?.scrollIntoView({ block: 'nearest' });

/** A callsign field: large, upper case as typed, no autocomplete or spelling (the call and the station's own). */
export function CallField(props: { name: string; label: string; placeholder: string; value: string; invalid: boolean; autoFocus?: boolean; onInput(v: string): void }) {
  return (
    <label class="log-call">
      <span class="sr-only">{props.label}</span>
      <input
        name={props.name}
        value={props.value}
        placeholder={props.placeholder}
        autoComplete="off"
        autoCapitalize="characters"
        spellcheck={false}
        maxLength={16}
        autoFocus={props.autoFocus}
        aria-invalid={props.invalid ? true : undefined}
        onInput={(e) => props.onInput((e.target as HTMLInputElement).value.toUpperCase())}
      />
    </label>
  );
}

// The station callsign, asked for in the Log sheet itself when there is none (no logbook
// station_callsign and no valid APRS callsign): the operator sets it where the QSO is waiting,
// checked with the server's own rule, and the server's refusal said in words.

const SETTINGS = '/api/v1/settings/logbook';

export function StationCall(props: {
  /** The page's APRS callsign (valid) or null; undefined: the page cannot tell, so only a refused QSO asks. */
  own?: string | null;
  /** The server just refused a QSO for want of a station callsign. */
  refused: boolean;
  onSaved(): void;
}) {
  const [missing, setMissing] = useState(false);
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [code, setCode] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (props.own !== null) return;
    // Read failures (signed out, offline) leave it to the QSO's own answer.
    getJson<{ state: { station_callsign: string } }>(SETTINGS).then(
      (a) => setMissing(a.data.state.station_callsign === ''),
      () => undefined,
    );
  }, [props.own]);
  if (!missing && !props.refused) return null;

  const save = async (e: Event) => {
    e.preventDefault();
    const call = normalizeCall(value);
    const local = loggableCallProblem(call);
    if (local) return setProblem(local);
    setBusy(true);
    try {
      await postJson(SETTINGS, { station_callsign: call });
      setMissing(false);
      setProblem(null);
      props.onSaved();
    } catch (err) {
      setProblem(err instanceof ApiError ? (err.fieldMessage('station_callsign') ?? errorText(err)) : errorText(err));
      setCode(err instanceof ApiError ? err.code : undefined);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="log-station" onSubmit={save} noValidate data-station-call>
      <p class="warn">
        No station callsign yet: QSOs need yours. <a href="/settings#logbook">Logbook settings</a>
      </p>
      <div class="log-qso-fields">
        <CallField
          name="station_callsign"
          label="Your callsign"
          placeholder="Your call"
          value={value}
          invalid={!!problem}
          onInput={(v) => {
            setValue(v);
            setProblem(null);
          }}
        />
        <button type="submit" disabled={busy || value.trim() === ''} data-station-save>
          Save
        </button>
      </div>
      {problem && (
        <p class="field-error" data-field-error="station_callsign" ref={reveal}>
          Callsign: {problem}
          <SignInHint code={code} />
        </p>
      )}
    </form>
  );
}
