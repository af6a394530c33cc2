import { useState } from 'preact/hooks';
import { age } from '../../lib/time';
import type { UpcomingPass } from './PassList';
import { OutcomeLine, rigMhz, type Radio } from './useRadio';

interface Applied {
  applied: { rx_hz: number; tx_hz: number | null; apply_mode_and_tone: boolean; tone_hz: number | null; tx_blocked_reason: string | null };
  targetMapping: { tx: string; rx: string };
}

const appliedText = (a: Applied) =>
  `applied: ↓ ${rigMhz(a.applied.rx_hz)} on ${a.targetMapping.rx}` +
  (a.applied.tx_hz !== null ? ` · ↑ ${rigMhz(a.applied.tx_hz)} on ${a.targetMapping.tx}` : ` · no uplink: ${a.applied.tx_blocked_reason ?? 'none'}`) +
  (a.applied.tone_hz !== null ? ` · tone ${a.applied.tone_hz.toFixed(1)} Hz` : '') +
  (a.applied.apply_mode_and_tone ? '' : ' · modes left as they were');

const restoredText = (a: { restored: boolean }) =>
  a.restored ? 'rig restored: squelch, scope, split, VFOs and modes as they were' : { ok: false, text: 'the rig did not take the whole snapshot back: see the rig error above, and try again' };

/**
 * One satellite's shared recommendation on the rig now (Apply), or kept there as Doppler moves
 * (Auto-track, with knob-follow on linear transponders). Satellites: those with guidance and a
 * pass in the next hours. The one shown is the pass session's while a satellite is pinned (and
 * only that one while the session holds the rig), else the one on the rig, else the next pass;
 * the operator's own pick lasts until another satellite is pinned. Apply and auto-track open
 * the squelch, turn the scope on and set split: the note says so before the first one, and
 * "Restore the rig as it was" puts back what the server snapshotted before it.
 */
export function TrackPanel({ r, passes, now }: { r: Radio; passes: UpcomingPass[]; now: number }) {
  const s = r.state!;
  const rt = s.runtime;
  const at = rt.auto_track;
  const pinned = s.session.selected_sat_id;
  const sats = new Map<string, string>();
  if (pinned) sats.set(pinned, s.session.sat_name ?? pinned);
  if (at) sats.set(at.sat_id, at.sat_id);
  if (rt.active_sat_id) sats.set(rt.active_sat_id, rt.active_sat_id);
  for (const p of passes) sats.set(p.sat_id, p.name);
  // The pick belongs to the pinning it was made under: pinning another satellite overrides it.
  const [pick, setPick] = useState<{ sat_id: string; pinned: string | null } | null>(null);
  const [modes, setModes] = useState<boolean | null>(null);
  const sessionHolds = s.session.active;
  const picked = pick && pick.pinned === pinned && sats.has(pick.sat_id) ? pick.sat_id : null;
  const id = sessionHolds && pinned ? pinned : (picked ?? sats.keys().next().value ?? '');
  const withModes = modes ?? s.settings.default_apply_mode_and_tone;
  const busy = r.busy !== null;
  const off = !rt.connected || busy || sessionHolds || !id;
  return (
    <section class="panel" aria-labelledby="rt">
      <h2 id="rt">Satellite</h2>
      <div class="row">
        <label for="track-sat">Satellite</label>
        <select id="track-sat" value={id} onChange={(e) => setPick({ sat_id: (e.target as HTMLSelectElement).value, pinned })} disabled={sats.size === 0 || sessionHolds}>
          {sats.size === 0 && <option value="">no guided pass soon</option>}
          {[...sats].map(([sid, name]) => (
            <option key={sid} value={sid}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <label class="radio-check">
        <input type="checkbox" checked={withModes} onChange={(e) => setModes((e.target as HTMLInputElement).checked)} /> Set modes and tone on Apply
      </label>
      <p class="muted radio-note" data-apply-note>
        {rt.restore_available
          ? 'The rig as it was before the first apply or pair is kept: restore it when you are done.'
          : 'Apply and auto-track set squelch 0 (open), scope on (centre, 1 MHz) and split. The rig is snapshotted first, to restore afterwards.'}
      </p>
      <div class="row radio-actions">
        <button type="button" disabled={off} onClick={() => r.act<Applied>('track', '/apply', { sat_id: id, apply_mode_and_tone: withModes }, appliedText)}>
          Apply now
        </button>
        {at ? (
          <button type="button" disabled={r.busy !== null || at.owner === 'session'} onClick={() => r.act('track', '/auto-track/stop', {}, 'auto-track stopped')}>
            Stop auto-track
          </button>
        ) : (
          <button type="button" disabled={off} onClick={() => r.act('track', '/auto-track/start', { sat_id: id }, `auto-tracking ${sats.get(id) ?? id}`)}>
            Auto-track
          </button>
        )}
        {rt.restore_available && (
          <button type="button" data-restore disabled={!rt.connected || busy || sessionHolds} onClick={() => r.act<{ restored: boolean }>('track', '/restore', {}, restoredText)}>
            Restore the rig as it was
          </button>
        )}
      </div>
      {sessionHolds && <p class="muted">The pass session holds the rig: stop it, or end its test with “Release rig”, first.</p>}
      <OutcomeLine o={r.outcome.track} name="track" />
      {at && (
        <dl class="kv" data-auto-track>
          <dt>Tracking</dt>
          <dd>
            {at.sat_id} every {at.interval_ms} ms{at.owner === 'session' ? ' (by the session)' : ''}
          </dd>
          <dt>Targets</dt>
          <dd class="num">
            ↓ {rigMhz(at.targets?.rx_hz)} · ↑ {rigMhz(at.targets?.tx_hz)}
          </dd>
          <dt>Writes</dt>
          <dd class="num">
            {at.writes}
            {at.last_tick_at && `, last ${age(now - Date.parse(at.last_tick_at))} ago`}
          </dd>
          <dt>Knob</dt>
          <dd>{at.knob.following ? (at.knob.last_follow_at ? `followed ${age(now - Date.parse(at.knob.last_follow_at))} ago` : 'following the receive knob') : 'not followed (FM stays on channel)'}</dd>
          {at.knob.note && (
            <>
              <dt>Note</dt>
              <dd>{at.knob.note}</dd>
            </>
          )}
        </dl>
      )}
    </section>
  );
}
