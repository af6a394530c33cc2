import { ApiError, errorText, postJson } from '../../lib/api';
import { clock, countdown, day, type Zone } from '../../lib/time';
import { ConfirmButton } from '../ConfirmButton';
import { StatusBadge, type Tone } from '../StatusBadge';
import { PassList, type UpcomingPass } from './PassList';
import { OutcomeLine, rigMhz, type Radio, type RadioSession } from './useRadio';
import { sessionStatusText } from './session-status';

type Screen = RadioSession['screen_state'];

/** The screen states each session action is allowed from (as the server enforces them). */
export const SESSION_ACTIONS: Record<'test' | 'start' | 'confirm' | 'stop', readonly Screen[]> = {
  test: ['idle', 'released', 'completed'],
  start: ['idle', 'released'],
  confirm: ['test'],
  stop: ['armed', 'active'],
};

/** The test's way out, named for what it does (the route is still /session/test/confirm). */
export const RELEASE = 'Release rig (restore)';

const TONE: Record<Screen, Tone> = { idle: 'idle', test: 'warn', armed: 'warn', active: 'ok', released: 'idle', completed: 'idle' };

/** Where the pinned pass is: "AOS in 04:12" (amber inside 10 min), "LOS in 06:30" (green), over. */
function PassClock(props: { aos: number; los: number; now: number }) {
  const { aos, los, now } = props;
  if (now < aos) {
    const soon = aos - now < 600_000;
    return (
      <span class={`radio-countdown num ${soon ? 'warn' : ''}`} data-countdown>
        AOS in {countdown(aos - now)}
      </span>
    );
  }
  if (now < los)
    return (
      <span class="radio-countdown num ok" data-countdown>
        in pass · LOS in {countdown(los - now)}
      </span>
    );
  return (
    <span class="radio-countdown muted" data-countdown>
      pass over
    </span>
  );
}

/**
 * The pass-pinned session: pick an upcoming pass, apply its test pair, release it (the rig is
 * put back as it was), arm or start tracking, stop, clear. Each button is enabled
 * only where the server allows it; a line says why the others are not.
 */
export function SessionPanel({ r, passes, tracked, now, zone }: { r: Radio; passes: UpcomingPass[]; tracked: ReadonlySet<string> | null; now: number; zone: Zone }) {
  const s = r.state!.session;
  const connected = r.state!.runtime.connected;
  const selected = s.selected_sat_id !== null;
  const aos = s.pass_aos ? Date.parse(s.pass_aos) : 0;
  const los = s.pass_los ? Date.parse(s.pass_los) : 0;
  const over = selected && now >= los;
  const busy = r.busy !== null;
  const from = (what: keyof typeof SESSION_ACTIONS) => selected && SESSION_ACTIONS[what].includes(s.screen_state);
  const canTest = from('test') && s.is_eligible && connected && !busy;
  const canStart = from('start') && s.is_eligible && connected && !over && !busy;
  const holding = s.screen_state === 'armed' || s.screen_state === 'active';
  const why = !selected
    ? 'Pick a pass below to start a session.'
    : !s.is_eligible
      ? null // the eligibility reason says it
      : !connected && (from('test') || from('start'))
        ? 'Connect the rig to test or start.'
        : over && from('start')
          ? 'This pass is over: pick an upcoming one.'
          : null;
  /** Start and Stop run through the confirm button; their outcome goes to the session's line. */
  const confirmed = (path: string, done: string) => async () => {
    try {
      await postJson(`/api/v1/radio/session${path}`);
      r.say('session', { ok: true, text: done });
    } catch (e) {
      r.say('session', { ok: false, text: errorText(e), code: e instanceof ApiError ? e.code : undefined });
    } finally {
      r.poll.refresh();
    }
  };
  const select = (p: UpcomingPass) =>
    r.act('session', '/session/select', { sat_id: p.sat_id, sat_name: p.name, pass_aos: p.aos, pass_los: p.los, max_el_deg: Math.max(0, Math.min(90, p.max_el_deg)) }, `${p.name} selected`);
  return (
    <section class="panel radio-session" aria-labelledby="rs" data-screen={s.screen_state}>
      <h2 id="rs">Pass session</h2>
      {/* Nothing pinned and idle: the hint below says so; the rig's connection is the header's to say. */}
      {(selected || s.screen_state !== 'idle') && (
        <p class="row">
          <StatusBadge tone={TONE[s.screen_state]}>
            <span data-session-status data-screen-state={s.screen_state} data-control-state={s.control_state}>
              {sessionStatusText(s.screen_state, s.control_state)}
            </span>
          </StatusBadge>
          {/* Not eligible: the reason's line says it. */}
          {selected && s.is_eligible && <StatusBadge tone="ok">eligible</StatusBadge>}
        </p>
      )}
      {selected && (
        <div class="radio-pinned">
          <p>
            <strong data-session-sat>{s.sat_name ?? s.selected_sat_id}</strong>{' '}
            <span class="num">
              {day(aos, zone)} {clock(aos, zone)}–{clock(los, zone)} · max {Math.round(s.max_el_deg ?? 0)}°
            </span>
          </p>
          <PassClock aos={aos} los={los} now={now} />
        </div>
      )}
      {selected && !s.is_eligible && (
        <p class="bad" data-eligibility-reason>
          Not eligible for radio control: {s.eligibility_reason ?? 'no test pair'}
        </p>
      )}
      {s.test_pair && (
        <p class="num" data-test-pair>
          {s.test_pair.uplink_hz == null ? (
            // A receive-only satellite's test pair is its downlink alone: no uplink is ever set.
            <>Pair ↓ {rigMhz(s.test_pair.downlink_hz)} {s.test_pair.downlink_mode} · receive only</>
          ) : (
            <>
              Pair ↑ {rigMhz(s.test_pair.uplink_hz)} {s.test_pair.uplink_mode} · ↓ {rigMhz(s.test_pair.downlink_hz)} {s.test_pair.downlink_mode}
              {s.test_pair.ctcss_hz != null && ` · ${s.test_pair.ctcss_hz.toFixed(1)} Hz`}
            </>
          )}{' '}
          <span class="muted">({s.test_pair.source})</span>
        </p>
      )}
      {s.ended_reason && (
        <p class="muted" data-ended-reason>
          Ended: {s.ended_reason}
        </p>
      )}
      <div class="row radio-actions">
        <button type="button" disabled={!canTest} onClick={() => r.act('session', '/session/test', {}, `test pair applied: check the rig, then ${RELEASE}`)}>
          Test
        </button>
        {/* POST /session/test/confirm ends the test: it hands the rig back, it does not go ahead. */}
        <button type="button" disabled={!from('confirm') || busy} onClick={() => r.act('session', '/session/test/confirm', {}, 'test ended: control released, rig restored')}>
          {RELEASE}
        </button>
        <ConfirmButton
          label={now < aos ? 'Arm' : 'Start'}
          confirmLabel={now < aos ? 'arm for AOS' : 'start tracking'}
          disabled={!canStart}
          action={confirmed('/start', now < aos ? 'armed: tracking starts at AOS' : 'tracking the pass')}
        />
        <ConfirmButton label="Stop" confirmLabel="stop and restore" disabled={!from('stop') || busy} action={confirmed('/stop', 'stopped: control released, rig restored')} />
        <button type="button" disabled={!selected || busy} onClick={() => r.act('session', '/session/clear', {}, 'session cleared')}>
          Clear
        </button>
      </div>
      {why && (
        <p class="muted" data-session-hint>
          {why}
        </p>
      )}
      <OutcomeLine o={r.outcome.session} name="session" />
      <details open={!selected || s.screen_state === 'completed' || s.screen_state === 'released'}>
        <summary>{selected ? 'Pick another pass' : 'Upcoming passes'}</summary>
        {holding && <p class="muted">Stop the session to pick another pass.</p>}
        <PassList passes={passes} tracked={tracked} now={now} zone={zone} selected={{ sat_id: s.selected_sat_id, aos: s.pass_aos }} disabled={busy || holding} onPick={select} />
      </details>
    </section>
  );
}
