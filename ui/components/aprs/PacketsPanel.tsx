import { useState } from 'preact/hooks';
import { age, clock, type Zone } from '../../lib/time';
import { StatusBadge } from '../StatusBadge';
import type { Aprs, RecentPacket } from './useAprs';

/** Rows shown before "Show all": the small screen sees the newest at a glance. */
const FIRST = 12;

const DIR: Record<RecentPacket['direction'], { word: string; tone: 'ok' | 'warn' | 'idle' }> = {
  rx: { word: 'rx', tone: 'idle' },
  tx: { word: 'tx', tone: 'warn' },
  digi: { word: 'digi', tone: 'warn' },
};

/**
 * The last packets heard and sent (newest first): direction, who to whom, what it says. A
 * message to this station is marked "for you" (and highlighted when incoming-message
 * notification is on). Counters sum up the traffic since connect.
 */
export function PacketsPanel({ a, now, zone }: { a: Aprs; now: number; zone: Zone }) {
  const s = a.state!;
  const rt = s.runtime;
  const [all, setAll] = useState(false);
  const list = all ? rt.recent_packets : rt.recent_packets.slice(0, FIRST);
  const notify = s.settings.notify_incoming_messages;
  const forUs = rt.recent_packets.filter((p) => p.to_us).length;
  const dropped = Object.entries(rt.dropped_by_reason);
  return (
    <section class="panel aprs-packets" aria-labelledby="ap">
      <h2 id="ap">
        Packets{' '}
        {forUs > 0 && (
          <StatusBadge tone={notify ? 'warn' : 'idle'}>
            <span data-for-us-count>{forUs} for you</span>
          </StatusBadge>
        )}
      </h2>
      <p class="num muted aprs-counters" data-counters>
        rx {rt.packets_rx} · tx {rt.packets_tx} · digi {rt.packets_digipeated} · gated {rt.packets_igated} · dropped {rt.packets_dropped_policy + rt.packets_dropped_duplicate}
        {rt.last_packet_at && ` · last ${age(now - Date.parse(rt.last_packet_at))} ago`}
      </p>
      {dropped.length > 0 && (
        <details>
          <summary>Dropped, by reason</summary>
          <ul class="aprs-plain">
            {dropped.map(([why, n]) => (
              <li key={why}>
                <span class="num">{n}</span> {why}
              </li>
            ))}
          </ul>
        </details>
      )}
      {rt.recent_packets.length === 0 ? (
        <p class="muted" data-no-packets>
          {rt.connected ? 'Nothing heard yet.' : 'Nothing heard: not connected.'}
        </p>
      ) : (
        <ol class="aprs-list" aria-label="Recent packets" data-packets>
          {list.map((p, i) => {
            const d = DIR[p.direction];
            return (
              <li key={p.at + p.tnc2 + i} class={p.to_us && notify ? 'to-us' : undefined} data-packet={p.direction} data-to-us={p.to_us || undefined}>
                <span class="num muted">{clock(p.at, zone, true)}</span> <StatusBadge tone={d.tone}>{d.word}</StatusBadge> <strong>{p.source}</strong>
                <span class="muted">
                  {' → '}
                  {p.addressee ?? p.destination}
                </span>
                {p.to_us && <strong class="aprs-for-you"> ✉ for you</strong>}
                <span class="aprs-summary" title={p.tnc2}>
                  {p.summary || p.tnc2}
                </span>
              </li>
            );
          })}
        </ol>
      )}
      {rt.recent_packets.length > FIRST && (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${rt.recent_packets.length}`}
        </button>
      )}
    </section>
  );
}

/** Stations heard since connect, most recent first: how long ago, how often, direct or through a digipeater. */
export function HeardPanel({ a, now }: { a: Aprs; now: number }) {
  const rt = a.state!.runtime;
  const [all, setAll] = useState(false);
  const list = all ? rt.heard_stations : rt.heard_stations.slice(0, FIRST);
  return (
    <section class="panel aprs-heard" aria-labelledby="ah">
      <h2 id="ah">
        Heard <span class="num muted">({rt.heard_count})</span>
      </h2>
      {rt.heard_stations.length === 0 ? (
        <p class="muted">No station heard yet.</p>
      ) : (
        <ol class="aprs-list" aria-label="Heard stations" data-heard>
          {list.map((h) => (
            <li key={h.callsign} data-heard-call={h.callsign}>
              <strong>{h.callsign}</strong>{' '}
              <span class="num muted">
                {age(now - Date.parse(h.last_heard_at))} ago · {h.packets} pkt{h.packets === 1 ? '' : 's'} · {h.direct ? 'direct' : 'via digi'}
                {h.lat !== null && h.lon !== null && ` · ${h.lat.toFixed(2)}, ${h.lon.toFixed(2)}`}
              </span>
              <span class="aprs-summary">
                {h.last_kind}: {h.last_summary}
              </span>
            </li>
          ))}
        </ol>
      )}
      {rt.heard_stations.length > FIRST && (
        <button type="button" onClick={() => setAll(!all)}>
          {all ? 'Show fewer' : `Show all ${rt.heard_stations.length}`}
        </button>
      )}
    </section>
  );
}
