import type { RadioSession } from '../radio/useRadio';
import { LogQso, type PassUnderWay } from './LogQso';
import { QsoList, useLogbook } from './QsoList';

// /radio's logbook panel: Log QSO against the session's pass while it is under way, and the
// last QSOs with their push state, read again after each one logged.

/** QSOs shown: a pass's worth; the whole list is on the settings page. */
const RECENT = 6;

/** The session's pass when it is under way now (its QSOs and heard stations belong to it). */
export function sessionPass(s: RadioSession, now: number): PassUnderWay | null {
  if (!s.selected_sat_id || !s.pass_aos || !s.pass_los) return null;
  if (now < Date.parse(s.pass_aos) || now > Date.parse(s.pass_los)) return null;
  return { sat_id: s.selected_sat_id, name: s.sat_name ?? s.selected_sat_id, aos: s.pass_aos, los: s.pass_los };
}

export function RecentPanel(props: { session: RadioSession; now: number }) {
  const book = useLogbook(RECENT);
  const pass = sessionPass(props.session, props.now);
  return (
    <section class="panel" aria-labelledby="logbook-recent-h" data-logbook-recent>
      <h2 id="logbook-recent-h">Log QSO{pass && <span class="muted"> · {pass.name}</span>}</h2>
      <LogQso pass={pass} onLogged={() => book.refresh()} />
      <h3 class="qso-recent-h">Recent QSOs</h3>
      {book.error && <p class="field-error">{book.error}</p>}
      {book.data && <QsoList items={book.data.items} pushOn={book.data.push_enabled} empty="Nothing logged yet." />}
      <a class="btn" href="/settings#logbook">
        Logbook, export and Cloudlog →
      </a>
    </section>
  );
}
