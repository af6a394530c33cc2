import { useEffect, useMemo, useState } from 'preact/hooks';
import { SatellitePicker } from '../../SatellitePicker';
import { errorText, getJson, postJson } from '../../../lib/api';

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

/** The tracked set /lite, the kiosk and the lite snapshot follow, and the "Setup complete" box. */
export default function SatellitesGroup() {
  const [data, setData] = useState<LiteSettings | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  // What the API holds (false on a fresh install), known once loaded: never a default of our own.
  const [setupDone, setSetupDone] = useState<boolean | null>(null);
  // Choosing satellites is the setup: the first change to the set ticks the box (visibly, so
  // what is shown is what Save sends) unless the operator has set the box themselves.
  const [setupTouched, setSetupTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Saved | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    getJson<LiteSettings>('/api/v1/settings/lite').then(
      (a) => {
        setData(a.data);
        setChosen(a.data.state.tracked_sat_ids);
        setSetupDone(a.data.state.setup_complete);
      },
      (e) => setError(errorText(e)),
    );
  }, []);

  const names = useMemo(() => new Map((data?.availableSatellites ?? []).map((s) => [s.sat_id, s.name])), [data]);

  const toggle = (id: string) => {
    setSaved(null);
    setChosen((c) => (c.includes(id) ? c.filter((x) => x !== id) : [...c, id]));
    if (!setupTouched) setSetupDone(true);
  };
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await postJson<Saved>('/api/v1/settings/lite', { tracked_sat_ids: chosen, setup_complete: setupDone === true });
      setSaved(r);
      setChosen(r.state.tracked_sat_ids);
      setSetupDone(r.state.setup_complete);
    } catch (e) {
      setError(errorText(e));
      setSaved(null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="tracked">
      <div class="row controls">
        <label class="row">
          <input type="checkbox" checked={setupDone === true} disabled={setupDone === null} onChange={(e) => {
              setSetupTouched(true);
              setSetupDone((e.target as HTMLInputElement).checked);
            }}
            data-setup-complete /> Setup complete
        </label>
        <button type="button" class="primary" onClick={save} disabled={busy || !data}>
          {busy ? 'Saving…' : 'Save'}
        </button>
        <span class={`num ${chosen.length > MAX_TRACKED ? 'bad' : 'muted'}`} data-count>
          {chosen.length} of {MAX_TRACKED}
        </span>
      </div>
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
      <SatellitePicker satellites={data?.availableSatellites ?? []} chosen={chosen} onToggle={toggle} label="tracked satellites" />
    </div>
  );
}
