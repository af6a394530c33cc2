import { age } from '../../lib/time';
import { OutcomeLine, rigMhz, STATE_POLL_MS, type Radio } from './useRadio';

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

/**
 * The rig at a glance: both VFOs (absolute A and B) as it last read them back, split, scope,
 * the age of that read; connect or disconnect and "Read rig now" right beside them. Who holds
 * the rig is the page header's to say (once).
 */
export function ReadbackPanel({ r, now }: { r: Radio; now: number }) {
  const s = r.state!;
  const rt = s.runtime;
  const t = rt.targets;
  const map = rt.capabilities?.target_mapping;
  const flag = (v: boolean | null) => (v === null ? '—' : v ? 'on' : 'off');
  const role = (v: 'A' | 'B') => (!map ? '' : map.tx.includes(`VFO ${v}`) ? 'transmit' : map.rx.includes(`VFO ${v}`) ? 'receive' : '');
  const polledAgo = rt.last_poll_at ? now - Date.parse(rt.last_poll_at) : null;
  const stale = rt.connected && (polledAgo === null || polledAgo > Math.max(STALE_POLL_MS, 3 * s.settings.poll_interval_ms + STATE_POLL_MS));
  const busy = r.busy !== null;
  return (
    <section class="panel radio-rig" aria-labelledby="rr">
      <h2 id="rr">Rig</h2>
      <div class="radio-vfos">
        <Vfo name="A" hz={t.vfo_a_freq_hz} mode={t.vfo_a_mode} selected={rt.raw_state.selected_vfo === 'A'} role={role('A')} />
        <Vfo name="B" hz={t.vfo_b_freq_hz} mode={t.vfo_b_mode} selected={rt.raw_state.selected_vfo === 'B'} role={role('B')} />
      </div>
      <dl class="kv radio-flags">
        <dt>Split</dt>
        <dd data-split>{flag(rt.raw_state.split_enabled)}</dd>
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
          <button type="button" class="primary" disabled={busy || !s.settings.enabled} onClick={() => r.act('conn', '/connect', {}, 'connected, VFO A selected')}>
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
