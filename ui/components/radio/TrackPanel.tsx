import { useState } from 'preact/hooks';
import { age } from '../../lib/time';
import { satMatches } from '../../lib/tracked';
import { SatSearch } from '../SatSearch';
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
 * pass in the next hours, the tracked set's offered and the others found by a search (typing
 * narrows the list to the matches). The one shown is the pass session's while a satellite is
 * pinned (and only that one while the session holds the rig), else the one on the rig, else the
 * next pass; the operator's own pick lasts until another satellite is pinned. Apply and
 * auto-track open the squelch, turn the scope on and set split: the note says so before the
 * first one, and "Restore the rig as it was" puts back what the server snapshotted before it.
 */
export function TrackPanel({ r, passes, tracked, now }: { r: Radio; passes: UpcomingPass[]; tracked: ReadonlySet<string> | null; now: number }) {
  const s = r.state!;
  const rt = s.runtime;
  const at = rt.auto_track;
  const pinned = s.session.selected_sat_id;
  const sats = new Map<string, string>();
  if (pinned) sats.set(pinned, s.session.sat_name ?? pinned);
  if (at) sats.set(at.sat_id, at.sat_id);
  if (rt.active_sat_id) sats.set(rt.active_sat_id, rt.active_sat_id);
  // The ones the rig or the session works now are offered whatever the tracked set.
  const working = new Set(sats.keys());
  for (const p of passes) sats.set(p.sat_id, p.name);
  // The pick belongs to the pinning it was made under: pinning another satellite overrides it.
  const [pick, setPick] = useState<{ sat_id: string; pinned: string | null } | null>(null);
  const [modes, setModes] = useState<boolean | null>(null);
  const [query, setQuery] = useState('');
  // A satellite found by a search stays offered once picked, after the search is cleared.
  if (pick) working.add(pick.sat_id);
  const all = [...sats].map(([sat_id, name]) => ({ sat_id, name }));
  const offered = tracked ? all.filter((x) => working.has(x.sat_id) || tracked.has(x.sat_id)) : all;
  const others = all.length - offered.length;
  const searching = query.trim() !== '';
  const shown = searching ? all.filter((x) => satMatches(x, query)) : offered;
  const sessionHolds = s.session.active;
  const picked = pick && pick.pinned === pinned && shown.some((x) => x.sat_id === pick.sat_id) ? pick.sat_id : null;
  const id = sessionHolds && pinned ? pinned : (picked ?? shown[0]?.sat_id ?? '');
  const withModes = modes ?? s.settings.default_apply_mode_and_tone;
  const busy = r.busy !== null;
  const off = !rt.connected || busy || sessionHolds || !id;
  const empty = searching ? `no match for “${query.trim()}”` : tracked ? 'no tracked satellite soon' : 'no guided pass soon';
  return (
    <section class="panel radio-track" aria-labelledby="rt">
      <h2 id="rt">Satellite</h2>
      <div class="row">
        <label for="track-sat">Satellite</label>
        <select id="track-sat" value={id} onChange={(e) => setPick({ sat_id: (e.target as HTMLSelectElement).value, pinned })} disabled={shown.length === 0 || sessionHolds}>
          {shown.length === 0 && <option value="">{empty}</option>}
          {sessionHolds && pinned && !shown.some((x) => x.sat_id === pinned) && <option value={pinned}>{sats.get(pinned)}</option>}
          {shown.map((x) => (
            <option key={x.sat_id} value={x.sat_id}>
              {x.name}
            </option>
          ))}
        </select>
      </div>
      {(others > 0 || searching) && <SatSearch id="track-search" label="Other satellites" count={others} query={query} onQuery={setQuery} disabled={sessionHolds} />}
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
