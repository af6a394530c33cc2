import { useMemo, useState } from 'preact/hooks';
import './picker.css';

/** Rows rendered at once: a low-power browser should not lay out a whole catalogue. */
const LIST_MAX = 60;

export interface PickableSatellite {
  sat_id: string;
  name: string;
}

/** Chosen satellites as removable chips, a search box, and a checkbox list of the matches. */
export function SatellitePicker(props: { satellites: readonly PickableSatellite[]; chosen: readonly string[]; onToggle(id: string): void; label: string }) {
  const [query, setQuery] = useState('');
  const names = useMemo(() => new Map(props.satellites.map((s) => [s.sat_id, s.name])), [props.satellites]);
  const matches = useMemo(() => {
    const q = query.trim().toLowerCase();
    return q ? props.satellites.filter((s) => s.name.toLowerCase().includes(q) || s.sat_id.includes(q)) : props.satellites;
  }, [props.satellites, query]);
  return (
    <div class="picker">
      <div class="chosen row" aria-label={`Chosen: ${props.label}`}>
        {props.chosen.map((id, i) => (
          <button type="button" key={id} class="chip" onClick={() => props.onToggle(id)} aria-label={`Remove ${names.get(id) ?? id}`}>
            {i + 1}. {names.get(id) ?? id} ✕
          </button>
        ))}
        {props.chosen.length === 0 && <span class="muted">None chosen.</span>}
      </div>
      <label class="search">
        <span class="sr-only">Search {props.label} by name</span>
        <input type="search" placeholder="Search by name" value={query} onInput={(e) => setQuery((e.target as HTMLInputElement).value)} />
      </label>
      <ul class="sats" aria-label={props.label}>
        {matches.slice(0, LIST_MAX).map((s) => (
          <li key={s.sat_id}>
            <label>
              <input type="checkbox" checked={props.chosen.includes(s.sat_id)} onChange={() => props.onToggle(s.sat_id)} data-sat={s.sat_id} /> {s.name}
            </label>
          </li>
        ))}
      </ul>
      {matches.length > LIST_MAX && <p class="muted">{matches.length - LIST_MAX} more: narrow the search.</p>}
      {props.satellites.length > 0 && matches.length === 0 && <p class="muted">No satellite matches "{query}".</p>}
    </div>
  );
}
