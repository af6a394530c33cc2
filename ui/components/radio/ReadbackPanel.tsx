import { age } from '../../lib/time';
import { OutcomeLine, rigMhz, type Radio } from './useRadio';

/** What the rig reports: both VFOs (absolute A and B), split, scope, the last poll. */
export function ReadbackPanel({ r, now }: { r: Radio; now: number }) {
  const rt = r.state!.runtime;
  const t = rt.targets;
  const map = rt.capabilities?.target_mapping;
  const flag = (v: boolean | null) => (v === null ? '—' : v ? 'on' : 'off');
  const role = (v: 'A' | 'B') => (!map ? '' : map.tx.includes(`VFO ${v}`) ? 'transmit' : map.rx.includes(`VFO ${v}`) ? 'receive' : '');
  return (
    <section class="panel" aria-labelledby="rr">
      <h2 id="rr">Rig readback</h2>
      <div class="radio-vfos">
        <div class="radio-vfo" data-vfo="A">
          <span class="muted">VFO A{rt.raw_state.selected_vfo === 'A' ? ' ▸' : ''}</span>
          <strong class="num">{rigMhz(t.vfo_a_freq_hz)}</strong>
          <span>{t.vfo_a_mode ?? '—'}</span>
          <small class="muted">{role('A')}</small>
        </div>
        <div class="radio-vfo" data-vfo="B">
          <span class="muted">VFO B{rt.raw_state.selected_vfo === 'B' ? ' ▸' : ''}</span>
          <strong class="num">{rigMhz(t.vfo_b_freq_hz)}</strong>
          <span>{t.vfo_b_mode ?? '—'}</span>
          <small class="muted">{role('B')}</small>
        </div>
      </div>
      <dl class="kv">
        <dt>Split</dt>
        <dd>{flag(rt.raw_state.split_enabled)}</dd>
        <dt>Scope</dt>
        <dd>{flag(rt.raw_state.scope_enabled)}</dd>
        <dt>Control</dt>
        <dd>
          {rt.control_mode.replace(/_/g, ' ')}
          {rt.active_sat_id && ` · ${rt.active_sat_id}`}
        </dd>
        <dt>Last poll</dt>
        <dd>{rt.last_poll_at ? `${age(now - Date.parse(rt.last_poll_at))} ago` : 'never'}</dd>
      </dl>
      <button type="button" disabled={!rt.connected || r.busy !== null} onClick={() => r.act('poll', '/poll', {}, 'read back')}>
        Read rig now
      </button>
      <OutcomeLine o={r.outcome.poll} name="poll" />
    </section>
  );
}
