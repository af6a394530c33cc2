import { Shell } from '../components/Shell';
import { StaleBanner } from '../components/StaleBanner';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';
import { useNow } from '../components/useNow';
import { usePoll } from '../components/usePoll';
import { UTC } from '../lib/time';
import { useRadio } from '../components/radio/useRadio';
import { ConnectionPanel } from '../components/radio/ConnectionPanel';
import { ReadbackPanel } from '../components/radio/ReadbackPanel';
import { WritePanel } from '../components/radio/WritePanel';
import { TrackPanel } from '../components/radio/TrackPanel';
import { SessionPanel, type UpcomingPass } from '../components/radio/SessionPanel';
import './radio.css';

// The rig: connection, live readback, direct writes, apply/auto-track for a satellite, and the
// pass-pinned session. Everything comes from /api/v1/radio/state (polled) and its POST routes.

function Page() {
  const r = useRadio();
  const now = useNow();
  const passes = usePoll<{ items: Array<UpcomingPass & { frequencyRecommendation: unknown }> }>('/api/v1/passes?hours=24&include_all_sats=true&limit=40', 60_000);
  const guided = (passes.data?.items ?? []).filter((p) => p.frequencyRecommendation);
  const s = r.state;
  const rt = s?.runtime;
  return (
    <Shell
      title="Radio"
      status={
        rt && (
          <div class="row">
            <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>{rt.connected ? 'connected' : 'not connected'}</StatusBadge>
            <StatusBadge tone={rt.control_mode === 'idle' ? 'idle' : 'warn'}>{rt.control_mode.replace(/_/g, ' ')}</StatusBadge>
          </div>
        )
      }
    >
      <StaleBanner receivedAt={r.poll.receivedAt} offline={r.poll.offline} error={r.poll.error} now={now} />
      {s && (
        <div class="grid">
          <ConnectionPanel r={r} />
          <ReadbackPanel r={r} now={now} />
          <SessionPanel r={r} passes={guided} now={now} zone={UTC} />
          <TrackPanel r={r} passes={guided} />
          <WritePanel r={r} />
        </div>
      )}
    </Shell>
  );
}

mount(Page);
