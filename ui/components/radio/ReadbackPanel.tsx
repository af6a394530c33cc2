import { age } from '../../lib/time';
import { StatusBadge } from '../StatusBadge';
import { OutcomeLine, rigMhz, STATE_POLL_MS, type Leg, type Radio } from './useRadio';

/** A readback older than this while connected is shown red: the rig stopped answering polls. */
const STALE_POLL_MS = 10_000;

function Vfo(props: { name: 'A' | 'B'; hz: number | null; mode: string | null; selected: boolean; role: string }) {
  return (
    <div class={`radio-vfo${props.selected ? ' selected' : ''}`} data-vfo={props.name}>
      <span class="muted">
        VFO {props.name}
        {props.selected && <span title="the selected (operating) VFO"> ▸ selected</span>}
      </span>
      <strong class="num">{rigMhz(props.hz)}</strong>
      <span>
        {props.hz != null && <span class="muted">MHz </span>}
        {props.mode ?? '—'}
        {props.role && <span class="muted"> · {props.role}</span>}
      </span>
    </div>
  );
}

/** One side of the satellite on its own radio (two radios): which radio, whether it is up, its frequency and mode, its own error. */
function LegCell(props: { name: 'downlink' | 'uplink'; leg: Leg }) {
  const l = props.leg;
  return (
    <div class="radio-vfo radio-leg" data-leg={props.name}>
      <span class="muted">{props.name === 'downlink' ? 'Downlink · receives' : 'Uplink · transmits'}</span>
      <span class="radio-leg-rig">
        <b data-leg-rig>{l.rig}</b> <StatusBadge tone={l.last_error ? 'bad' : l.connected ? 'ok' : 'idle'}>{l.connected ? 'connected' : 'not connected'}</StatusBadge>
      </span>
      {/* While its radio is away: the last frequency it read, greyed. */}
      <strong class={`num${l.connected ? '' : ' muted'}`}>{rigMhz(l.freq_hz)}</strong>
      <span>
        {l.freq_hz != null && <span class="muted">MHz </span>}
        {l.mode ?? '—'}
        {l.ptt && <span class="bad"> · transmitting</span>}
      </span>
      {l.last_error && (
        <span class="bad radio-leg-error" data-leg-error>
          {l.last_error}
        </span>
      )}
    </div>
  );
}

/**
 * The rig at a glance: both sides of the satellite as it last read them back, split, scope, the
 * age of that read; connect or disconnect and "Read rig now" right beside them. One radio carries
 * both: its VFOs A (receive, the downlink) and B (transmit, the uplink), the radio named once.
 * Two radios: each side on its own radio, with that radio's name, state and error. Who holds the
 * rig is the page header's to say (once).
 */
export function ReadbackPanel({ r, now }: { r: Radio; now: number }) {
  const s = r.state!;
  const rt = s.runtime;
  const t = rt.targets;
  const legs = rt.legs;
  const two = s.settings.uplink_rig !== null && legs.uplink !== null;
  const flag = (v: boolean | null) => (v === null ? '—' : v ? 'on' : 'off');
  const polledAgo = rt.last_poll_at ? now - Date.parse(rt.last_poll_at) : null;
  const stale = rt.connected && (polledAgo === null || polledAgo > Math.max(STALE_POLL_MS, 3 * s.settings.poll_interval_ms + STATE_POLL_MS));
  const busy = r.busy !== null;
  return (
    <section class="panel radio-rig" aria-labelledby="rr">
      <h2 id="rr">Rig</h2>
      {two ? (
        <div class="radio-vfos" data-legs="two">
          <LegCell name="downlink" leg={legs.downlink} />
          <LegCell name="uplink" leg={legs.uplink!} />
        </div>
      ) : (
        <>
          <p class="radio-one" data-legs="one">
            One radio, <b data-leg-rig>{legs.downlink.rig}</b>, carries both: it receives the downlink and transmits the uplink.
          </p>
          <div class="radio-vfos">
            <Vfo name="A" hz={t.vfo_a_freq_hz} mode={t.vfo_a_mode} selected={rt.raw_state.selected_vfo === 'A'} role="↓ downlink" />
            <Vfo name="B" hz={t.vfo_b_freq_hz} mode={t.vfo_b_mode} selected={rt.raw_state.selected_vfo === 'B'} role="↑ uplink" />
          </div>
        </>
      )}
      <dl class="kv radio-flags">
        {/* Two radios are a split pair by nature: nothing to say. */}
        {!two && (
          <>
            <dt>Split</dt>
            <dd data-split>{flag(rt.raw_state.split_enabled)}</dd>
          </>
        )}
        <dt>Scope</dt>
        <dd data-scope>{flag(rt.raw_state.scope_enabled)}</dd>
        <dt>Read</dt>
        <dd class={`num${stale ? ' bad' : ''}`} data-last-poll>
          {polledAgo === null ? 'never' : `${age(polledAgo)} ago`}
          {stale && ' (stale)'}
        </dd>
      </dl>
      <div class="row radio-actions">
        {rt.connected ? (
          <button type="button" disabled={busy} onClick={() => r.act('conn', '/disconnect', {}, 'disconnected')}>
            Disconnect
          </button>
        ) : (
          <button type="button" class="primary" disabled={busy || !s.settings.enabled} onClick={() => r.act('conn', '/connect', {}, two ? 'connected: both radios' : 'connected, VFO A selected')}>
            Connect
          </button>
        )}
        <button type="button" disabled={!rt.connected || busy} onClick={() => r.act('poll', '/poll', {}, 'read back just now')}>
          Read rig now
        </button>
      </div>
      {!s.settings.enabled && (
        <p class="warn">
          Radio control is off: turn it on in <a href="/settings#radio">Settings → Radio</a>.
        </p>
      )}
      <OutcomeLine o={r.outcome.conn} name="conn" />
      <OutcomeLine o={r.outcome.poll} name="poll" />
    </section>
  );
}
