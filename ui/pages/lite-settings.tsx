import { useEffect, useMemo, useState } from 'preact/hooks';
import { mount } from '../components/mount';
import { NightToggle } from '../components/NightToggle';
import { errorText, getJson, postJson } from '../lib/api';
import './lite-settings.css';

interface LiteSettings {
  state: { tracked_sat_ids: string[]; setup_complete: boolean };
  availableSatellites: Array<{ sat_id: string; name: string }>;
}
interface Saved {
  state: LiteSettings['state'];
  dropped: string[];
  fell_back_to_iss: boolean;
}

/** The API's limit (spec part 8; the 400 is the API's, shown as it words it). */
const MAX_TRACKED = 8;
/** Rows rendered at once: a low-power browser should not lay out the whole catalogue. */
const LIST_MAX = 60;

function Page() {
  const [data, setData] = useState<LiteSettings | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [setupDone, setSetupDone] = useState(true);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getJson<LiteSettings>('/api/v1/settings/lite').then(
      (a) => {
        setData(a.data);
        setChosen(a.data.state.tracked_sat_ids);
      },
      (e) => setError(errorText(e)),
    );
  }, []);

  const names = useMemo(() => new Map((data?.availableSatellites ?? []).map((s) => [s.sat_id, s.name])), [data]);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all = data?.availableSatellites ?? [];
    return q ? all.filter((s) => s.name.toLowerCase().includes(q) || s.sat_id.includes(q)) : all;
  }, [data, query]);

  const toggle = (id: string) => {
    setSaved(null);
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await postJson<Saved>('/api/v1/settings/lite', { tracked_sat_ids: chosen, setup_complete: setupDone });
      setSaved(r);
      setChosen(r.state.tracked_sat_ids);
    } catch (e) {
      setError(errorText(e));
      setSaved(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="lite-settings">
      <header class="row">
        <a class="btn" href="/lite">
          ← Lite
        </a>
        <h1>Tracked satellites</h1>
        <span class={`num ${chosen.length > MAX_TRACKED ? 'bad' : 'muted'}`} data-count>
          {chosen.length} of {MAX_TRACKED}
        </span>
        <NightToggle />
      </header>
      {error && (
        <p class="banner bad" role="alert" data-error>
          {error}
        </p>
      )}
      {saved && (
        <p class="banner ok" role="status" data-saved>
          Saved: tracking {saved.state.tracked_sat_ids.map((id) => names.get(id) ?? id).join(', ')}
          {saved.dropped.length > 0 && ` (dropped unknown or repeated: ${saved.dropped.join(', ')})`}
          {saved.fell_back_to_iss && ' (nothing valid was left, so the ISS)'}. <a href="/lite">Back to Lite</a>
        </p>
      )}
      <div class="chosen row" aria-label="Chosen satellites">
        {chosen.map((id, i) => (
          <button type="button" key={id} class="chip" onClick={() => toggle(id)} aria-label={`Remove ${names.get(id) ?? id}`}>
            {i + 1}. {names.get(id) ?? id} ✕
          </button>
        ))}
        {chosen.length === 0 && <span class="muted">None chosen: the ISS is shown.</span>}
      </div>
      <div class="row controls">
        <label class="search">
          <span class="sr-only">Search satellites by name</span>
          <input type="search" placeholder="Search by name" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
        </label>
        <label class="row">
          <input type="checkbox" checked={setupDone} onChange={(e) => setSetupDone((e.target as HTMLInputElement).checked)} /> Setup complete
        </label>
        <button type="button" class="primary" onClick={save} disabled={busy || !data}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
      <ul class="sats" aria-label="Satellites">
        {matches.slice(0, LIST_MAX).map((s) => (
          <li key={s.sat_id}>
            <label>
              <input type="checkbox" checked={chosen.includes(s.sat_id)} onChange={() => toggle(s.sat_id)} data-sat={s.sat_id} /> {s.name}
            </label>
          </li>
        ))}
      </ul>
      {matches.length > LIST_MAX && <p class="muted">{matches.length - LIST_MAX} more: narrow the search.</p>}
      {data && matches.length === 0 && <p class="muted">No satellite matches "{query}".</p>}
    </div>
  );
}

mount(Page);
