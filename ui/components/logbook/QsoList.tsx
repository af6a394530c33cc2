import type { ComponentChildren } from 'preact';
import type { QsoRecord } from '../../../src/logbook/schemas';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import './logbook.css';
import { pushBadge, qsoFilled } from './qso-text';
import { recordingHref } from '../../lib/recordings';
import { utcMinute } from '../../lib/time';

// Logged QSOs, newest first, each with what the station filled in and its push state (with the
// logger's error when it failed), and a ▶ to hear it when a pass recording ran at the time.
// /radio shows the last few; the settings section the list with a delete on each.

/** The push state moves on its own (the queue retries), so the list is read again now and then. */
const LIST_POLL_MS = 15_000;

export function useLogbook(limit: number) {
  return usePoll<{ items: QsoRecord[]; push_enabled: boolean }>(`/api/v1/logbook?limit=${limit}`, LIST_POLL_MS, undefined, { on: ['logbook'] });
}

/** A push badge: the state in words ("not pushed (push off)" while the push is off). */
export function PushBadge(props: { q: QsoRecord; pushOn: boolean }) {
  const b = pushBadge(props.q.push_state, props.pushOn);
  return (
    <span data-push-state={props.q.push_state}>
      <StatusBadge tone={b.tone}>{b.text}</StatusBadge>
    </span>
  );
}

export function QsoList(props: { items: readonly QsoRecord[]; pushOn: boolean; empty: string; action?: (q: QsoRecord) => ComponentChildren }) {
  if (!props.items.length) return <p class="muted" data-qso-empty>{props.empty}</p>;
  return (
    <ul class="qso-list">
      {props.items.map((q) => (
        <li key={q.id} data-qso={q.id}>
          <div class="qso-head">
            <b class="qso-call">{q.call}</b>
            {q.their_grid && <span>{q.their_grid}</span>}
            <span class="muted num">{utcMinute(q.time_on)}</span>
            <PushBadge q={q} pushOn={props.pushOn} />
            {q.recording_id && (
              <a class="btn qso-play" href={recordingHref(q.recording_id, q.recording_offset_s)} title="Play the pass recording from this QSO" aria-label={`Play ${q.call} in the pass recording`} data-qso-recording={q.recording_id}>
                ▶
              </a>
            )}
          </div>
          <div class="num qso-filled">{qsoFilled(q)}</div>
          {q.push_error && (
            <div class="field-error" data-push-error>
              {q.push_error}
            </div>
          )}
          {props.action?.(q)}
        </li>
      ))}
    </ul>
  );
}
