import { clock, countdown, type Zone } from '../../lib/time';
import { isReceiveOnly, listenText } from '../../lib/guidance';
import { useState } from 'preact/hooks';
import { byTracked, satMatches } from '../../lib/tracked';
import { SatSearch } from '../SatSearch';
import { rigMhz } from './useRadio';

/** An upcoming pass as /api/v1/passes lists it (the fields the radio page uses). */
export interface UpcomingPass {
  sat_id: string;
  name: string;
  aos: string;
  los: string;
  max_el_deg: number;
  frequencyRecommendation: PassPair | null;
}

/** The embedded recommendation's fields this list shows (Hz, as the rig is tuned). */
export interface PassPair {
  downlink_hz: number;
  downlink_mode: string;
  uplink_hz: number | null;
  uplink_mode: string;
  ctcss_hz?: number | null;
  receive_only?: boolean;
  baud?: number | null;
  description?: string | null;
}

/** "↓ 145.825 000 FM-D 1200 Bd · receive only" or "↓ … FM · ↑ … FM · 67.0 Hz": no empty uplink for a satellite only heard. */
export function pairText(rec: PassPair): string {
  if (isReceiveOnly(rec)) return `↓ ${rigMhz(rec.downlink_hz)} ${listenText(rec)} · receive only`;
  return `↓ ${rigMhz(rec.downlink_hz)} ${rec.downlink_mode} · ↑ ${rigMhz(rec.uplink_hz)} ${rec.uplink_mode}` + (rec.ctcss_hz != null ? ` · ${rec.ctcss_hz.toFixed(1)} Hz` : '');
}

/** Passes shown to pick from: the next ones; the rest are further away than a session needs. */
const SHOWN = 8;

interface ListProps {
  passes: UpcomingPass[];
  /** The tracked set (listed first, the rest behind a search); null until known: every pass listed. */
  tracked: ReadonlySet<string> | null;
  now: number;
  zone: Zone;
  selected: { sat_id: string | null; aos: string | null };
  disabled: boolean;
  onPick(p: UpcomingPass): void;
}

/**
 * Upcoming passes with frequency guidance as big buttons (the whole pair: a session works both
 * legs): the pass to pin a session to. The tracked satellites' passes are listed; the other
 * satellites' are found by name.
 */
export function PassList(props: ListProps) {
  const [query, setQuery] = useState('');
  const { now } = props;
  const upcoming = props.passes.filter((p) => Date.parse(p.los) > now);
  const split = props.tracked ? byTracked(upcoming, props.tracked) : { tracked: upcoming, others: [] };
  const found = split.others.filter((p) => satMatches(p, query));
  const otherSats = new Set(split.others.map((p) => p.sat_id)).size;
  return (
    <>
      {split.tracked.length > 0 ? (
        <Passes {...props} list={split.tracked} label="Upcoming passes of the tracked satellites" />
      ) : (
        <p class="muted" data-no-tracked-pass>
          {props.tracked ? (
            <>
              No pass of a <a href="/lite/settings">tracked satellite</a> with frequency guidance in the next hours.
            </>
          ) : (
            'No upcoming pass with frequency guidance in the next hours.'
          )}
        </p>
      )}
      {otherSats > 0 && <SatSearch id="pass-search" label="Other satellites" count={otherSats} query={query} onQuery={setQuery} />}
      {query.trim() !== '' &&
        (found.length > 0 ? (
          <Passes {...props} list={found} label="Passes found" />
        ) : (
          <p class="muted" data-no-match>
            No other satellite with a pass soon matches “{query.trim()}”.
          </p>
        ))}
    </>
  );
}

function Passes(props: ListProps & { list: UpcomingPass[]; label: string }) {
  const { now, zone } = props;
  return (
    <ul class="radio-passes" aria-label={props.label}>
      {props.list.slice(0, SHOWN).map((p) => {
        const aos = Date.parse(p.aos);
        const on = props.selected.sat_id === p.sat_id && props.selected.aos !== null && Math.abs(Date.parse(props.selected.aos) - aos) < 1000;
        const when = now < aos ? `in ${countdown(aos - now)}` : 'now';
        const soon = now < aos && aos - now < 600_000;
        const rec = p.frequencyRecommendation;
        return (
          <li key={p.sat_id + p.aos}>
            <button type="button" class={`radio-pass${on ? ' chosen' : ''}`} aria-pressed={on} disabled={props.disabled} onClick={() => props.onPick(p)} data-pass={p.sat_id} data-los={p.los}>
              <strong>{p.name}</strong>
              <span class="num">
                {clock(aos, zone)} <span class={now >= aos ? 'ok' : soon ? 'warn' : 'muted'}>{when}</span> · {Math.round(p.max_el_deg)}°
              </span>
              {rec && (
                <span class="num muted" data-pass-pair>
                  {pairText(rec)}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
