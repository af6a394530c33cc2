import { useEffect, useState } from 'preact/hooks';
import { SatellitePicker, type PickableSatellite } from '../SatellitePicker';
import { ApiError, errorText, getJson, postJson } from '../../lib/api';

interface PassFilter {
  pass_profile: 'All' | 'IssOnly' | 'Favorites';
  favorites: string[];
}

/** The pass filter (spec: IssOnly, Favorites with its satellites, All) the kiosk and / apply. */
export function PassFilterSection() {
  const [state, setState] = useState<PassFilter | null>(null);
  const [sats, setSats] = useState<PickableSatellite[]>([]);
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    getJson<{ state: PassFilter }>('/api/v1/settings/pass-filter').then((a) => setState(a.data.state), setError);
    getJson<{ availableSatellites: PickableSatellite[] }>('/api/v1/settings/lite').then((a) => setSats(a.data.availableSatellites), setError);
  }, []);
  if (!state) return <p class="muted">{error ? errorText(error) : 'Loading…'}</p>;
  const edit = (s: PassFilter) => {
    setState(s);
    setSaved(false);
  };
  const toggle = (id: string) => edit({ ...state, favorites: state.favorites.includes(id) ? state.favorites.filter((x) => x !== id) : [...state.favorites, id] });
  const save = async () => {
    setError(null);
    try {
      // The API drops unknown ids and repeats: what it answers is what is kept.
      setState((await postJson<{ state: PassFilter }>('/api/v1/settings/pass-filter', state)).state);
      setSaved(true);
    } catch (e) {
      setError(e as Error);
    }
  };
  const err = (f: string) => (error instanceof ApiError ? error.fieldMessage(f) : null);
  return (
    <div>
      <div class="row">
        <label for="pf-profile">Show passes of</label>
        <select id="pf-profile" aria-describedby={err('pass_profile') ? 'pf-profile-err' : undefined} value={state.pass_profile} onChange={(e) => edit({ ...state, pass_profile: (e.target as HTMLSelectElement).value as PassFilter['pass_profile'] })}>
          <option value="All">all satellites</option>
          <option value="IssOnly">the ISS only</option>
          <option value="Favorites">favourites only</option>
        </select>
        <button type="button" class="primary" onClick={save}>
          Save
        </button>
        {saved && (
          <span class="ok" role="status">
            Saved
          </span>
        )}
      </div>
      {error && (
        <p class="banner bad" role="alert">
          {errorText(error)}
        </p>
      )}
      {err('pass_profile') && (
        <div class="field-error" id="pf-profile-err" data-field-error="pass_profile">
          {err('pass_profile')}
        </div>
      )}
      <h3>Favourites {state.pass_profile !== 'Favorites' && <span class="muted">(used when showing favourites only)</span>}</h3>
      {err('favorites') && (
        <div class="field-error" data-field-error="favorites" role="alert">
          {err('favorites')}
        </div>
      )}
      <SatellitePicker satellites={sats} chosen={state.favorites} onToggle={toggle} label="favourite satellites" />
    </div>
  );
}
