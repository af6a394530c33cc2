import { useState } from 'preact/hooks';
import { OutcomeLine, rigMhz, type Radio } from './useRadio';
import type { UpcomingPass } from './SessionPanel';

/** Apply a satellite's recommendation once, or keep it tracked (auto-track with knob-follow). */
export function TrackPanel({ r, passes }: { r: Radio; passes: UpcomingPass[] }) {
  const sats = [...new Map(passes.map((p) => [p.sat_id, p.name])).entries()];
  const [sat, setSat] = useState('');
  const id = sat || sats[0]?.[0] || 'iss';
  const rt = r.state!.runtime;
  const at = rt.auto_track;
  const off = !rt.connected || r.busy !== null;
  return (
    <section class="panel" aria-labelledby="rt">
      <h2 id="rt">Satellite</h2>
      <div class="row">
        <label for="track-sat">Satellite</label>
        <select id="track-sat" value={id} onChange={(e) => setSat((e.target as HTMLSelectElement).value)}>
          {sats.length === 0 && <option value="iss">ISS</option>}
          {sats.map(([sid, name]) => (
            <option key={sid} value={sid}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="row radio-actions">
        <button type="button" disabled={off} onClick={() => r.act('track', '/apply', { sat_id: id }, 'recommendation applied')}>
          Apply now
        </button>
        {at ? (
          <button type="button" disabled={r.busy !== null || at.owner === 'session'} onClick={() => r.act('track', '/auto-track/stop', {}, 'auto-track stopped')}>
            Stop auto-track
          </button>
        ) : (
          <button type="button" disabled={off} onClick={() => r.act('track', '/auto-track/start', { sat_id: id }, 'auto-tracking')}>
            Auto-track
          </button>
        )}
      </div>
      <OutcomeLine o={r.outcome.track} name="track" />
      {at && (
        <dl class="kv" data-auto-track>
          <dt>Tracking</dt>
          <dd>
            {at.sat_id} every {at.interval_ms} ms{at.owner === 'session' ? ' (session)' : ''}
          </dd>
          <dt>Targets</dt>
          <dd class="num">
            ↓ {rigMhz(at.targets?.rx_hz)} · ↑ {rigMhz(at.targets?.tx_hz)}
          </dd>
          <dt>Knob-follow</dt>
          <dd>{at.knob.following ? (at.knob.last_follow_at ? `followed at ${at.knob.last_follow_at.slice(11, 19)}Z` : 'watching the receive knob') : 'off (FM stays on channel)'}</dd>
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
