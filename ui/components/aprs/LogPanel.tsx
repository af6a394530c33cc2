import { useEffect, useState } from 'preact/hooks';
import { postJson } from '../../lib/api';
import { clock, day, type Zone } from '../../lib/time';
import { ConfirmButton } from '../ConfirmButton';
import { usePoll } from '../usePoll';
import type { AgeBucket } from '../../../src/aprs/log/age-bucket';
import type { Aprs } from './useAprs';

interface LogEntry {
  id: string;
  received_at: string;
  source: string;
  destination: string;
  text: string;
  message: boolean;
}

/** Entries shown: the log on disk may hold thousands; the export has them all. */
export const LOG_SHOWN = 50;
const LOG_URL = `/api/v1/aprs/log?limit=${LOG_SHOWN}`;

/** Clearing keeps the recent entries: "older than 24 h" keeps the last day (`all` empties it). */
const BUCKETS: Array<[AgeBucket, string]> = [
  ['1h', 'older than 1 h'],
  ['6h', 'older than 6 h'],
  ['24h', 'older than 24 h'],
  ['7d', 'older than 7 days'],
  ['30d', 'older than 30 days'],
  ['all', 'everything'],
];

/** The stored receive log (newest first), its exports, and clearing it by age (two presses). */
export function LogPanel({ a, zone }: { a: Aprs; zone: Zone }) {
  const s = a.state!;
  const log = usePoll<{ items: LogEntry[] }>(LOG_URL, 30_000, undefined, { on: ['aprs.packets', 'aprs'] });
  const [bucket, setBucket] = useState<AgeBucket>('24h');
  const [cleared, setCleared] = useState<string | null>(null);
  // A packet received is a line in the log: read it again when the count moves.
  const rx = s.runtime.packets_rx;
  useEffect(() => {
    if (rx > 0) log.refresh();
  }, [rx]);
  const items = log.data?.items ?? [];
  const clear = async () => {
    setCleared(null);
    const r = await postJson<{ removed: number; kept: number }>('/api/v1/aprs/log/clear', { age_bucket: bucket });
    setCleared(`removed ${r.removed}, kept ${r.kept}`);
    log.refresh();
  };
  return (
    <section class="panel aprs-log" aria-labelledby="al">
      <h2 id="al">Log</h2>
      {!s.settings.log_enabled && (
        <p class="warn" data-log-off>
          Logging is off: received packets are not stored (Settings → APRS).
        </p>
      )}
      {log.error && <p class="bad">Log: {log.error}</p>}
      {log.data && items.length === 0 && (
        <p class="muted" data-log-empty>
          The log is empty.
        </p>
      )}
      {items.length > 0 && (
        <ol class="aprs-list" aria-label="Stored log" data-log>
          {items.map((e) => (
            <li key={e.id} data-log-id={e.id}>
              <span class="num muted">
                {day(e.received_at, zone)} {clock(e.received_at, zone, true)}
              </span>{' '}
              <strong>{e.source}</strong>
              <span class="muted"> → {e.destination}</span>
              {e.message && <strong class="aprs-for-you"> ✉ message</strong>}
              <span class="aprs-summary">{e.text}</span>
            </li>
          ))}
        </ol>
      )}
      {items.length >= LOG_SHOWN && <p class="muted">The newest {LOG_SHOWN} are shown; the exports hold every entry.</p>}
      <div class="row">
        <a class="btn" href="/api/v1/aprs/log/export.csv" download>
          Export CSV
        </a>
        <a class="btn" href="/api/v1/aprs/log/export.json" download>
          Export JSON
        </a>
      </div>
      <div class="row aprs-clear">
        <label for="aprs-bucket">Clear</label>
        <select id="aprs-bucket" value={bucket} onChange={(e) => setBucket((e.target as HTMLSelectElement).value as AgeBucket)}>
          {BUCKETS.map(([b, label]) => (
            <option key={b} value={b}>
              {label}
            </option>
          ))}
        </select>
        <ConfirmButton label="Clear log" confirmLabel={bucket === 'all' ? 'clear the whole log' : `clear ${BUCKETS.find(([b]) => b === bucket)![1]}`} action={clear} />
      </div>
      {cleared && (
        <p class="ok" role="status" data-log-cleared>
          ✓ Log cleared: {cleared}
        </p>
      )}
    </section>
  );
}
