import { useState } from 'preact/hooks';
import type { OperatorMode } from '../../../src/logbook/operator-modes';
import type { QsoRecord } from '../../../src/logbook/schemas';
import { ApiError, errorText, postJson } from '../../lib/api';
import { SignInHint } from '../useActions';
import { usePoll } from '../usePoll';
import { MODE_LABELS, qsoFilled } from './qso-text';
import { PushBadge } from './QsoList';
import { useHeard } from './useHeard';
import './logbook.css';

// "Log QSO": the operator types the call (and a grid when heard), one tap logs it; the station
// fills in the rest (POST /api/v1/logbook/qso). The answer says what it filled in and where the
// push stands, so a wrong satellite or frequency is seen at once. Used on /lite and /radio.
// When the station cannot tell the mode (no rig reading, no frequency guide for the satellite:
// GET /api/v1/logbook/qso/mode says null), a mode picker asks for it: LoTW refuses a QSO without.

/** The station's mode can change with the rig: asked again this often while the sheet is open. */
const MODE_POLL_MS = 10_000;

interface StationMode {
  sat_id: string | null;
  mode: string | null;
}

/** The satellite pass the page shows under way: its QSOs are logged against it. */
export interface PassUnderWay {
  sat_id: string;
  name: string;
  aos: string;
  los: string;
}

export interface LogQsoProps {
  pass: PassUnderWay | null;
  /** Our own callsign, never offered as a candidate (our packets come back through digipeaters). */
  own?: string | null;
  onLogged?(q: QsoRecord): void;
  autoFocus?: boolean;
}

type Result = { qso: QsoRecord; push_enabled: boolean } | { error: ApiError | Error };

export function LogQso(props: LogQsoProps) {
  const [call, setCall] = useState('');
  const [grid, setGrid] = useState('');
  const [mode, setMode] = useState<OperatorMode | ''>('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Result | null>(null);
  const heard = useHeard(props.pass, props.own);
  const station = usePoll<StationMode>(`/api/v1/logbook/qso/mode${props.pass ? `?sat_id=${encodeURIComponent(props.pass.sat_id)}` : ''}`, MODE_POLL_MS);
  const error = result && 'error' in result ? result.error : null;
  const fieldError = (f: string) => (error instanceof ApiError ? error.fieldMessage(f) : null);
  const callErr = fieldError('call');
  const gridErr = fieldError('their_grid');
  const modeErr = fieldError('mode');
  // The station has no mode to offer, or the server just said so (the rig went away meanwhile).
  const askMode = station.data?.mode === null || modeErr !== null;
  // An error not about what was typed (no station callsign, the appliance unreachable) shows below.
  const general = error && !callErr && !gridErr && !modeErr ? error : null;

  const log = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: Record<string, string> = { call };
      if (grid.trim()) body.their_grid = grid;
      if (askMode && mode) body.mode = mode;
      // The page's pass wins over the server's guess: it is the satellite the operator is looking at.
      if (props.pass) body.sat_id = props.pass.sat_id;
      const answer = await postJson<{ qso: QsoRecord; push_enabled: boolean }>('/api/v1/logbook/qso', body);
      setResult(answer);
      setCall('');
      setGrid('');
      props.onLogged?.(answer.qso);
    } catch (err) {
      setResult({ error: err as Error });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="log-qso" onSubmit={log} noValidate data-log-qso aria-label="Log a QSO">
      <div class="log-qso-fields">
        <label class="log-call">
          <span class="sr-only">Call</span>
          <input
            name="call"
            value={call}
            placeholder="Call"
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            maxLength={16}
            autoFocus={props.autoFocus}
            aria-invalid={callErr ? true : undefined}
            onInput={(e) => setCall((e.target as HTMLInputElement).value.toUpperCase())}
          />
        </label>
        <label class="log-grid">
          <span class="sr-only">Their grid (optional)</span>
          <input
            name="their_grid"
            value={grid}
            placeholder="Grid"
            autoComplete="off"
            spellcheck={false}
            maxLength={8}
            aria-invalid={gridErr ? true : undefined}
            onInput={(e) => setGrid((e.target as HTMLInputElement).value)}
          />
        </label>
        {askMode && (
          <label class="log-mode">
            <span class="sr-only">Mode (the station cannot tell it)</span>
            <select name="mode" value={mode} aria-invalid={modeErr ? true : undefined} onChange={(e) => setMode((e.target as HTMLSelectElement).value as OperatorMode | '')} data-log-mode>
              <option value="">Mode…</option>
              {(Object.keys(MODE_LABELS) as OperatorMode[]).map((m) => (
                <option key={m} value={m}>
                  {MODE_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="submit" class="primary" disabled={busy || call.trim() === '' || (askMode && !mode)} data-log-submit>
          {busy ? 'Logging…' : 'Log'}
        </button>
      </div>
      {heard.length > 0 && (
        <div class="log-heard" role="group" aria-label={`Heard on APRS during this ${props.pass?.name ?? ''} pass`}>
          {heard.map((c) => (
            <button type="button" key={c} class={c === call ? 'chosen' : undefined} onClick={() => setCall(c)} data-heard={c}>
              {c}
            </button>
          ))}
        </div>
      )}
      {callErr && (
        <p class="field-error" data-field-error="call">
          Call: {callErr}
        </p>
      )}
      {gridErr && (
        <p class="field-error" data-field-error="their_grid">
          Grid: {gridErr}
        </p>
      )}
      {askMode && (modeErr || !mode) && (
        // The server's words only when they say more than "choose one" (a mode it did not take).
        <p class={modeErr ? 'field-error' : 'muted'} data-field-error={modeErr ? 'mode' : undefined} data-mode-hint>
          Mode: {modeErr && mode ? modeErr : 'no rig or frequency guide gives it here; choose one'}
        </p>
      )}
      {general && (
        <p class="field-error" role="alert" data-log-error>
          {errorText(general)}
          {general instanceof ApiError && general.fieldMessage('station_callsign') && (
            <>
              {' '}
              <a href="/settings#logbook">Set the callsign</a>
            </>
          )}
          <SignInHint code={general instanceof ApiError ? general.code : undefined} />
        </p>
      )}
      {result && 'qso' in result && (
        <p class="log-done" role="status" data-logged={result.qso.id}>
          <b>✓ {result.qso.call}</b> <span class="num">{qsoFilled(result.qso)}</span>{' '}
          <PushBadge q={result.qso} pushOn={result.push_enabled} />
        </p>
      )}
    </form>
  );
}
