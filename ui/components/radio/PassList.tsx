import { clock, countdown, type Zone } from '../../lib/time';
import { isReceiveOnly, listenText } from '../../lib/guidance';
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

/** Upcoming passes with frequency guidance as big buttons (the whole pair: a session works both legs): the pass to pin a session to. */
export function PassList(props: { passes: UpcomingPass[]; now: number; zone: Zone; selected: { sat_id: string | null; aos: string | null }; disabled: boolean; onPick(p: UpcomingPass): void }) {
  const { now, zone } = props;
  const upcoming = props.passes.filter((p) => Date.parse(p.los) > now).slice(0, SHOWN);
  if (upcoming.length === 0) return <p class="muted">No upcoming pass with frequency guidance in the next hours.</p>;
  return (
    <ul class="radio-passes" aria-label="Upcoming passes">
      {upcoming.map((p) => {
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
