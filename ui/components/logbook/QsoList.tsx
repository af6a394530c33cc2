import type { ComponentChildren } from 'preact';
import type { QsoRecord } from '../../../src/logbook/schemas';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import './logbook.css';
import { pushBadge, qsoFilled, qsoTime } from './qso-text';

// Logged QSOs, newest first, each with what the station filled in and its push state (with the
// logger's error when it failed). /radio shows the last few; the settings section the list
// with a delete on each.

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
            <span class="muted num">{qsoTime(q.time_on)}</span>
            <PushBadge q={q} pushOn={props.pushOn} />
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
