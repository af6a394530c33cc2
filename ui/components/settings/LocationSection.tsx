import { useState } from 'preact/hooks';
import { ConfirmButton } from '../ConfirmButton';
import { usePoll } from '../usePoll';
import { ApiError, errorText, postJson } from '../../lib/api';
import { profileIdFor } from '../../lib/profile-id';
import { age } from '../../lib/time';

interface Point {
  lat: number;
  lon: number;
  alt_m: number;
}
interface LocationState {
  state: { source_mode: 'manual' | 'gps'; selected_profile_id: string; profiles: Array<{ id: string; name: string; point: Point; locator: string }> };
  resolved: Point & { source: string; locator: string };
  gps: { fix: (Point & { timestamp: string }) | null; fresh: boolean; age_s: number | null };
}

/** How a new profile's place is given: coordinates, or a Maidenhead locator (the centre of its square). */
type EntryMode = 'point' | 'locator';
const EMPTY = { name: '', lat: '', lon: '', locator: '', alt_m: '0' };
type AddKey = keyof typeof EMPTY;
/** Each input: its key, label, and the field the API names in its errors (per entry mode). */
const ADD_FIELDS: Record<EntryMode, Array<[AddKey, string, string]>> = {
  point: [
    ['name', 'Name', 'add_profile.name'],
    ['lat', 'Latitude (°)', 'add_profile.point.lat'],
    ['lon', 'Longitude (°)', 'add_profile.point.lon'],
    ['alt_m', 'Altitude (m)', 'add_profile.point.alt_m'],
  ],
  locator: [
    ['name', 'Name', 'add_profile.name'],
    ['locator', 'Locator', 'add_profile.locator'],
    ['alt_m', 'Altitude (m)', 'add_profile.alt_m'],
  ],
};
const ENTRY_MODES: Array<[EntryMode, string]> = [
  ['point', 'Latitude, longitude'],
  ['locator', 'Maidenhead locator'],
];
const num = (s: string) => (s.trim() !== '' && Number.isFinite(Number(s)) ? Number(s) : s);

/**
 * The add_profile body for what the operator typed (the API validates every part of it); its id
 * is made from the name, unique among `taken`.
 */
function profileBody(mode: EntryMode, a: typeof EMPTY, taken: readonly string[]) {
  const id = profileIdFor(a.name, taken);
  const place = mode === 'locator' ? { locator: a.locator, alt_m: num(a.alt_m) } : { point: { lat: num(a.lat), lon: num(a.lon), alt_m: num(a.alt_m) } };
  return { add_profile: { id, name: a.name, ...place }, selected_profile_id: id };
}

/** Location profiles (add, select, remove), manual or GPS source, and the resolved location. */
export function LocationSection() {
  // Polled: the GPS process moves the fix (and its freshness) without the page asking.
  const poll = usePoll<LocationState>('/api/v1/location', 10_000, undefined, { on: ['system'] });
  const [posted, setPosted] = useState<{ at: number; data: LocationState } | null>(null);
  const [add, setAdd] = useState(EMPTY);
  const [mode, setMode] = useState<EntryMode>('point');
  const [error, setError] = useState<ApiError | Error | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const loc = posted && posted.at >= poll.answeredAt ? posted.data : poll.data;
  const send = async (body: unknown, done: string) => {
    setError(null);
    setNote(null);
    try {
      setPosted({ at: Date.now(), data: await postJson<LocationState>('/api/v1/location', body) });
      setNote(done);
      return true;
    } catch (e) {
      setError(e as Error);
      return false;
    }
  };
  const fieldErr = (path: string) => (error instanceof ApiError ? error.fieldMessage(path) : null);
  if (!loc) return <p class="muted">{poll.error ?? 'Loading…'}</p>;
  const r = loc.resolved;
  const fix = loc.gps.fix;
  return (
    <div class="location">
      <p data-resolved>
        Tracking from <b class="num">{r.lat.toFixed(4)}°, {r.lon.toFixed(4)}°, {r.alt_m} m</b> ({r.source === 'gps' ? 'GPS fix' : `profile ${loc.state.profiles.find((p) => p.id === loc.state.selected_profile_id)?.name ?? loc.state.selected_profile_id}`})
      </p>
      <p class="locator">
        Locator <b class="num" data-locator>{r.locator}</b>
      </p>
      <p class="muted">
        GPS:{' '}
        {fix ? (
          <>
            <span class={loc.gps.fresh ? 'ok' : 'warn'}>{loc.gps.fresh ? 'fresh fix' : 'stale fix (over 10 min)'}</span>{' '}
            <span class="num">
              {fix.lat.toFixed(4)}°, {fix.lon.toFixed(4)}°, {fix.alt_m} m, {age((loc.gps.age_s ?? 0) * 1000)} old
            </span>
          </>
        ) : (
          'no fix'
        )}
        {loc.state.source_mode === 'gps' && r.source !== 'gps' && <span class="warn"> · using the selected profile until a fresh fix arrives</span>}
      </p>
      <label class="row">
        Source
        <select value={loc.state.source_mode} disabled={poll.offline} onChange={(e) => send({ source_mode: (e.target as HTMLSelectElement).value }, 'Source changed')} data-source-mode>
          <option value="manual">manual profile</option>
          <option value="gps">GPS (fresh fix, else the manual profile)</option>
        </select>
      </label>
      {error && (
        <p class="banner bad" role="alert">
          {errorText(error)}
        </p>
      )}
      {note && (
        <p class="ok" role="status">
          {note}
        </p>
      )}
      <div class="scroll">
        <table data-profiles>
          <thead>
            <tr>
              <th>Profile</th>
              <th>Locator · lat, lon, alt</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {loc.state.profiles.map((p) => {
              const selected = p.id === loc.state.selected_profile_id;
              return (
                <tr key={p.id} data-profile={p.id}>
                  <td>
                    {p.name} <span class="muted">({p.id})</span> {selected && <span class="badge ok">selected</span>}
                  </td>
                  <td class="num">
                    <b data-profile-locator>{p.locator}</b> <span class="muted">{p.point.lat}°, {p.point.lon}°, {p.point.alt_m} m</span>
                  </td>
                  <td>
                    {/* The selected profile cannot be removed (the API refuses it): no button to offer. */}
                    {!selected && (
                      <div class="row">
                        <button type="button" onClick={() => send({ selected_profile_id: p.id }, `Selected ${p.name}`)}>
                          Select
                        </button>
                        <ConfirmButton label="Remove" confirmLabel={`remove ${p.name}`} action={() => send({ remove_profile_id: p.id }, `Removed ${p.name}`)} />
                      </div>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <form
        class="add-profile"
        onSubmit={async (e) => {
          e.preventDefault();
          const taken = loc.state.profiles.map((p) => p.id);
          if (await send(profileBody(mode, add, taken), `Added and selected ${add.name}`)) setAdd(EMPTY);
        }}
      >
        <h3>Add a profile (and select it)</h3>
        <div class="entry-mode row" role="radiogroup" aria-label="Give the place as">
          {ENTRY_MODES.map(([m, label]) => (
            <label key={m} class="choice">
              <input type="radio" name="loc-entry" value={m} checked={mode === m} onChange={() => setMode(m)} /> {label}
            </label>
          ))}
        </div>
        {/* "The add_profile as a whole" errors (neither a point nor a locator) have no input of their own. */}
        {fieldErr('add_profile') && (
          <div class="field-error" data-field-error="add_profile">
            {fieldErr('add_profile')}
          </div>
        )}
        <div class="fields">
          {ADD_FIELDS[mode].map(([k, label, path]) => (
            <div class="field" key={k}>
              <label for={`loc-${k}`}>{label}</label>
              <input
                id={`loc-${k}`}
                value={add[k]}
                inputMode={k === 'lat' || k === 'lon' || k === 'alt_m' ? 'decimal' : undefined}
                placeholder={k === 'locator' ? 'e.g. JO01cf' : undefined}
                autoCapitalize={k === 'locator' ? 'characters' : undefined}
                aria-describedby={fieldErr(path) ? `loc-${k}-err` : undefined}
                aria-invalid={fieldErr(path) ? true : undefined}
                onInput={(e) => setAdd({ ...add, [k]: (e.target as HTMLInputElement).value })}
              />
              {fieldErr(path) && (
                <div class="field-error" id={`loc-${k}-err`} data-field-error={path}>
                  {fieldErr(path)}
                </div>
              )}
            </div>
          ))}
        </div>
        {mode === 'locator' && <p class="help muted">4, 6 or 8 characters (JO01, JO01cf, JO01cf52): the profile is the centre of that square.</p>}
        <button type="submit" class="primary">
          Add and select
        </button>
      </form>
    </div>
  );
}
