import { useMemo } from 'preact/hooks';
import { usePoll } from './usePoll';

// The satellites outside the tracked set, found by name: a labelled search field that says how
// many it searches. Its matches are listed by the panel that owns it (pass buttons, options).

/** The tracked set (lite settings), or null until it is known. */
export function useTrackedSet(): ReadonlySet<string> | null {
  const lite = usePoll<{ state: { tracked_sat_ids: string[] } }>('/api/v1/settings/lite', 300_000, undefined, { on: ['lite'] });
  return useMemo(() => (lite.data ? new Set(lite.data.state.tracked_sat_ids) : null), [lite.data]);
}

export function SatSearch(props: { id: string; label: string; count: number; query: string; onQuery(q: string): void; disabled?: boolean }) {
  return (
    <div class="sat-search row">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="search"
        autoComplete="off"
        placeholder={`search ${props.count} by name`}
        value={props.query}
        disabled={props.disabled}
        onInput={(e) => props.onQuery((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}
