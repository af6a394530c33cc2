import { useState } from 'preact/hooks';
import { ApiError, errorText, postJson } from '../../lib/api';
import { ConfirmButton } from '../ConfirmButton';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { OutcomeLine, transportText, words, type Aprs } from './useAprs';

interface Identity {
  valid: boolean;
  callsign: string;
  reason?: string;
}

const SSIDS = Array.from({ length: 16 }, (_, i) => i);

/**
 * Who and how: the station identity (set here: callsign and SSID, the API says what is wrong),
 * listen-only (turning it off keys nothing, but arms the gate: it needs a second press), mode,
 * transport and where it reaches the TNC.
 */
export function StationPanel({ a }: { a: Aprs }) {
  const s = a.state!;
  const set = s.settings;
  const rt = s.runtime;
  // The identity's validity is system state's (the same rule the gate uses).
  const sys = usePoll<{ stationIdentity: Identity }>('/api/v1/system/state', 30_000, undefined, { topic: 'system' });
  const id = sys.data?.stationIdentity ?? null;
  const [call, setCall] = useState<string | null>(null);
  const [ssid, setSsid] = useState<number | null>(null);
  const callValue = call ?? set.callsign;
  const ssidValue = ssid ?? set.ssid;
  const saveIdentity = async (e: Event) => {
    e.preventDefault();
    const answer = await a.act<{ identity: Identity }>('identity', '/session/identity', { callsign: callValue.trim().toUpperCase(), ssid: ssidValue }, (r) => `station is ${r.identity.callsign}`);
    if (answer) {
      setCall(null);
      setSsid(null);
    }
    sys.refresh();
    a.targets.refresh();
  };
  const listenOnly = (on: boolean) => async () => {
    try {
      await postJson('/api/v1/settings/aprs', { listen_only: on });
      a.say('listen', { ok: true, text: on ? 'listen only: nothing will be sent' : 'transmit allowed where the gate is open' });
    } catch (e) {
      a.say('listen', { ok: false, text: errorText(e), code: e instanceof ApiError ? e.code : undefined });
      throw e;
    } finally {
      a.poll.refresh();
      a.targets.refresh();
    }
  };
  // A refused identity is the field's error (the API's message), under the field.
  const idError = a.outcome.identity && !a.outcome.identity.ok ? a.outcome.identity.text : null;
  return (
    <section class="panel aprs-station" aria-labelledby="as">
      <h2 id="as">Station</h2>
      <p class="row">
        <StatusBadge tone={id ? (id.valid ? 'ok' : 'bad') : 'idle'}>
          <span data-identity>{id ? (id.valid ? id.callsign : id.callsign ? `${id.callsign}: not valid` : 'no callsign') : set.callsign || 'no callsign'}</span>
        </StatusBadge>
        <StatusBadge tone={set.listen_only ? 'idle' : 'warn'}>
          <span data-listen-only={set.listen_only}>{set.listen_only ? 'listen only' : 'may transmit'}</span>
        </StatusBadge>
      </p>
      {id && !id.valid && (
        <p class="bad" data-identity-reason>
          Callsign: {id.reason ?? 'not valid'}
        </p>
      )}
      <form class="aprs-identity" onSubmit={saveIdentity} aria-label="Station identity" noValidate>
        <div class="aprs-field">
          <label for="aprs-call">Callsign</label>
          <input
            id="aprs-call"
            class="aprs-call"
            autoComplete="off"
            autoCapitalize="characters"
            spellcheck={false}
            maxLength={9}
            value={callValue}
            aria-invalid={idError ? true : undefined}
            aria-describedby={idError ? 'aprs-call-err' : undefined}
            onInput={(e) => setCall((e.target as HTMLInputElement).value)}
          />
          <label for="aprs-ssid">SSID</label>
          <select id="aprs-ssid" value={String(ssidValue)} onChange={(e) => setSsid(Number((e.target as HTMLSelectElement).value))}>
            {SSIDS.map((n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? '0 (none)' : n}
              </option>
            ))}
          </select>
        </div>
        {idError && (
          <p class="field-error" id="aprs-call-err" data-field-error="callsign">
            {idError}
          </p>
        )}
        <button type="submit" disabled={a.busy !== null || (call === null && ssid === null)}>
          Set identity
        </button>
        {!idError && <OutcomeLine o={a.outcome.identity} name="identity" />}
      </form>
      <dl class="kv" data-settings-summary>
        <dt>Mode</dt>
        <dd data-mode>{set.operating_mode}</dd>
        <dt>Transport</dt>
        <dd data-transport>{transportText(set)}</dd>
        <dt>Endpoint</dt>
        <dd class="num">{rt.control_endpoint}</dd>
        <dt>Modem</dt>
        <dd>{words(rt.modem_state)}</dd>
        <dt>Path</dt>
        <dd class="num">{(set.operating_mode === 'satellite' ? set.satellite_path || s.previewTarget.path_default : set.terrestrial_path) || 'none (direct)'}</dd>
        {rt.owned_resource && (
          <>
            <dt>Holds</dt>
            <dd>{rt.owned_resource}</dd>
          </>
        )}
      </dl>
      <div class="row">
        {set.listen_only ? (
          <ConfirmButton label="Allow transmit" confirmLabel="allow transmit" disabled={a.busy !== null} action={listenOnly(false)} />
        ) : (
          <button type="button" disabled={a.busy !== null} onClick={() => listenOnly(true)().catch(() => {})}>
            Listen only
          </button>
        )}
        <a href="/settings#aprs" class="btn">
          APRS settings
        </a>
      </div>
      <OutcomeLine o={a.outcome.listen} name="listen" />
    </section>
  );
}
