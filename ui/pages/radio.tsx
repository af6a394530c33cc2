import { KeyValues } from '../components/KeyValues';
import { ConnectionBadge, StationPage } from '../components/StationPage';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';

// The rig as the API reports it today (settings, runtime, pass-pinned session); the radio
// issue adds connect, pair and session controls to this page.

function Page() {
  return (
    <StationPage
      title="Radio"
      badges={(s) => [<ConnectionBadge key="c" runtime={s.radioRuntime} />, <StatusBadge key="m" tone="idle">{s.radioRuntime.control_mode.replace(/_/g, ' ')}</StatusBadge>]}
    >
      {(s, zone) => {
        const rt = s.radioRuntime;
        const session = s.radioControlSession;
        return [
          <section class="panel" aria-labelledby="rt" key="rt">
            <h2 id="rt">Runtime</h2>
            {rt.last_error && <p class="bad">Last error: {rt.last_error}</p>}
            <KeyValues data={rt} zone={zone} />
          </section>,
          <section class="panel" aria-labelledby="se" key="se">
            <h2 id="se">Pass session</h2>
            <p class="row">
              <StatusBadge tone={session.active ? 'ok' : 'idle'}>{session.screen_state}</StatusBadge>
              <StatusBadge tone={session.is_eligible ? 'ok' : 'bad'}>{session.is_eligible ? 'eligible' : 'transmit blocked'}</StatusBadge>
            </p>
            {!session.is_eligible && session.eligibility_reason && <p class="bad" data-block-reason>Blocked: {session.eligibility_reason}</p>}
            <KeyValues data={session} zone={zone} />
          </section>,
          <section class="panel" aria-labelledby="rs" key="rs">
            <h2 id="rs">Settings</h2>
            <KeyValues data={s.radioSettings} zone={zone} />
          </section>,
        ];
      }}
    </StationPage>
  );
}

mount(Page);
