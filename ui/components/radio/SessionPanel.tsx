import { countdown, clock, type Zone } from '../../lib/time';
import { ConfirmButton } from '../ConfirmButton';
import { StatusBadge } from '../StatusBadge';
import { postJson } from '../../lib/api';
import { OutcomeLine, rigMhz, type Radio } from './useRadio';

export interface UpcomingPass {
  sat_id: string;
  name: string;
  aos: string;
  los: string;
  max_el_deg: number;
}

const CAN = {
  test: ['idle', 'released', 'completed'],
  start: ['idle', 'released'],
  confirm: ['test'],
  stop: ['armed', 'active'],
};

/** The pass-pinned session: pick a pass, test the pair, confirm, arm or start, stop, clear. */
export function SessionPanel({ r, passes, now, zone }: { r: Radio; passes: UpcomingPass[]; now: number; zone: Zone }) {
  const s = r.state!.session;
  const connected = r.state!.runtime.connected;
  const selected = s.selected_sat_id !== null;
  const may = (what: keyof typeof CAN) => selected && CAN[what].includes(s.screen_state) && r.busy === null;
  const select = (p: UpcomingPass) => r.act('session', '/session/select', { sat_id: p.sat_id, sat_name: p.name, pass_aos: p.aos, pass_los: p.los, max_el_deg: p.max_el_deg }, `${p.name} selected`);
  const aos = s.pass_aos ? Date.parse(s.pass_aos) : 0;
  const los = s.pass_los ? Date.parse(s.pass_los) : 0;
  const when = !selected ? '' : now < aos ? `AOS in ${countdown(aos - now)}` : now < los ? `LOS in ${countdown(los - now)}` : 'pass over';
  return (
    <section class="panel radio-session" aria-labelledby="rs">
      <h2 id="rs">Pass session</h2>
      <p class="row">
        <StatusBadge tone={s.active ? 'ok' : 'idle'}>
          <span data-screen-state>{s.screen_state}</span>
        </StatusBadge>
        <span class="muted" data-control-state>
          {s.control_state.replace(/_/g, ' ')}
        </span>
        {selected && <StatusBadge tone={s.is_eligible ? 'ok' : 'bad'}>{s.is_eligible ? 'eligible' : 'not eligible'}</StatusBadge>}
      </p>
      {selected && (
        <p>
          <strong>{s.sat_name ?? s.selected_sat_id}</strong> {clock(aos, zone)}–{clock(los, zone)} · max {Math.round(s.max_el_deg ?? 0)}° · <span class="num">{when}</span>
        </p>
      )}
      {selected && !s.is_eligible && s.eligibility_reason && (
        <p class="bad" data-eligibility-reason>
          {s.eligibility_reason}
        </p>
      )}
      {s.test_pair && (
        <p class="num" data-test-pair>
          Test pair: ↑ {rigMhz(s.test_pair.uplink_hz)} {s.test_pair.uplink_mode} · ↓ {rigMhz(s.test_pair.downlink_hz)} {s.test_pair.downlink_mode}
        </p>
      )}
      {!connected && selected && <p class="warn">Connect the rig to test or start.</p>}
      <div class="row radio-actions">
        <button type="button" disabled={!may('test') || !connected} onClick={() => r.act('session', '/session/test', {}, 'test pair applied')}>
          Test
        </button>
        <button type="button" disabled={!may('confirm')} onClick={() => r.act('session', '/session/test/confirm', {}, 'released, rig restored')}>
          Confirm
        </button>
        <ConfirmButton label={now < aos ? 'Arm' : 'Start'} disabled={!may('start') || !connected} action={() => postJson('/api/v1/radio/session/start').finally(() => r.poll.refresh())} />
        <ConfirmButton label="Stop" disabled={!may('stop')} action={() => postJson('/api/v1/radio/session/stop').finally(() => r.poll.refresh())} />
        <button type="button" disabled={!selected || r.busy !== null} onClick={() => r.act('session', '/session/clear', {}, 'cleared')}>
          Clear
        </button>
      </div>
      <OutcomeLine o={r.outcome.session} name="session" />
      <details open={!selected}>
        <summary>Upcoming passes</summary>
        <ul class="radio-passes">
          {passes.map((p) => (
            <li key={p.sat_id + p.aos}>
              <button type="button" class="link" disabled={r.busy !== null} onClick={() => select(p)}>
                {p.name}
              </button>{' '}
              <span class="num muted">
                {clock(p.aos, zone)} · {Math.round(p.max_el_deg)}°
              </span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
