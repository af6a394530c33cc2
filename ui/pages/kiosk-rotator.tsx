import { useMemo, useRef, useState } from 'preact/hooks';
import { IssScene } from '../components/kiosk/IssScene';
import { PassScene, type PassView } from '../components/kiosk/PassScene';
import { FORCED_SCENE, PHASE_FRACTION, ROTATION, SCENE_LABEL, TIMING, livePass, rotate, type RotationState, type Scene } from '../components/kiosk/rotation';
import { AprsScene, RadioScene, UpcomingScene } from '../components/kiosk/scenes';
import type { DeveloperOverrides, KioskSystemState, LiteSnapshot, PassesAnswer, TrackPoint } from '../components/kiosk/types';
import { mount } from '../components/mount';
import type { Recommendation } from '../components/Tune';
import { ElementAge, StaleBanner, Waiting } from '../components/StaleBanner';
import { usePoll, type Poll } from '../components/usePoll';
import { useTopic } from '../components/useTopic';
import { withLive, type LiveSamples } from '../lib/live-overlay';
import { pathFromNow, slidingPathUrl } from '../lib/path-window';
import { useNow } from '../components/useNow';
import { prefetch } from '../lib/api';
import { age, clock, snapshotZone, zoneLabel } from '../lib/time';
import './kiosk-rotator.css';

// The unattended kiosk: full screen, one scene at a time, readable from three metres. No
// navigation; a footer with the age of the orbital elements (a warning when they are too old to
// trust AOS times), the clock and the scene name; a thin bar that fills until the scene changes.

const SNAPSHOT = '/api/v1/lite/snapshot';
const snapshotUrl = (satId: string | null) => (satId ? `${SNAPSHOT}?sat_id=${encodeURIComponent(satId)}` : SNAPSHOT);
const OVERRIDES = '/api/v1/settings/developer-overrides';
/** The ISS's next orbit on the map. */
const ISS_PATH_MIN = 95;

/**
 * The pass scene's data: the snapshot when it focuses the satellite; else system state's active
 * pass (it follows force_sat_id even outside the tracked set, but has no path); else, for the
 * moment until the refocused snapshot arrives, the live pass alone.
 */
function passView(snap: LiteSnapshot, sys: KioskSystemState | null, satId: string | null, live: LiteSnapshot['passes'][number] | null): PassView | null {
  const fp = snap.focusPass;
  if (fp && (!satId || fp.sat_id === satId)) {
    const track = snap.tracks.find((x) => x.sat_id === fp.sat_id) ?? (snap.iss.issTrack?.sat_id === fp.sat_id ? snap.iss.issTrack : null);
    return { sat_id: fp.sat_id, name: fp.name, pass: fp, path: snap.focusPath, track, rec: snap.frequencyRecommendation as Recommendation | null, cue: snap.focusCue ?? null };
  }
  const ap = sys?.activePass;
  if (satId && ap && ap.sat_id === satId) {
    const track = sys!.activeTrack?.sat_id === satId ? sys!.activeTrack : null;
    return { sat_id: satId, name: track?.name ?? ap.name ?? satId, pass: ap, path: [], track, rec: sys!.frequencyRecommendation, cue: null, untracked: true };
  }
  if (live) return { sat_id: live.sat_id, name: live.name, pass: live, path: [], track: snap.tracks.find((x) => x.sat_id === live.sat_id) ?? null, rec: null, cue: null };
  return null;
}

/** Fills from left to right over `durationMs` from `start`; restarted by remounting (key), compositor-only. */
function Progress(props: { start: number; durationMs: number; now: number }) {
  const [delay] = useState(() => Math.min(0, props.start - props.now));
  return <div class="k-progress" aria-hidden="true" style={{ animationDuration: `${props.durationMs}ms`, animationDelay: `${delay}ms` }} />;
}

const ageOf = (p: Poll<unknown>, now: number) => (p.receivedAt ? age(now - p.receivedAt) : '—');

function DebugBadge(props: { scene: Scene; o: DeveloperOverrides; polls: Record<string, Poll<unknown>>; now: number }) {
  const { o } = props;
  const forced = [
    o.force_scene && `scene=${o.force_scene}`,
    o.force_sat_id && `sat=${o.force_sat_id}`,
    o.simulate_pass_phase && `phase=${o.simulate_pass_phase}`,
    o.force_iss_video_eligible !== null && `iss_eligible=${o.force_iss_video_eligible}`,
    o.force_iss_stream_healthy !== null && `iss_healthy=${o.force_iss_stream_healthy}`,
  ].filter(Boolean);
  return (
    <div class="k-debug num" data-debug-badge>
      <b>{props.scene}</b> · {forced.length ? forced.join(' ') : 'nothing forced'} ·{' '}
      {Object.entries(props.polls)
        .map(([k, p]) => `${k} ${ageOf(p, props.now)}${p.error ? '!' : ''}`)
        .join(' · ')}
    </div>
  );
}

function Page() {
  const now = useNow();
  // Not kept on the device: a stale forced scene after a reload would be worse than none.
  const ovr = usePoll<{ state: DeveloperOverrides }>(OVERRIDES, TIMING.overridesPoll, undefined, { on: ['system'] });
  const o = ovr.data?.state.enabled ? ovr.data.state : null;
  const sys = usePoll<KioskSystemState>('/api/v1/system/state', TIMING.systemPoll, 'kiosk-system', { topic: 'system' });
  // 24 h of passes is large with the "All" filter: kept in memory only, the snapshot's passes stand in until it arrives.
  const passes = usePoll<PassesAnswer>('/api/v1/passes?hours=24', TIMING.passesPoll, undefined, { on: ['passes', 'lite'] });
  // The snapshot follows the satellite the pass scene shows: forced, else the one up now.
  const [snapSat, setSnapSat] = useState<string | null>(null);
  const snap = usePoll<LiteSnapshot>(snapshotUrl(snapSat), TIMING.snapshotPoll, 'kiosk-snapshot', snapSat ? { on: ['lite'] } : { topic: 'lite' });
  const pushed = useTopic<LiveSamples>('live', TIMING.snapshotPoll);
  const rot = useRef<RotationState | null>(null);
  const s = useMemo(() => snap.data && withLive(snap.data, pushed), [snap.data, pushed]);
  const live = livePass(s?.passes, now);
  const wantSat = o?.force_sat_id ?? live?.sat_id ?? null;
  if (wantSat !== snapSat) setSnapSat(wantSat);

  const selected = sys.data?.radioControlSession.selected_sat_id ?? null;
  const available = ROTATION.filter((x) => (x === 'radio' ? selected !== null : x === 'iss' ? !!s?.iss.issTrack : true));
  const forced: Scene | null = o?.force_scene ? FORCED_SCENE[o.force_scene] : o?.simulate_pass_phase ? 'pass' : null;
  rot.current = rotate(rot.current, available, now, forced !== null || live !== null);
  const scene: Scene = forced ?? (live ? 'pass' : rot.current.scene);
  // The next orbit, asked for once per block of time (new elements: again) and drawn from now;
  // kept while other scenes show, so the ISS scene's every turn does not ask for it again.
  const issPath = usePoll<{ items: TrackPoint[] }>(s?.iss.issTrack && s.iss.state.mode !== 'video' ? slidingPathUrl('iss', ISS_PATH_MIN, 60, now) : null, TIMING.issPathPoll, undefined, { on: ['passes'] });

  if (!s) return <Waiting class="kiosk" poll={snap} now={now} />;
  const zone = snapshotZone(s.timezone);
  const view = scene === 'pass' ? passView(s, sys.data, wantSat, live) : null;
  const phase = o?.simulate_pass_phase ?? null;
  const simT = phase && view?.pass ? Date.parse(view.pass.aos) + PHASE_FRACTION[phase] * (Date.parse(view.pass.los) - Date.parse(view.pass.aos)) : null;
  const upcoming = passes.data?.items ?? s.passes;
  // The bar shows when the scene changes: the dwell while rotating, LOS while a pass is pinned, nothing when forced.
  const bar = forced ? null : live ? { start: Date.parse(live.aos), duration: Date.parse(live.los) - Date.parse(live.aos) } : { start: rot.current.since, duration: TIMING.dwell[rot.current.scene] };

  let body;
  if (scene === 'pass') body = <PassScene view={view} t={simT ?? now} phase={simT !== null ? phase : null} zone={zone} rotator={sys.data?.rotatorSettings?.enabled === true} />;
  else if (scene === 'iss') {
    const next = livePass(s.passes.filter((p) => p.sat_id === 'iss'), now) ?? upcoming.find((p) => p.sat_id === 'iss' && Date.parse(p.los) > now) ?? null;
    body = <IssScene iss={s.iss} next={next} location={s.location} path={issPath.data ? pathFromNow(issPath.data.items, now, ISS_PATH_MIN) : null} now={now} zone={zone} />;
  } else if (scene === 'radio' && sys.data) body = <RadioScene sys={sys.data} rig={s.radioControl.rig} now={now} zone={zone} />;
  else if (scene === 'aprs') body = <AprsScene aprs={s.aprs} />;
  else body = <UpcomingScene passes={upcoming} now={now} zone={zone} />;

  return (
    <div class={`kiosk scene-${scene}`}>
      {bar && <Progress key={`${scene}@${bar.start}`} start={bar.start} durationMs={bar.duration} now={now} />}
      {body}
      {/* In the flow, under the scene: a warning here takes room from the scene instead of covering it. */}
      <footer class="k-foot">
        <ElementAge ageH={s.freshness.catalog_epoch_age_h} />
        <span class="k-corner num" data-corner>
          <span data-clock>
            {clock(now, zone)} {zoneLabel(zone)}
          </span>{' '}
          · <span data-scene-name>{scene === 'pass' && live && !forced ? 'Live pass' : SCENE_LABEL[scene]}</span>
        </span>
      </footer>
      <div class="k-banner">
        <StaleBanner receivedAt={snap.receivedAt} offline={snap.offline} error={snap.error} now={now} />
      </div>
      {o?.show_debug_badge && <DebugBadge scene={scene} o={o} now={now} polls={{ snap, passes, sys, ovr } as Record<string, Poll<unknown>>} />}
    </div>
  );
}

// The first frame waits (briefly) for both, so a forced scene is right from the start.
mount(Page, Promise.all([prefetch(SNAPSHOT), prefetch(OVERRIDES)]));
