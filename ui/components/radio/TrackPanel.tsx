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

/**
 * One satellite's shared recommendation on the rig now (Apply), or kept there as Doppler moves
 * (Auto-track, with knob-follow on linear transponders). Satellites: those with guidance and a
 * pass in the next hours, the one being tracked first.
 */
export function TrackPanel({ r, passes, now }: { r: Radio; passes: UpcomingPass[]; now: number }) {
  const s = r.state!;
  const rt = s.runtime;
  const at = rt.auto_track;
  const sats = new Map<string, string>();
  if (at) sats.set(at.sat_id, at.sat_id);
  if (rt.active_sat_id) sats.set(rt.active_sat_id, rt.active_sat_id);
  for (const p of passes) sats.set(p.sat_id, p.name);
  const [sat, setSat] = useState('');
  const [modes, setModes] = useState<boolean | null>(null);
  const id = sat && sats.has(sat) ? sat : (sats.keys().next().value ?? '');
  const withModes = modes ?? s.settings.default_apply_mode_and_tone;
  const sessionHolds = s.session.active;
  const off = !rt.connected || r.busy !== null || sessionHolds || !id;
  return (
    <section class="panel" aria-labelledby="rt">
      <h2 id="rt">Satellite</h2>
      <div class="row">
        <label for="track-sat">Satellite</label>
        <select id="track-sat" value={id} onChange={(e) => setSat((e.target as HTMLSelectElement).value)} disabled={sats.size === 0}>
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
      </div>
      {sessionHolds && <p class="muted">The pass session holds the rig: stop or confirm it first.</p>}
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
