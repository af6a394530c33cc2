import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../ConfirmButton';
import { ResourceForm } from '../ResourceForm';
import { StatusBadge } from '../StatusBadge';
import { usePoll } from '../usePoll';
import { errorText, postJson } from '../../lib/api';
import { age, clock, day, zoneLabel, type Zone } from '../../lib/time';
import { TransmittersReport, TransmittersState, type TransmittersRefreshed, type TransmittersView } from './TransmittersStatus';

interface Report {
  source: string;
  status: 'fetched' | 'not-modified' | 'held' | 'failed';
  count: number;
  skipped: number;
  message: string;
}
interface Refresh {
  ok: boolean;
  meta: { count: number; reports: Report[]; error: string | null; replaced: boolean };
  status?: { message: string };
  /** Null when nothing consumes transmitter data. */
  transmitters: TransmittersRefreshed | null;
}
interface Datasets {
  catalog: { origin: string; count: number; refreshed_at: string | null; version: string };
  sources: Array<{ source: string; last_success_ms: number | null; last_error: string | null; last_count: number }>;
  transmitters: TransmittersView | null;
}
interface Snapshots {
  count: number;
  items: Array<{ id: string; source: string; created_at: string; satellite_count: number }>;
}

const SOURCE_FIELDS = [
  { name: 'sources', label: 'Sources', multiline: true, help: 'One per line: http(s) URLs or file paths, TLE or OMM JSON.' },
  { name: 'fetch_timeout_ms', label: 'Timeout per source' },
  { name: 'max_bytes', label: 'Largest answer', unit: 'bytes' },
  { name: 'refresh_cron', label: 'Catalog refresh schedule', help: 'cron syntax, local time of the appliance' },
  { name: 'status_url', label: 'Operational status URL', help: 'AMSAT status; empty turns the lookup off' },
  { name: 'status_cron', label: 'Status schedule' },
  {
    name: 'transmitters_source',
    label: 'Transmitters source',
    help:
      'SatNOGS DB transmitters JSON (an http(s) URL or an absolute file path) the frequency profiles are rebuilt from; empty turns it off and keeps the data in use. ' +
      'The data is Libre Space Foundation’s, CC BY-SA 4.0: its attribution is shown under Frequency profiles.',
  },
  { name: 'transmitters_cron', label: 'Transmitters refresh schedule', help: 'cron syntax, local time; at most hourly (default weekly, Monday 05:29). Refresh now asks at once.' },
];

const TONE: Record<Report['status'], 'ok' | 'warn' | 'bad' | 'idle'> = { fetched: 'ok', 'not-modified': 'ok', held: 'idle', failed: 'bad' };

/**
 * Catalog in use, its sources (edit, refresh now with a per-source report), the transmitter data
 * guidance profiles come from, and the pass cache.
 */
export function CatalogSection(props: { zone: Zone; now: number; onRefreshed?(): void }) {
  const ds = usePoll<Datasets>('/api/v1/datasets', 30_000, undefined, { on: ['system'] });
  const [busy, setBusy] = useState(false);
  const [report, setReport] = useState<Refresh | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = async () => {
    setBusy(true);
    setError(null);
    try {
      setReport(await postJson<Refresh>('/api/v1/datasets/refresh'));
      ds.refresh();
      props.onRefreshed?.(); // a refresh records a snapshot
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const c = ds.data?.catalog;
  return (
    <div class="catalog">
      {c && (
        <p data-catalog-state>
          In use: <b>{c.count}</b> satellites,{' '}
          {c.origin === 'bundled' || !c.refreshed_at ? 'the bundled elements (never refreshed)' : `refreshed ${age(props.now - Date.parse(c.refreshed_at))} ago`}
        </p>
      )}
      <div class="row">
        <button type="button" class="primary" onClick={refresh} disabled={busy} aria-busy={busy || undefined} data-refresh>
          {busy ? 'Refreshing… (asking every source)' : 'Refresh now'}
        </button>
        <ConfirmButton label="Clear pass cache" confirmLabel="clear and recompute passes" done="Pass cache cleared; passes are being recomputed" action={() => postJson('/api/v1/passes/cache/refresh')} />
      </div>
      {error && (
        <p class="banner bad" role="alert">
          {error}
        </p>
      )}
      {report && <RefreshReport report={report} />}
      {report?.transmitters && <TransmittersReport r={report.transmitters} />}
      {ds.data && <h3>Sources, last fetch</h3>}
      {ds.data && (
        <ul class="reports muted">
          {ds.data.sources.map((s) => (
            <li key={s.source} data-source-state={s.source}>
              <span class="src">{s.source}</span>: {s.last_success_ms ? `last success ${day(s.last_success_ms, props.zone)} ${clock(s.last_success_ms, props.zone)} ${zoneLabel(props.zone)}, ${s.last_count} objects` : 'never fetched'}
              {s.last_error && <span class="bad"> · last error: {s.last_error}</span>}
            </li>
          ))}
        </ul>
      )}
      {ds.data?.transmitters && <h3>Transmitter data</h3>}
      {ds.data?.transmitters && <TransmittersState t={ds.data.transmitters} zone={props.zone} />}
      <ResourceForm
        path="/api/v1/datasets/sources"
        title="Sources and schedules"
        fields={SOURCE_FIELDS}
        onSaved={() => ds.refresh()}
      />
    </div>
  );
}

/** Outcome of one refresh: whole (green), partial (amber: some sources failed), none (red). */
function RefreshReport({ report }: { report: Refresh }) {
  const m = report.meta;
  const partial = !report.ok && m.reports.some((r) => r.status !== 'failed');
  const tone = report.ok ? 'ok' : partial ? 'warn' : 'bad';
  const what = `${m.count} satellites${m.replaced ? ', catalog replaced' : ', elements unchanged'}`;
  return (
    <div data-refresh-report role="status">
      <p class={tone}>
        {report.ok ? `Refreshed: ${what}` : partial ? `Partly refreshed: ${what}. ${m.error}` : `Refresh failed, catalog unchanged: ${m.error ?? 'no source answered'}`}
      </p>
      <ul class="reports">
        {m.reports.map((r) => (
          <li key={r.source}>
            <StatusBadge tone={TONE[r.status]}>{r.status}</StatusBadge> <span class="src">{r.source}</span>: {r.count} objects{r.skipped ? `, ${r.skipped} skipped` : ''}
            {r.message && <span class={r.status === 'failed' ? 'bad' : 'muted'}> · {r.message}</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Recorded catalog snapshots, newest first, and a button to record one now. */
export function SnapshotsSection(props: { zone: Zone; /** Changes when another action recorded one. */ generation?: number }) {
  const list = usePoll<Snapshots>('/api/v1/snapshots', 60_000, undefined, { on: ['system'] });
  useEffect(() => {
    if (props.generation) list.refresh();
  }, [props.generation]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const record = async () => {
    setError(null);
    setBusy(true);
    try {
      await postJson('/api/v1/snapshots/record');
      list.refresh();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <button type="button" onClick={record} disabled={busy} aria-busy={busy || undefined} data-record>
        {busy ? 'Recording…' : 'Record snapshot'}
      </button>
      {error && (
        <p class="banner bad" role="alert">
          {error}
        </p>
      )}
      <div class="scroll">
        <table data-snapshots>
          <thead>
            <tr>
              <th>Recorded ({zoneLabel(props.zone)})</th>
              <th>Satellites</th>
              <th>Source</th>
              <th>Id</th>
            </tr>
          </thead>
          <tbody>
            {(list.data?.items ?? []).map((s) => (
              <tr key={s.id}>
                <td class="num">
                  {day(s.created_at, props.zone)} {clock(s.created_at, props.zone, true)}
                </td>
                <td class="num">{s.satellite_count}</td>
                <td>{s.source}</td>
                <td class="muted">{s.id}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {list.data?.count === 0 && <p class="muted">No snapshots yet.</p>}
      </div>
    </div>
  );
}
