import type { RecordingItem } from '../../../src/recording/schemas';
import { size } from '../../lib/format';
import { countdown, utcMinute } from '../../lib/time';
import { RecordingDot } from '../RecordingDot';
import { StatusBadge } from '../StatusBadge';
import { useNow } from '../useNow';

// The recordings, newest first: satellite, UTC start, length and size, one tap to open one. A
// recording under way says so with the recorder's dot and counts its length; a failed one says
// why (its audio up to the fault is kept and plays).

/** The length so far of the recording under way (the list's copy was taken at its start). */
function Elapsed(props: { since: string }) {
  return <>{countdown(useNow() - Date.parse(props.since))}</>;
}

function Row(props: { r: RecordingItem; chosen: boolean; choose(id: string): void }) {
  const { r } = props;
  const live = r.status === 'recording';
  return (
    <li>
      <button type="button" class="rec-row" aria-pressed={props.chosen} onClick={() => props.choose(r.id)} data-recording={r.id} data-status={r.status}>
        <span class="rec-row-head">
          <b class="rec-sat">{r.sat_name ?? r.sat_id ?? 'no satellite'}</b>
          {live && <RecordingDot rt={{ recording: true }} />}
          {r.status === 'failed' && <StatusBadge tone="bad">failed</StatusBadge>}
        </span>
        <span class="muted num" data-rec-facts>
          {utcMinute(r.started_at)} · <span data-rec-duration>{live ? <Elapsed since={r.started_at} /> : countdown(r.duration_s * 1000)}</span> ·{' '}
          <span data-rec-size>{size(r.bytes)}</span>
        </span>
        {r.error && (
          <span class="field-error" data-rec-error>
            {r.error}
          </span>
        )}
      </button>
    </li>
  );
}

export function RecordingList(props: { items: readonly RecordingItem[]; chosen: string | null; choose(id: string): void }) {
  if (!props.items.length) {
    return (
      <p class="muted rec-list" data-rec-empty>
        No recordings yet. With Recording on (Settings → Recording) each pass the radio follows is recorded.
      </p>
    );
  }
  return (
    <ul class="rec-list" aria-label="Recordings, newest first">
      {props.items.map((r) => (
        <Row key={r.id} r={r} chosen={r.id === props.chosen} choose={props.choose} />
      ))}
    </ul>
  );
}
