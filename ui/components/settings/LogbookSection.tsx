import { useEffect, useState } from 'preact/hooks';
import type { LogbookSettings } from '../../../src/logbook/schemas';
import type { LogbookStatus } from '../../../src/logbook/logbook-service';
import { ApiError, errorText, getJson, postJson } from '../../lib/api';
import { counted } from '../../lib/format';
import { ConfirmButton } from '../ConfirmButton';
import { StatusBadge } from '../StatusBadge';
import { SignInHint } from '../useActions';
import { usePoll } from '../usePoll';
import { QsoList, useLogbook } from '../logbook/QsoList';
import './logbook-section.css';

// The logbook (issue 28) on the settings page: the QSOs with their push state and error, a
// delete behind a confirm, the ADIF export; and the Cloudlog/Wavelog push. The API key is
// write-only: the page only ever says whether one is set, and sends one only when typed.

/** QSOs listed here; the export holds every one. */
const LISTED = 100;
const SETTINGS = '/api/v1/settings/logbook';

type Text = 'cloudlog_url' | 'cloudlog_station_profile_id' | 'station_callsign';
const TEXT_FIELDS: Array<{ name: Text; label: string; help: string; numeric?: boolean }> = [
  { name: 'cloudlog_url', label: 'Cloudlog or Wavelog URL', help: 'As in the browser, e.g. https://log.example.org (with or without /index.php).' },
  { name: 'cloudlog_station_profile_id', label: 'Station profile id', help: 'The station location’s number in Cloudlog (Station Locations).', numeric: true },
  { name: 'station_callsign', label: 'Station callsign', help: 'Logged as STATION_CALLSIGN; empty: the APRS callsign.' },
];

function CloudlogForm() {
  const [saved, setSaved] = useState<LogbookSettings | null>(null);
  const [draft, setDraft] = useState<LogbookSettings | null>(null);
  // Only ever what the operator typed: the saved key never comes back from the appliance.
  const [key, setKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<'saved' | ApiError | Error | null>(null);
  // Whether the APRS identity would sign a QSO when the logbook names no callsign.
  const [aprsCall, setAprsCall] = useState(true);
  useEffect(() => {
    getJson<{ stationIdentity: { valid: boolean } }>('/api/v1/system/state').then(
      (a) => setAprsCall(a.data.stationIdentity.valid),
      () => undefined,
    );
    getJson<{ state: LogbookSettings }>(SETTINGS).then(
      (a) => {
        setSaved(a.data.state);
        setDraft(a.data.state);
      },
      (e) => setStatus(e),
    );
  }, []);
  if (!saved || !draft) return status instanceof Error ? <p class="field-error">{errorText(status)}</p> : null;

  const send = async (patch: Partial<LogbookSettings>) => {
    setBusy(true);
    try {
      const r = await postJson<{ state: LogbookSettings }>(SETTINGS, patch);
      setSaved(r.state);
      setDraft(r.state);
      setKey('');
      setStatus('saved');
    } catch (e) {
      setStatus(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const save = (e: Event) => {
    e.preventDefault();
    const patch: Partial<LogbookSettings> = {};
    for (const k of ['cloudlog_enabled', ...TEXT_FIELDS.map((f) => f.name)] as const) if (draft[k] !== saved[k]) Object.assign(patch, { [k]: draft[k] });
    if (key) patch.cloudlog_api_key = key;
    send(patch);
  };
  const set = (patch: Partial<LogbookSettings>) => {
    setDraft({ ...draft, ...patch });
    setStatus(null);
  };
  const error = status instanceof Error ? status : null;
  const fieldError = (name: string) => {
    const m = error instanceof ApiError ? error.fieldMessage(name) : null;
    return m && <div class="field-error" data-field-error={name}>{m}</div>;
  };
  const keySet = saved.cloudlog_api_key !== '';
  const dirty = key !== '' || JSON.stringify(draft) !== JSON.stringify(saved);
  return (
    <form class="resource-form" onSubmit={save} noValidate data-cloudlog-form>
      <h3>Push to Cloudlog / Wavelog</h3>
      {error && !(error instanceof ApiError && error.fields.length) && (
        <p class="banner bad" role="alert">
          {errorText(error)}
          <SignInHint code={error instanceof ApiError ? error.code : undefined} />
        </p>
      )}
      <div class="field field-boolean">
        <input id="cl-enabled" name="cloudlog_enabled" type="checkbox" checked={draft.cloudlog_enabled} onChange={(e) => set({ cloudlog_enabled: (e.target as HTMLInputElement).checked })} />
        <label for="cl-enabled">Push each QSO</label>
        <div class="help muted">Needs the URL, the API key and the station profile id. QSOs wait in a queue while the logger is unreachable.</div>
        {fieldError('cloudlog_enabled')}
      </div>
      {TEXT_FIELDS.map((f) => (
        <div class="field" key={f.name}>
          <label for={`cl-${f.name}`}>{f.label}</label>
          <input
            id={`cl-${f.name}`}
            name={f.name}
            inputMode={f.numeric ? 'numeric' : undefined}
            autoComplete="off"
            value={draft[f.name]}
            aria-invalid={error instanceof ApiError && error.fieldMessage(f.name) ? true : undefined}
            onInput={(e) => set({ [f.name]: (e.target as HTMLInputElement).value })}
          />
          <div class="help muted">{f.help}</div>
          {/* Said before the first QSO, not as its refusal. */}
          {f.name === 'station_callsign' && saved.station_callsign === '' && !aprsCall && (
            <div class="banner warn" role="alert" data-no-station-call>
              No callsign: no QSO can be logged until one is set here (or a valid APRS callsign).
            </div>
          )}
          {fieldError(f.name)}
        </div>
      ))}
      <div class="field">
        <label for="cl-key">
          API key{' '}
          <span data-key-state class={keySet ? 'ok' : 'muted'}>
            {keySet ? 'set' : 'not set'}
          </span>
        </label>
        <input id="cl-key" name="cloudlog_api_key" type="password" autoComplete="new-password" placeholder={keySet ? 'type to replace' : ''} value={key} onInput={(e) => setKey((e.target as HTMLInputElement).value)} />
        <div class="help muted">A read-write key from Cloudlog’s API page. Never shown again once saved.</div>
        {fieldError('cloudlog_api_key')}
      </div>
      <div class="row">
        <button type="submit" class="primary" disabled={busy || !dirty} data-cloudlog-save>
          {busy ? 'Saving…' : 'Save'}
        </button>
        {keySet && <ConfirmButton label="Remove key" action={() => send({ cloudlog_api_key: '' })} />}
        {status === 'saved' && !dirty && (
          <span class="ok" role="status" data-cloudlog-saved>
            Saved
          </span>
        )}
      </div>
    </form>
  );
}

export function LogbookSection() {
  const book = useLogbook(LISTED);
  const st = usePoll<LogbookStatus>('/api/v1/logbook/status', 15_000, undefined, { on: ['logbook'] });
  const remove = async (id: string) => {
    await postJson('/api/v1/logbook/qso/delete', { id });
    book.refresh();
    st.refresh();
  };
  const s = st.data;
  return (
    <>
      <div class="row logbook-head">
        {s && (
          <span class="num" data-logbook-status>
            {counted(s.records, 'QSO')}
            {s.pending > 0 && <> · <StatusBadge tone="warn">{s.pending} push pending</StatusBadge></>}
            {s.not_pushed > 0 && <> · <StatusBadge tone="idle">{s.not_pushed} not pushed (push off)</StatusBadge></>}
            {s.failed > 0 && <> · <StatusBadge tone="bad">{s.failed} push failed</StatusBadge></>}
          </span>
        )}
        <a class="btn" href="/api/v1/logbook/export.adi" download data-export>
          Export ADIF
        </a>
      </div>
      {s?.last_error && <p class="banner bad">{s.last_error}</p>}
      {book.error && <p class="field-error">{book.error}</p>}
      {book.data && (
        <div class="logbook-list">
          <QsoList
            items={book.data.items}
            pushOn={book.data.push_enabled}
            empty="Nothing logged yet: Log QSO is on /lite and /radio."
            action={(q) => <ConfirmButton label="Delete" confirmLabel={`delete ${q.call}`} action={() => remove(q.id)} />}
          />
          {s && s.records > book.data.items.length && <p class="muted">The newest {book.data.items.length} of {s.records}; the export holds every QSO.</p>}
        </div>
      )}
      <CloudlogForm />
    </>
  );
}
