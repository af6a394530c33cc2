import { useState } from 'preact/hooks';
import { adifBandOfMhz } from '../../../src/logbook/bands';
import type { OperatorMode } from '../../../src/logbook/operator-modes';
import type { QsoRecord } from '../../../src/logbook/schemas';
import { ApiError, errorText, postJson } from '../../lib/api';
import { mhz } from '../../lib/format';
import type { Recommendation } from '../Tune';
import { CallField, StationCall, reveal } from './StationCall';
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
// The satellite is always said and can be changed (the page's tracked ones first, "none" for a
// terrestrial QSO): outside a pass the station's own choice, shown with the frequencies and band
// its guide gives (what the QSO will be logged with). No station callsign: asked for right here.

/** The station's mode can change with the rig: asked again this often while the sheet is open. */
const MODE_POLL_MS = 10_000;
/** The guide's pair moves with Doppler; the band does not: a slow poll is enough to show them. */
const GUIDE_POLL_MS = 30_000;
const NONE = '';

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

/** A satellite the sheet offers (the page's tracked ones, in its order). */
export interface LogSatellite {
  sat_id: string;
  name: string;
}

export interface LogQsoProps {
  pass: PassUnderWay | null;
  satellites?: readonly LogSatellite[];
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
  // undefined: not chosen, the pass under way or the station's choice; NONE: a terrestrial QSO.
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const heard = useHeard(props.pass, props.own);
  // Outside a pass, the page's first offered satellite (its focus): a QSO logged from a tracking
  // screen is most likely on a satellite, and the choice is in view to change. A page offering
  // none (/radio) leaves it to the station (its radio session), whose choice the answer names.
  const asked = chosen ?? props.pass?.sat_id ?? props.satellites?.[0]?.sat_id;
  const station = usePoll<StationMode>(`/api/v1/logbook/qso/mode${asked ? `?sat_id=${encodeURIComponent(asked)}` : ''}`, MODE_POLL_MS, undefined, { on: ['radio', 'logbook'] });
  const sat = asked ?? station.data?.sat_id ?? NONE;
  const guide = usePoll<{ recommendation: Recommendation | null }>(sat ? `/api/v1/frequency-guides/recommendation?sat_id=${encodeURIComponent(sat)}&min_max_el=0` : null, GUIDE_POLL_MS, undefined, { on: ['passes', 'lite'] });
  const rec = sat && guide.data?.recommendation;
  const error = result && 'error' in result ? result.error : null;
  const fieldError = (f: string) => (error instanceof ApiError ? error.fieldMessage(f) : null);
  const callErr = fieldError('call');
  const gridErr = fieldError('their_grid');
  const modeErr = fieldError('mode');
  // The station has no mode to offer (no rig, no guide; always for a QSO off the satellites, where
  // the rig's reading would be a guess), or the server just said so (the rig went away meanwhile).
  const stationMode = sat === NONE ? null : station.data?.mode;
  const askMode = stationMode === null || modeErr !== null;
  const noCall = error instanceof ApiError && error.fieldMessage('station_callsign') !== null;
  // An error not about what was typed (the appliance unreachable) shows below; no callsign is asked for.
  const general = error && !callErr && !gridErr && !modeErr && !noCall ? error : null;
  const offered = [...(props.satellites ?? [])];
  if (sat && !offered.some((x) => x.sat_id === sat)) offered.unshift({ sat_id: sat, name: props.pass?.sat_id === sat ? props.pass.name : sat });

  const log = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const body: Record<string, string> = { call };
      if (grid.trim()) body.their_grid = grid;
      if (askMode && mode) body.mode = mode;
      // The page's pass wins over the server's guess: it is the satellite the operator is looking at.
      // The satellite shown is the one logged; null says "no satellite" (no guess by the station).
      const answer = await postJson<{ qso: QsoRecord; push_enabled: boolean }>('/api/v1/logbook/qso', { ...body, sat_id: sat || null });
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

  const band = (f: number | null | undefined) => (f == null ? null : adifBandOfMhz(f));
  const bands = rec ? [band(rec.uplink_mhz), band(rec.downlink_mhz)].filter((b, i, a) => b && a.indexOf(b) === i).join('/') : '';
  return (
    <div class="log-sheet-body">
      <StationCall own={props.own} refused={noCall} onSaved={() => setResult(null)} />
      <form class="log-qso" onSubmit={log} noValidate data-log-qso aria-label="Log a QSO">
        <div class="log-qso-fields">
          <CallField name="call" label="Call" placeholder="Call" value={call} invalid={!!callErr} autoFocus={props.autoFocus} onInput={setCall} />
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
          <p class="field-error" data-field-error="call" ref={reveal}>
            Call: {callErr}
          </p>
        )}
        {gridErr && (
          <p class="field-error" data-field-error="their_grid" ref={reveal}>
            Grid: {gridErr}
          </p>
        )}
        {askMode && (modeErr || !mode) && (
          // The server's words only when they say more than "choose one" (a mode it did not take).
          <p class={modeErr ? 'field-error' : 'muted'} data-field-error={modeErr ? 'mode' : undefined} data-mode-hint>
            Mode: {modeErr && mode ? modeErr : 'no rig or frequency guide gives it here; choose one'}
          </p>
        )}
        <div class="log-qso-sat">
          <label class="log-sat">
            <span class="sr-only">Satellite</span>
            <select name="sat_id" value={sat} onChange={(e) => setChosen((e.target as HTMLSelectElement).value)} data-log-sat>
              {offered.map((o) => (
                <option key={o.sat_id} value={o.sat_id}>
                  {o.name}
                </option>
              ))}
              <option value={NONE}>no satellite</option>
            </select>
          </label>
          {/* What the QSO will carry from the guide: frequencies, band and mode, the moment they are known. */}
          <span class="log-guide num muted" data-log-guide>
            {sat === NONE
              ? 'the rig’s frequency'
              : rec
                ? `${rec.uplink_mhz != null ? `↑${mhz(rec.uplink_mhz)} ` : ''}↓${mhz(rec.downlink_mhz)} ${bands}${stationMode ? ` ${stationMode}` : ''}`
                : guide.data
                  ? 'no frequency guide'
                  : ''}
          </span>
        </div>
        {general && (
          <p class="field-error" role="alert" data-log-error>
            {errorText(general)}
            <SignInHint code={general instanceof ApiError ? general.code : undefined} />
          </p>
        )}
        {result && 'qso' in result && (
          <p class="log-done" role="status" data-logged={result.qso.id} ref={reveal}>
            <b>✓ {result.qso.call}</b> <span class="num">{qsoFilled(result.qso)}</span>{' '}
            <PushBadge q={result.qso} pushOn={result.push_enabled} />
          </p>
        )}
      </form>
    </div>
  );
}
