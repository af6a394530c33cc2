import { KeyValues } from '../components/KeyValues';
import { Shell } from '../components/Shell';
import { StaleBanner } from '../components/StaleBanner';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';
import { useNow } from '../components/useNow';
import { useStationState } from '../components/useStationState';

// The rig as the API reports it today (settings, runtime, pass-pinned session); the radio
// issue adds connect, pair and session controls to this page.

function Page() {
  const st = useStationState();
  const now = useNow();
  const s = st.data;
  const rt = s?.radioRuntime;
  const session = s?.radioControlSession;
  return (
    <Shell
      title="Radio"
      status={
        rt && (
          <div class="row">
            <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>{rt.last_error ? 'error' : rt.connected ? 'connected' : 'not connected'}</StatusBadge>
            <StatusBadge tone="idle">{rt.control_mode.replace(/_/g, ' ')}</StatusBadge>
          </div>
        )
      }
    >
      <StaleBanner receivedAt={st.receivedAt} offline={st.offline} error={st.error} now={now} />
      {s && (
        <div class="grid">
          <section class="panel" aria-labelledby="rt">
            <h2 id="rt">Runtime</h2>
            {rt!.last_error && <p class="bad">Last error: {rt!.last_error}</p>}
            <KeyValues data={rt} zone={st.zone} />
          </section>
          <section class="panel" aria-labelledby="se">
            <h2 id="se">Pass session</h2>
            <p class="row">
              <StatusBadge tone={session!.active ? 'ok' : 'idle'}>{session!.screen_state}</StatusBadge>
              <StatusBadge tone={session!.is_eligible ? 'ok' : 'bad'}>{session!.is_eligible ? 'eligible' : 'transmit blocked'}</StatusBadge>
            </p>
            {!session!.is_eligible && session!.eligibility_reason && <p class="bad" data-block-reason>Blocked: {session!.eligibility_reason}</p>}
            <KeyValues data={session} zone={st.zone} />
          </section>
          <section class="panel" aria-labelledby="rs">
            <h2 id="rs">Settings</h2>
            <KeyValues data={s.radioSettings} zone={st.zone} />
          </section>
        </div>
      )}
    </Shell>
  );
}

mount(Page);
