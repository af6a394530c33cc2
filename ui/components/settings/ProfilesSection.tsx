import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, errorText, postJson } from '../../lib/api';
import type { TransmittersAttribution } from '../../../src/guidance/transmitters/bundled';
import { bodyFrom, draftFrom, matchesQuery, SOURCE_NAMES, withMode, type DraftColumn, type ListedProfile, type ProfileDraft } from '../../lib/profile-form';
import { clock, day, type Zone } from '../../lib/time';
import { deg } from '../../lib/format';
import { ConfirmButton } from '../ConfirmButton';
import { StatusBadge, type Tone } from '../StatusBadge';
import { Tune, type Recommendation } from '../Tune';
import { usePoll } from '../usePoll';
import './profiles.css';

// Frequency profiles (issue 27): every satellite of the catalogue with the profile it has and
// where it came from (bundled file, SatNOGS transmitter data, the operator), one opened at a
// time to edit. Saving sends an operator profile (Hz; the form shows MHz), a 400 puts each
// message beside the field it names, and the next pass's Doppler result is asked again at once
// so the operator sees what the station will now tune. The SatNOGS attribution its licence
// requires is shown above the list.

const PROFILES_URL = '/api/v1/frequency-guides/profiles';
/** Rows laid out at once: the whole catalogue would be slow on the appliance's own browser. */
const LIST_MAX = 40;
const RIG_MODES = ['FM', 'USB', 'LSB', 'CW', 'FM-D', 'USB-D', 'LSB-D', 'AM'];

type Attribution = TransmittersAttribution;
interface Row {
  sat_id: string;
  name: string;
  listed: ListedProfile | null;
}
interface NextPass {
  pass: { aos: string; los: string; max_el_deg: number } | null;
  recommendation: Recommendation | null;
}

const SOURCE_TONE: Record<string, Tone> = { bundled: 'idle', transmitters: 'ok', operator: 'warn' };
type SourceFilter = 'all' | 'bundled' | 'transmitters' | 'operator' | 'none';

function SourceBadge({ p }: { p: ListedProfile | null }) {
  if (!p) return <span class="muted">no profile</span>;
  return (
    <span class="prof-src" data-source={p.source}>
      <StatusBadge tone={SOURCE_TONE[p.source]}>{SOURCE_NAMES[p.source]}</StatusBadge> <span class="muted num">{p.date.slice(0, 10)}</span>
    </span>
  );
}

function AttributionLine({ a }: { a: Attribution }) {
  return (
    <p class="muted prof-attr" data-attribution>
      Transmitter data: <a href={a.url}>{a.title}</a>, {a.publisher}, {a.date}, licensed <a href={a.licence_url}>{a.licence}</a>; {a.changes}.
    </p>
  );
}

/** The next pass's recommendation for a satellite (min_max_el=0: any pass), read again after each change. */
function NextPassResult({ satId, zone, generation }: { satId: string; zone: Zone; generation: number }) {
  const r = usePoll<NextPass>(`/api/v1/frequency-guides/recommendation?sat_id=${encodeURIComponent(satId)}&min_max_el=0`, 30_000, undefined, { on: ['passes', 'lite'] });
  // A save or delete changes the answer now, not at the next poll.
  useEffect(() => {
    if (generation > 0) r.refresh();
  }, [generation]);
  return (
    <div class="prof-result" data-next-pass aria-live="polite">
      <h4>Next pass with this profile</h4>
      {r.error && <p class="bad">{r.error}</p>}
      {r.data && (
        <>
          <p class="num" data-next-pass-time>
            {r.data.pass ? `${day(r.data.pass.aos, zone)} ${clock(r.data.pass.aos, zone)}–${clock(r.data.pass.los, zone)} · max ${deg(r.data.pass.max_el_deg)}` : 'no pass in the next days'}
          </p>
          <Tune rec={r.data.recommendation} />
        </>
      )}
    </div>
  );
}

function Field(props: { id: string; label: string; error?: string | null; children: ComponentChildren; class?: string }) {
  return (
    <div class={`field ${props.class ?? ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children}
      {props.error && (
        <div class="field-error" id={`${props.id}-err`} data-field-error={props.id.replace(/^pf-/, '')}>
          {props.error}
        </div>
      )}
    </div>
  );
}

/** One satellite's profile as a form; saves as the operator's, deletes back to the data's. */
function Editor(props: { row: Row; zone: Zone; onChanged(): void; onClose(): void }) {
  const { row } = props;
  const [draft, setDraft] = useState<ProfileDraft>(() => draftFrom(row.listed?.profile ?? null));
  const [error, setError] = useState<ApiError | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [generation, setGeneration] = useState(0);
  const set = (patch: Partial<ProfileDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const setColumn = (i: number, patch: Partial<DraftColumn>) => setDraft((d) => ({ ...d, columns: d.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) }));
  // Each field shows the message naming it exactly; the rest (a rule across fields) at the top.
  const named = new Map((error?.fields ?? []).map((f) => [f.field, f.message]));
  const err = (field: string) => named.get(field) ?? null;
  const shownFields = new Set(['mode', 'columns', 'default_column_index', 'uplink_mode', 'downlink_mode', 'ctcss_hz', 'inverting', 'uplink_step_hz', 'downlink_step_hz', 'note', 'correction_side']);
  draft.columns.forEach((_, i) => ['label', 'uplink_hz', 'downlink_hz'].forEach((k) => shownFields.add(`columns.${i}.${k}`)));
  const other = error && (error.fields.length === 0 ? [error.message] : error.fields.filter((f) => !shownFields.has(f.field)).map((f) => `${f.field}: ${f.message}`));
  const ro = draft.mode === 'fm' && draft.receive_only;
  const isOperator = row.listed?.source === 'operator';

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved(null);
    try {
      await postJson(PROFILES_URL, bodyFrom(row.sat_id, draft));
      setError(null);
      setSaved('Saved as the operator profile.');
      setGeneration((g) => g + 1);
      props.onChanged();
    } catch (x) {
      setError(x instanceof ApiError ? x : new ApiError(0, 'error', errorText(x)));
    } finally {
      setBusy(false);
    }
  };
  const revert = async () => {
    const a = await postJson<{ profile: ListedProfile | null }>(`${PROFILES_URL}/delete`, { sat_id: row.sat_id });
    setDraft(draftFrom(a.profile?.profile ?? null));
    setError(null);
    setSaved(a.profile ? `Back to the ${SOURCE_NAMES[a.profile.source]} profile.` : 'Operator profile removed: no profile from the data.');
    setGeneration((g) => g + 1);
    props.onChanged();
  };

  return (
    <form class="prof-editor" onSubmit={save} noValidate data-profile-editor={row.sat_id} aria-labelledby="pf-title">
      <div class="prof-head">
        <h3 id="pf-title">{row.name}</h3>
        <SourceBadge p={row.listed} />
        <button type="button" class="prof-close" onClick={props.onClose}>
          Close
        </button>
      </div>
      {row.listed?.profile.description && <p class="muted">Data: {row.listed.profile.description}</p>}
      {other && other.length > 0 && (
        <p class="field-error" role="alert" data-form-error>
          {other.join('; ')}
        </p>
      )}
      <div class="prof-grid">
        <Field id="pf-mode" label="Mode" error={err('mode')}>
          <select id="pf-mode" value={draft.mode} onChange={(e) => setDraft(withMode(draft, (e.target as HTMLSelectElement).value as 'fm' | 'linear'))}>
            <option value="fm">fm (one channel)</option>
            <option value="linear">linear (transponder)</option>
          </select>
        </Field>
        <div class="field field-boolean">
          <input id="pf-receive-only" type="checkbox" checked={ro} disabled={draft.mode !== 'fm'} onChange={(e) => set({ receive_only: (e.target as HTMLInputElement).checked })} />
          <label for="pf-receive-only">Receive only (no uplink)</label>
        </div>
      </div>
      <fieldset class="prof-columns" aria-describedby={err('columns') ? 'pf-columns-err' : undefined}>
        <legend>{draft.mode === 'fm' ? 'Channel (MHz)' : 'Columns across the passband (MHz)'}</legend>
        {draft.columns.map((c, i) => (
          <div class="prof-col" key={i} data-column={i}>
            {draft.mode === 'linear' && (
              <label class="prof-default">
                <input type="radio" name="pf-default" checked={draft.default_column_index === i} onChange={() => set({ default_column_index: i })} /> default
              </label>
            )}
            <Field id={`pf-columns.${i}.label`} label="Label" error={err(`columns.${i}.label`)}>
              <input id={`pf-columns.${i}.label`} value={c.label} maxLength={64} onInput={(e) => setColumn(i, { label: (e.target as HTMLInputElement).value })} aria-invalid={err(`columns.${i}.label`) ? true : undefined} />
            </Field>
            <Field id={`pf-columns.${i}.uplink_hz`} label="↑ Uplink MHz" error={err(`columns.${i}.uplink_hz`)}>
              <input
                id={`pf-columns.${i}.uplink_hz`}
                inputMode="decimal"
                class="num"
                value={ro ? '' : c.uplink_mhz}
                placeholder={ro ? 'none' : ''}
                disabled={ro}
                onInput={(e) => setColumn(i, { uplink_mhz: (e.target as HTMLInputElement).value })}
                aria-invalid={err(`columns.${i}.uplink_hz`) ? true : undefined}
              />
            </Field>
            <Field id={`pf-columns.${i}.downlink_hz`} label="↓ Downlink MHz" error={err(`columns.${i}.downlink_hz`)}>
              <input
                id={`pf-columns.${i}.downlink_hz`}
                inputMode="decimal"
                class="num"
                value={c.downlink_mhz}
                onInput={(e) => setColumn(i, { downlink_mhz: (e.target as HTMLInputElement).value })}
                aria-invalid={err(`columns.${i}.downlink_hz`) ? true : undefined}
              />
            </Field>
            {draft.mode === 'linear' && draft.columns.length > 1 && (
              <button type="button" onClick={() => setDraft({ ...draft, columns: draft.columns.filter((_, j) => j !== i), default_column_index: Math.max(0, Math.min(draft.default_column_index, draft.columns.length - 2)) })}>
                Remove
              </button>
            )}
          </div>
        ))}
        {draft.mode === 'linear' && draft.columns.length < 16 && (
          <button type="button" onClick={() => setDraft({ ...draft, columns: [...draft.columns, { label: `col ${draft.columns.length + 1}`, uplink_mhz: '', downlink_mhz: '' }] })}>
            Add column
          </button>
        )}
        {err('columns') && (
          <div class="field-error" id="pf-columns-err" data-field-error="columns">
            {err('columns')}
          </div>
        )}
        {err('default_column_index') && (
          <div class="field-error" data-field-error="default_column_index">
            {err('default_column_index')}
          </div>
        )}
      </fieldset>
      <div class="prof-grid">
        <Field id="pf-downlink_mode" label="↓ Rig mode" error={err('downlink_mode')}>
          <input id="pf-downlink_mode" list="pf-modes" value={draft.downlink_mode} maxLength={8} onInput={(e) => set({ downlink_mode: (e.target as HTMLInputElement).value })} />
        </Field>
        {!ro && (
          <Field id="pf-uplink_mode" label="↑ Rig mode" error={err('uplink_mode')}>
            <input id="pf-uplink_mode" list="pf-modes" value={draft.uplink_mode} maxLength={8} onInput={(e) => set({ uplink_mode: (e.target as HTMLInputElement).value })} />
          </Field>
        )}
        {!ro && (
          <Field id="pf-ctcss_hz" label="CTCSS tone Hz (empty: none)" error={err('ctcss_hz')}>
            <input id="pf-ctcss_hz" inputMode="decimal" class="num" value={draft.ctcss_hz} onInput={(e) => set({ ctcss_hz: (e.target as HTMLInputElement).value })} aria-invalid={err('ctcss_hz') ? true : undefined} />
          </Field>
        )}
        {!ro && (
          <Field id="pf-uplink_step_hz" label="↑ Step Hz" error={err('uplink_step_hz')}>
            <input id="pf-uplink_step_hz" inputMode="numeric" class="num" value={draft.uplink_step_hz} onInput={(e) => set({ uplink_step_hz: (e.target as HTMLInputElement).value })} />
          </Field>
        )}
        <Field id="pf-downlink_step_hz" label="↓ Step Hz" error={err('downlink_step_hz')}>
          <input id="pf-downlink_step_hz" inputMode="numeric" class="num" value={draft.downlink_step_hz} onInput={(e) => set({ downlink_step_hz: (e.target as HTMLInputElement).value })} />
        </Field>
        {draft.mode === 'linear' && (
          <div class="field field-boolean">
            <input id="pf-inverting" type="checkbox" checked={draft.inverting} onChange={(e) => set({ inverting: (e.target as HTMLInputElement).checked })} />
            <label for="pf-inverting">Inverting transponder</label>
          </div>
        )}
        <Field id="pf-note" label="Note" error={err('note')}>
          <input id="pf-note" value={draft.note} maxLength={200} onInput={(e) => set({ note: (e.target as HTMLInputElement).value })} />
        </Field>
      </div>
      <datalist id="pf-modes">
        {RIG_MODES.map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <div class="row prof-actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        {isOperator && <ConfirmButton label="Back to the data's profile" action={revert} />}
      </div>
      {saved && (
        <p class="saved ok" data-profile-saved>
          {saved}
        </p>
      )}
      <NextPassResult satId={row.sat_id} zone={props.zone} generation={generation} />
    </form>
  );
}

export function ProfilesSection(props: { zone: Zone }) {
  const list = usePoll<{ items: ListedProfile[]; attribution: Attribution }>(PROFILES_URL, 0);
  const sats = usePoll<{ items: Array<{ sat_id: string; name: string }> }>('/api/v1/satellites', 0);
  const [query, setQuery] = useState('');
  const [source, setSource] = useState<SourceFilter>('all');
  const [open, setOpen] = useState<string | null>(null);
  // Every catalogue satellite, with its profile when it has one: a satellite without one is
  // where an operator most needs to add it.
  const rows = useMemo<Row[]>(() => {
    const bySat = new Map((list.data?.items ?? []).map((p) => [p.sat_id, p]));
    const all: Row[] = (sats.data?.items ?? []).map((s) => ({ sat_id: s.sat_id, name: bySat.get(s.sat_id)?.name ?? s.name, listed: bySat.get(s.sat_id) ?? null }));
    for (const p of bySat.values()) if (!all.some((r) => r.sat_id === p.sat_id)) all.push({ sat_id: p.sat_id, name: p.name, listed: p });
    return all.sort((a, b) => a.name.localeCompare(b.name));
  }, [list.data, sats.data]);
  const shown = rows.filter((r) => matchesQuery({ ...r, norad_id: r.listed?.norad_id }, query) && (source === 'all' || (source === 'none' ? !r.listed : r.listed?.source === source)));
  const openRow = rows.find((r) => r.sat_id === open) ?? null;
  return (
    <>
      {list.data && <AttributionLine a={list.data.attribution} />}
      {list.error && <p class="bad">{list.error}</p>}
      <div class="row prof-filter">
        <label class="search">
          <span class="sr-only">Search profiles by name</span>
          <input type="search" placeholder="Search by name" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} data-profile-search />
        </label>
        <label>
          <span class="sr-only">Source</span>
          <select value={source} onChange={(e) => setSource((e.target as HTMLSelectElement).value as SourceFilter)} aria-label="Profile source">
            <option value="all">all sources</option>
            <option value="operator">operator</option>
            <option value="transmitters">SatNOGS</option>
            <option value="bundled">bundled</option>
            <option value="none">no profile</option>
          </select>
        </label>
      </div>
      <ul class="prof-list" aria-label="Satellites and their profiles">
        {shown.slice(0, LIST_MAX).map((r) => (
          <li key={r.sat_id}>
            <button type="button" class={`prof-row${open === r.sat_id ? ' chosen' : ''}`} aria-pressed={open === r.sat_id} onClick={() => setOpen(open === r.sat_id ? null : r.sat_id)} data-profile-row={r.sat_id}>
              <span class="prof-name">{r.name}</span>
              {r.listed?.receive_only && <span class="muted">↓ only</span>}
              <SourceBadge p={r.listed} />
            </button>
          </li>
        ))}
      </ul>
      {shown.length > LIST_MAX && <p class="muted">{shown.length - LIST_MAX} more: narrow the search.</p>}
      {rows.length > 0 && shown.length === 0 && <p class="muted">No satellite matches.</p>}
      {openRow && <Editor key={openRow.sat_id} row={openRow} zone={props.zone} onChanged={() => list.refresh()} onClose={() => setOpen(null)} />}
    </>
  );
}
