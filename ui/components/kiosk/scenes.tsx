import type { ComponentChildren } from 'preact';
import { StatusBadge, type Tone } from '../StatusBadge';
import type { Recommendation } from '../Tune';
import { deg, mhz, shortName } from '../../lib/format';
import { isReceiveOnly, listenText } from '../../lib/guidance';
import { passClock } from '../../lib/pass';
import { aprsLine, controlWords, type AprsSummary } from '../../lib/summaries';
import { withoutDebris } from '../../lib/debris';
import { clock, countdown, zoneLabel, type Zone } from '../../lib/time';
import type { KioskSystemState, PassItem } from './types';

// The text scenes of the kiosk (upcoming passes, pinned radio session, APRS) and the pieces
// every scene shares. One message per scene: its headline is the largest thing on it.

/** The scene's state word, coloured; the words carry the meaning, the colour repeats it. */
export function SceneHead(props: { tone: Tone; children: ComponentChildren }) {
  return (
    <div class="k-head">
      <StatusBadge tone={props.tone}>{props.children}</StatusBadge>
    </div>
  );
}

/**
 * The Doppler pair to tune: ↓ receive, ↑ transmit, CTCSS tone. `compact` is the table's form:
 * one line each way and no unit (the column heading carries MHz), the tone on the uplink line
 * because it is sent with the uplink; so a pair is two short lines that fit a 480 px row.
 */
export function Pair(props: { rec: Recommendation | null | undefined; none?: string; compact?: boolean }) {
  const r = props.rec;
  if (!r || (r.downlink_mhz == null && r.uplink_mhz == null)) return <span class="k-pair muted">{props.none ?? 'no frequency profile'}</span>;
  const unit = props.compact ? ' ' : ' MHz ';
  if (isReceiveOnly(r)) {
    // Receive only: the downlink with its mode and baud; what it sends where the scene has room.
    return (
      <span class={`k-pair num ${props.compact ? 'k-compact' : ''}`} data-pair data-receive-only>
        <span title="downlink (receive only)">
          ↓ <b>{mhz(r.downlink_mhz)}</b>
          <small>
            {unit}
            {listenText(r)}
          </small>
        </span>
        {!props.compact && <small class="k-rx-what">receive only{r.description ? ` · ${r.description}` : ''}</small>}
      </span>
    );
  }
  const tone = r.ctcss_hz != null ? r.ctcss_hz.toFixed(1) : null;
  return (
    <span class={`k-pair num ${props.compact ? 'k-compact' : ''}`} data-pair>
      {r.downlink_mhz != null && (
        <span title="downlink (receive)">
          ↓ <b>{mhz(r.downlink_mhz)}</b>
          <small>
            {unit}
            {r.downlink_mode ?? ''}
          </small>
        </span>
      )}
      {r.uplink_mhz != null && (
        <span title="uplink (transmit)">
          ↑ <b>{mhz(r.uplink_mhz)}</b>
          <small>
            {unit}
            {r.uplink_mode ?? ''}
          </small>
          {props.compact && tone && <small title="CTCSS tone"> · {tone} Hz</small>}
        </span>
      )}
      {!props.compact && tone && (
        <span title="CTCSS tone">
          <small>tone </small>
          <b>{tone}</b>
          <small> Hz</small>
        </span>
      )}
    </span>
  );
}

/** "LOS in 07:42" with the number as the headline. */
export function Count(props: { label: string; ms: number }) {
  return (
    <div class="k-count">
      <span class="k-count-label">{props.label}</span>
      <span class="k-count-value num" data-countdown>
        {countdown(props.ms)}
      </span>
    </div>
  );
}

const words = (s: string) => s.replace(/_/g, ' ');

/** The next six passes of the pass filter's choice, as the station view lists them by default: debris and rocket bodies left out. */
export function UpcomingScene(props: { passes: readonly PassItem[]; now: number; zone: Zone }) {
  const { now, zone } = props;
  const rows = withoutDebris(props.passes, false)
    .items.filter((p) => Date.parse(p.los) > now)
    .slice(0, 6);
  return (
    <section class="scene k-upcoming" data-scene="upcoming">
      <h1 class="k-title">Next passes</h1>
      {rows.length === 0 ? (
        <p class="k-empty">No passes in the next 24 h</p>
      ) : (
        <div class="k-table">
          <table class="num">
            <thead>
              <tr>
                <th>Satellite</th>
                <th>AOS {zoneLabel(zone)}</th>
                <th>in</th>
                <th>max</th>
                <th class="k-tune-col">tune MHz</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((p) => {
                const pc = passClock(p, now);
                return (
                  <tr key={p.sat_id + p.aos} class={`k-${pc.tone}`} data-pass={p.sat_id} data-aos={p.aos}>
                    <td class="k-sat">{shortName(p.name)}</td>
                    <td>{clock(p.aos, zone)}</td>
                    <td class={pc.tone === 'idle' ? '' : pc.tone}>{pc.stage === 'during' ? 'IN PASS' : countdown(pc.remainingMs)}</td>
                    <td>{deg(p.max_el_deg)}</td>
                    <td class="k-tune-col">
                      <Pair rec={p.frequencyRecommendation} none="—" compact />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Session states as colours: tracking = can transmit, armed/test = attention, no rig = blocked. */
function sessionTone(control: string, error: string | null): Tone {
  if (error || control === 'not_connected') return 'bad';
  if (control === 'tracking_active') return 'ok';
  if (control === 'armed_waiting_aos' || control === 'test_applied') return 'warn';
  return 'idle';
}

/**
 * The pinned radio session, read from system state; the radios named as the lite line names
 * them (`rig`, the snapshot's radioControl.rig: "FT-818 + IC-705"), else plain "rig".
 */
export function RadioScene(props: { sys: KioskSystemState; rig?: string; now: number; zone: Zone }) {
  const { sys, now, zone } = props;
  const rig = props.rig || 'rig';
  const rs = sys.radioControlSession;
  const rt = sys.radioRuntime;
  const pass = rs.pass_aos && rs.pass_los ? { aos: rs.pass_aos, los: rs.pass_los } : null;
  const pc = pass ? passClock(pass, now) : null;
  // System state embeds guidance for its active satellite, which is the pinned session's unless a developer forces another.
  const rec = sys.activePass?.sat_id === rs.selected_sat_id ? sys.frequencyRecommendation : null;
  if (!rs.selected_sat_id) {
    return (
      <section class="scene k-text" data-scene="radio">
        <SceneHead tone="idle">RADIO</SceneHead>
        <p class="k-empty">No radio session pinned</p>
      </section>
    );
  }
  return (
    <section class="scene k-text" data-scene="radio">
      <SceneHead tone={sessionTone(rs.control_state, rt.last_error)}>RADIO · {words(rs.control_state).toUpperCase()}</SceneHead>
      <h1 class="k-name">{rs.sat_name ? shortName(rs.sat_name) : rs.selected_sat_id}</h1>
      {pc && pc.stage !== 'after' ? <Count label={pc.label} ms={pc.remainingMs} /> : <div class="k-line muted">{pass ? 'pass ended' : 'no pass in view'}</div>}
      <Pair rec={rec} />
      <div class="k-meta">
        {words(rs.screen_state)} · <span data-rig>{rig}</span> {rt.last_error ? `error: ${rt.last_error}` : rt.connected ? `connected, ${controlWords(rt)}` : 'not connected'}
        {pass && ` · ${clock(pass.aos, zone)}–${clock(pass.los, zone)} ${zoneLabel(zone)}`}
        {rs.max_el_deg != null && ` · max ${deg(rs.max_el_deg)}`}
      </div>
    </section>
  );
}

export function AprsScene(props: { aprs: AprsSummary & { pass_active?: boolean } }) {
  const a = props.aprs;
  const line = aprsLine(a);
  return (
    <section class="scene k-text" data-scene="aprs">
      <SceneHead tone={line.tone}>APRS</SceneHead>
      <h1 class="k-name">{a.station_valid ? a.callsign : 'No callsign set'}</h1>
      <div class={`k-line ${line.tone}`}>{line.text.replace(/^aprs: /, '')}</div>
      <div class="k-meta">
        {words(a.operating_mode)} · {a.listen_only ? 'listen only' : 'transmit allowed'}
        {a.tx_block_reason && ` · ${a.tx_block_reason}`}
      </div>
    </section>
  );
}
