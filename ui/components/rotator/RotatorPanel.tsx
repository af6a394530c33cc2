import { useState } from 'preact/hooks';
import { StatusBadge } from '../StatusBadge';
import { OutcomeLine, words, type Outcome } from '../useActions';
import { compass, deg } from '../../lib/format';
import { skyPointing } from '../../lib/rotator';
import { age, clock, zoneLabel, type Zone } from '../../lib/time';
import type { Rotator } from './useRotator';

// The rotator on /radio: where the antenna points against where it was sent, the pass plan
// while tracking, goto, park, connect, track a satellite, and a large Stop. The Stop is never
// disabled (not while another action runs, not while disconnected or disabled, not while the
// station is locked: the API's stop is open), because it is what the operator reaches for
// when the mast is about to hurt something.

/** A satellite the rotator can follow: the radio session's, or one with a pass soon. */
export interface TrackChoice {
  sat_id: string;
  name: string;
}

/** Controller azimuth with the compass direction it points at, e.g. "370° N" on an overlap rotator. */
function azText(az: number | null, el: number | null): string {
  const p = skyPointing(az, el);
  return p ? `${deg(az, 1)} ${compass(p.az_deg)}` : '—';
}

/** A number typed in a form, or null when it is not one. */
function num(text: string): number | null {
  const t = text.trim().replace(',', '.').replace('−', '-');
  if (!/^-?\d+(\.\d*)?$|^-?\.\d+$/.test(t)) return null;
  return Number(t);
}

function GotoForm({ r }: { r: Rotator }) {
  const s = r.state!;
  const rt = s.runtime;
  const [az, setAz] = useState('');
  const [el, setEl] = useState('');
  const [local, setLocal] = useState<Outcome | null>(null);
  const tracking = rt.control_mode === 'tracking';
  const off = !rt.connected || tracking || r.busy !== null;
  const o = local ?? r.outcome.goto;
  const fieldError = (f: string) =>
    o && !o.ok && o.field === f ? (
      <div class="field-error" id={`rot-${f}-err`} data-field-error={f}>
        {o.text}
      </div>
    ) : null;
  const go = (e: Event) => {
    e.preventDefault();
    const a = num(az);
    const b = num(el);
    if (a === null || b === null) {
      setLocal({ ok: false, text: 'enter the azimuth and elevation in degrees', field: a === null ? 'az_deg' : 'el_deg' });
      return;
    }
    setLocal(null);
    void r.act('goto', '/goto', { az_deg: a, el_deg: b }, `going to ${deg(a, 1)} / ${deg(b, 1)}`);
  };
  const lim = s.settings;
  return (
    <form class="rot-goto" onSubmit={go} noValidate data-rotator-goto>
      <div class="rot-goto-fields">
        <div>
          <label for="rot-az">Azimuth</label>
          <input id="rot-az" inputMode="decimal" value={az} placeholder={lim.az_stop === 'south' ? '0…360 (compass)' : `${lim.az_min_deg}…${lim.az_max_deg}`} onInput={(e) => setAz((e.target as HTMLInputElement).value)} aria-invalid={o?.field === 'az_deg' && !o.ok ? true : undefined} aria-describedby={o?.field === 'az_deg' ? 'rot-az_deg-err' : undefined} />
          {fieldError('az_deg')}
        </div>
        <div>
          <label for="rot-el">Elevation</label>
          <input id="rot-el" inputMode="decimal" value={el} placeholder={`${lim.el_min_deg}…${lim.el_max_deg}`} onInput={(e) => setEl((e.target as HTMLInputElement).value)} aria-invalid={o?.field === 'el_deg' && !o.ok ? true : undefined} aria-describedby={o?.field === 'el_deg' ? 'rot-el_deg-err' : undefined} />
          {fieldError('el_deg')}
        </div>
        <button type="submit" disabled={off}>
          Go
        </button>
      </div>
      {tracking && <p class="muted">Tracking a pass: stop tracking to point by hand.</p>}
      {o && !(o.field === 'az_deg' || o.field === 'el_deg') && <OutcomeLine o={o} name="goto" />}
    </form>
  );
}

function TrackControls({ r, choices, preferred }: { r: Rotator; choices: TrackChoice[]; preferred: string | null }) {
  const rt = r.state!.runtime;
  const [pick, setPick] = useState<string | null>(null);
  const ids = choices.map((c) => c.sat_id);
  const id = rt.active_sat_id ?? (pick && ids.includes(pick) ? pick : (preferred ?? ids[0] ?? ''));
  const tracking = rt.control_mode === 'tracking';
  const name = (sid: string) => choices.find((c) => c.sat_id === sid)?.name ?? sid;
  return (
    <div class="rot-track">
      <div class="row">
        <label for="rot-sat">Follow</label>
        <select id="rot-sat" value={id} disabled={tracking || choices.length === 0} onChange={(e) => setPick((e.target as HTMLSelectElement).value)}>
          {choices.length === 0 && <option value="">no pass soon</option>}
          {choices.map((c) => (
            <option key={c.sat_id} value={c.sat_id}>
              {c.name}
            </option>
          ))}
        </select>
        {tracking ? (
          <button type="button" disabled={r.busy !== null} onClick={() => r.act('track', '/track/stop', {}, 'tracking stopped; the antenna stays where it is')}>
            Stop tracking
          </button>
        ) : (
          <button type="button" disabled={!rt.connected || r.busy !== null || !id} onClick={() => r.act('track', '/track/start', { sat_id: id }, `tracking ${name(id)}`)}>
            Track pass
          </button>
        )}
      </div>
      <OutcomeLine o={r.outcome.track} name="track" />
    </div>
  );
}

export function RotatorPanel({ r, choices, preferred, now, zone }: { r: Rotator; choices: TrackChoice[]; preferred: string | null; now: number; zone: Zone }) {
  const s = r.state;
  const rt = s?.runtime;
  const stop = (
    <button type="button" class="rot-stop" data-rotator-stop onClick={() => (r.forget('goto', 'park', 'track'), r.act('stop', '/stop', {}, 'stopped'))}>
      STOP
    </button>
  );
  if (!s || !rt) {
    return (
      <section class="panel rot" aria-labelledby="rot-h" data-rotator>
        <h2 id="rot-h">Rotator</h2>
        {stop}
        <p class="muted">{r.poll.error ?? 'Reading the rotator…'}</p>
      </section>
    );
  }
  const plan = s.plan;
  const busy = r.busy !== null;
  const row = (label: string, now_: number | null, target: number | null, az: boolean, key: string) => (
    <tr data-rot-axis={key}>
      <th scope="row">{label}</th>
      <td class="num rot-big" data-rot-now={key}>
        {az ? azText(now_, rt.el_deg) : deg(now_, 1)}
      </td>
      <td class="num" data-rot-target={key}>
        {az ? azText(target, rt.target_el_deg) : deg(target, 1)}
      </td>
    </tr>
  );
  return (
    <section class="panel rot" aria-labelledby="rot-h" data-rotator data-rotator-mode={rt.control_mode}>
      <div class="row rot-head">
        <h2 id="rot-h">Rotator</h2>
        {/* Off: the line below says so. Idle and still: nothing to say. */}
        {s.settings.enabled && (
          <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>
            <span data-rotator-connection>{rt.connected ? 'connected' : 'not connected'}</span>
          </StatusBadge>
        )}
        {(rt.control_mode !== 'idle' || rt.moving) && (
          <StatusBadge tone={rt.control_mode === 'stopped' ? 'warn' : 'ok'}>
            <span data-rotator-mode-word>{words(rt.control_mode)}</span>
            {rt.moving ? ' · moving' : ''}
          </StatusBadge>
        )}
      </div>
      {stop}
      <OutcomeLine o={r.outcome.stop} name="stop" />
      {rt.last_error && (
        <p class="banner bad" role="alert" data-rotator-error>
          Rotator error: {rt.last_error}
        </p>
      )}
      {!s.settings.enabled ? (
        <p class="muted">
          Rotator control is off. <a href="/settings#rotator">Rotator settings</a>
        </p>
      ) : (
        <>
          <table class="rot-pos">
            <thead>
              <tr>
                <th />
                <th scope="col">Antenna</th>
                <th scope="col">Target</th>
              </tr>
            </thead>
            <tbody>
              {row('Az', rt.az_deg, rt.target_az_deg, true, 'az')}
              {row('El', rt.el_deg, rt.target_el_deg, false, 'el')}
            </tbody>
          </table>
          <p class="muted small num">
            {s.settings.protocol} · az {s.settings.az_min_deg}…{s.settings.az_max_deg}° ({s.settings.az_stop} stop) · el {s.settings.el_min_deg}…{s.settings.el_max_deg}°
            {rt.last_poll_at && ` · read ${age(Math.max(0, now - Date.parse(rt.last_poll_at)))} ago`}
          </p>
          {plan && (
            <dl class="kv" data-rotator-plan>
              <dt>Pass</dt>
              <dd class="num">
                {plan.sat_id} · {clock(plan.aos, zone)}–{clock(plan.los, zone)} {zoneLabel(zone)}
              </dd>
              <dt>Start at</dt>
              <dd class="num">
                {azText(plan.preposition_az_deg, plan.preposition_el_deg)} / {deg(plan.preposition_el_deg, 1)}
              </dd>
              <dt>Way</dt>
              <dd>
                {plan.flip ? 'over the top (elevation past 90°)' : 'azimuth follows'}
                {plan.az_wrap === 'overlap' ? ' · in the overlap' : ''}
              </dd>
            </dl>
          )}
          <GotoForm r={r} />
          <TrackControls r={r} choices={choices} preferred={preferred} />
          <div class="row radio-actions">
            {rt.connected ? (
              <>
                <button type="button" disabled={busy} onClick={() => r.act('park', '/park', {}, `parking at ${deg(s.settings.park_az_deg)} / ${deg(s.settings.park_el_deg)}`)}>
                  Park
                </button>
                <button type="button" disabled={busy} onClick={() => r.act('conn', '/disconnect', {}, 'disconnected')}>
                  Disconnect
                </button>
              </>
            ) : (
              <button type="button" disabled={busy} onClick={() => r.act('conn', '/connect', {}, 'connected')}>
                Connect
              </button>
            )}
            <a href="/settings#rotator" class="btn">
              Rotator settings
            </a>
          </div>
          <OutcomeLine o={r.outcome.park} name="park" />
          <OutcomeLine o={r.outcome.conn} name="conn" />
        </>
      )}
    </section>
  );
}
