import { useZone } from '../components/settings/useZone';
import { useMemo } from 'preact/hooks';
import { Shell } from '../components/Shell';
import { StaleBanner, Waiting } from '../components/StaleBanner';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';
import { useNow } from '../components/useNow';
import { usePoll } from '../components/usePoll';
import { useRadio, type RadioState } from '../components/radio/useRadio';
import { controlWords } from '../lib/summaries';
import { ReadbackPanel } from '../components/radio/ReadbackPanel';
import { SessionPanel } from '../components/radio/SessionPanel';
import { TrackPanel } from '../components/radio/TrackPanel';
import { WritePanel } from '../components/radio/WritePanel';
import { ConnectionPanel } from '../components/radio/ConnectionPanel';
import type { UpcomingPass } from '../components/radio/PassList';
import { RotatorPanel, type TrackChoice } from '../components/rotator/RotatorPanel';
import { useRotator } from '../components/rotator/useRotator';
import { RecentPanel } from '../components/logbook/RecentPanel';
import { RecordingDot, useRecorder } from '../components/RecordingDot';
import { useTrackedSet } from '../components/SatSearch';
import { withTracked } from '../lib/tracked';
import './radio.css';

// The rig: what it reads back, the pass-pinned session, apply/auto-track for a satellite,
// direct writes, the connection. Everything comes from /api/v1/radio/state (pushed on the live
// socket; read every 1.5 s while it is down and the page is visible) and its POST routes; upcoming passes with frequency guidance
// feed the session and satellite pickers. The antenna rotator has its panel here too (its own
// state, /api/v1/rotator/state): the operator works the rig and points the antennas together.
// Log QSO and the recent QSOs sit beside the readback: a QSO is logged where the rig is read.
// While a pass is recorded its dot and level sit in the title row.

/**
 * Passes to pick a session or a satellite from: the next hours, with guidance, worth working. The
 * tracked set's are listed first (their own query: complete); any other satellite of the whole
 * catalogue (not the pass filter's choice) is found by a search.
 */
const PASSES = '/api/v1/passes?hours=6&min_max_el=5&include_ongoing=true';
const ALL_PASSES = `${PASSES}&include_all_sats=true&limit=300`;

/**
 * True when a radio's own side of the pair (two radios) already shows this fault beside it (the
 * station's error says it again with the operation: "poll: uplink radio (IC-9700): …").
 */
const legShows = (s: RadioState, error: string) =>
  s.settings.uplink_rig !== null && [s.runtime.legs.downlink.last_error, s.runtime.legs.uplink?.last_error].some((e) => e && error.includes(e));

function Page() {
  const r = useRadio();
  const rot = useRotator();
  const recorder = useRecorder();
  const now = useNow();
  const all = usePoll<{ items: UpcomingPass[] }>(ALL_PASSES, 120_000, undefined, { on: ['passes', 'lite'] });
  const tracked = useTrackedSet();
  const trackedIds = tracked ? [...tracked].join(',') : null;
  const ofTracked = usePoll<{ items: UpcomingPass[] }>(trackedIds ? `${PASSES}&sat_ids=${trackedIds}` : null, 120_000, undefined, { on: ['passes', 'lite'] });
  const items = useMemo(
    () => (tracked && ofTracked.data ? withTracked(all.data?.items ?? [], ofTracked.data.items, tracked) : (all.data?.items ?? [])),
    [all.data, ofTracked.data, tracked],
  );
  const zone = useZone();
  const guided = items.filter((p) => p.frequencyRecommendation);
  const s = r.state;
  const rt = s?.runtime;
  if (!s || !rt) {
    return (
      <Shell title="Radio">
        <Waiting class="radio-wait" poll={r.poll} now={now} />
      </Shell>
    );
  }
  const session = s.session;
  // The rotator follows any satellite with a pass soon (guidance or not); the session's first.
  const choices = new Map<string, TrackChoice>();
  for (const p of items) if (!choices.has(p.sat_id)) choices.set(p.sat_id, { sat_id: p.sat_id, name: p.name });
  return (
    <Shell
      title="Radio"
      status={
        <div class="row">
          <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>
            <span data-connection>{rt.connected ? 'connected' : 'not connected'}</span>
            {s.settings.transport === 'wifi' && <span data-connection-transport> · Wi-Fi</span>}
          </StatusBadge>
          {/* Who holds the rig, named here (an external program retunes it); nobody: nothing to say. */}
          {rt.control_mode !== 'idle' && (
            <span class="radio-holder" data-control-holder={rt.control_mode}>
              <StatusBadge tone="warn">
                {controlWords(rt)}
                {rt.active_sat_id && ` · ${choices.get(rt.active_sat_id)?.name ?? rt.active_sat_id}`}
              </StatusBadge>
            </span>
          )}
          <RecordingDot rt={recorder.data?.runtime} />
        </div>
      }
    >
      <StaleBanner receivedAt={r.poll.receivedAt} offline={r.poll.offline} error={r.poll.error} now={now} />
      {rt.last_error && !legShows(s, rt.last_error) && (
        <div class="banner bad radio-error" role="alert" data-last-error>
          Rig error: {rt.last_error}
        </div>
      )}
      {s.runtime.capabilities && !s.runtime.capabilities.validated && (
        <div class="banner warn" role="status" data-unvalidated-banner>
          {s.runtime.capabilities.radio}: NOT VALIDATED on a real radio. Watch the rig.
        </div>
      )}
      {/* Three columns on a wide screen, each a stack (no row leaves a gap under a short panel);
          one column on a narrow one, in the same order. */}
      <div class="radio-cols" data-session-screen={session.screen_state}>
        <div class="radio-col">
          <ReadbackPanel r={r} now={now} />
          <RecentPanel session={session} now={now} />
          <RotatorPanel r={rot} choices={[...choices.values()]} preferred={session.selected_sat_id} now={now} zone={zone} />
        </div>
        <div class="radio-col">
          <SessionPanel r={r} passes={guided} tracked={tracked} now={now} zone={zone} />
        </div>
        <div class="radio-col">
          <TrackPanel r={r} passes={guided} tracked={tracked} now={now} />
          <WritePanel r={r} />
          <ConnectionPanel r={r} />
        </div>
      </div>
    </Shell>
  );
}

mount(Page);
