import { StatusBadge, type Tone } from '../StatusBadge';
import { clock, day, zoneLabel, type Zone } from '../../lib/time';

// The transmitter data guidance profiles are built from (issue 27), as the Catalog section shows
// it: what is in use (GET /api/v1/datasets `transmitters`) and what one "Refresh now" did with it
// (POST /api/v1/datasets/refresh `transmitters`).

/** GET /api/v1/datasets → transmitters. */
export interface TransmittersView {
  /** The configured source ("" when off). */
  source: string;
  origin: 'bundled' | 'persisted' | 'refreshed';
  /** Date of the data in use, ISO UTC. */
  date: string;
  /** Where the data in use came from (null: the bundled snapshot). */
  data_source: string | null;
  /** Counts are null while the bundled snapshot is in use. */
  profiles: number | null;
  receive_only: number | null;
  last_success: string | null;
  last_attempt: string | null;
  last_error: string | null;
  backoff_until: string | null;
}

/** POST /api/v1/datasets/refresh → transmitters. */
export interface TransmittersRefreshed {
  refreshed: boolean;
  date: string;
  profiles: number | null;
  receive_only: number | null;
  kept: Array<{ norad_id: number; name: string; reason: string }>;
  error: string | null;
  message: string;
}

/** The data's date as its attribution gives it: the UTC day (the bundled one is a day, not a moment). */
const dataDay = (iso: string) => iso.slice(0, 10);
const when = (iso: string, zone: Zone) => `${day(iso, zone)} ${clock(iso, zone)} ${zoneLabel(zone)}`;
const counts = (profiles: number | null, receiveOnly: number | null) => (profiles === null ? null : `${profiles} profiles (${receiveOnly ?? 0} receive-only)`);

/** The transmitter data in use, the source's last fetch, its error and backoff. */
export function TransmittersState({ t, zone }: { t: TransmittersView; zone: Zone }) {
  const n = counts(t.profiles, t.receive_only);
  return (
    <div class="tx-state" data-transmitters-state>
      <p>
        Transmitter data in use:{' '}
        {t.origin === 'bundled' ? (
          <>the bundled SatNOGS snapshot of <b class="num">{dataDay(t.date)}</b></>
        ) : (
          <>
            data of <b class="num">{dataDay(t.date)}</b>
            {n && <>, {n}</>}
            {/* Only when the source setting has changed since: else the line below names it. */}
            {t.data_source && t.data_source !== t.source && <span class="muted src"> · from {t.data_source}</span>}
          </>
        )}
      </p>
      <ul class="reports muted">
        <li>
          {t.source ? <>Source: <span class="src">{t.source}</span></> : 'Source off: the profiles stay on the data in use'}
          {t.last_success ? `; last success ${when(t.last_success, zone)}` : t.source ? '; never fetched' : ''}
        </li>
        {t.last_error && (
          <li class="bad" data-transmitters-error>
            last error: {t.last_error}
            {t.last_attempt && ` (${when(t.last_attempt, zone)})`}
          </li>
        )}
        {t.backoff_until && (
          <li class="warn" data-transmitters-backoff>
            backing off: not contacted until {when(t.backoff_until, zone)}
          </li>
        )}
      </ul>
    </div>
  );
}

type Outcome = 'refreshed' | 'failed' | 'not-contacted';
const OUTCOME_TONE: Record<Outcome, Tone> = { refreshed: 'ok', failed: 'bad', 'not-contacted': 'idle' };

/** The transmitters part of one refresh: rebuilt or why not, and every profile kept from the previous data with its reason. */
export function TransmittersReport({ r }: { r: TransmittersRefreshed }) {
  const outcome: Outcome = r.refreshed ? 'refreshed' : r.error ? 'failed' : 'not-contacted';
  const n = counts(r.profiles, r.receive_only);
  return (
    <div class="tx-report" data-transmitters-report data-outcome={outcome}>
      <p>
        <StatusBadge tone={OUTCOME_TONE[outcome]}>{outcome.replace('-', ' ')}</StatusBadge>{' '}
        {r.refreshed ? `Transmitters refreshed: ${n ?? 'profiles rebuilt'}, data of ${dataDay(r.date)}` : 'Transmitters not refreshed'}
        <span class={outcome === 'failed' ? 'bad' : 'muted'}> · {r.message}</span>
      </p>
      {r.kept.length > 0 && (
        <>
          <p class="warn">{r.kept.length === 1 ? 'One profile' : `${r.kept.length} profiles`} the new data would have lost, kept from the previous data:</p>
          <ul class="reports">
            {r.kept.map((k) => (
              <li key={k.norad_id} data-kept={k.norad_id}>
                <b>{k.name}</b> <span class="muted num">({k.norad_id})</span>: {k.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
