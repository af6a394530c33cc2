import { KeyValues } from '../components/KeyValues';
import { Shell } from '../components/Shell';
import { StaleBanner } from '../components/StaleBanner';
import { StatusBadge } from '../components/StatusBadge';
import { mount } from '../components/mount';
import { useNow } from '../components/useNow';
import { useStationState } from '../components/useStationState';

// The APRS station as the API reports it today (identity, runtime, transmit gate, settings);
// the APRS issue adds connect, send, log and its settings section to this page.

const SECRETS = ['passcode', 'wifi_password'];

function Page() {
  const st = useStationState();
  const now = useNow();
  const s = st.data;
  const rt = s?.aprsRuntime;
  const target = s?.aprsPreviewTarget;
  const id = s?.stationIdentity;
  return (
    <Shell
      title="APRS"
      status={
        rt && (
          <div class="row">
            <StatusBadge tone={rt.last_error ? 'bad' : rt.connected ? 'ok' : 'idle'}>{rt.last_error ? 'error' : rt.connected ? 'connected' : 'not connected'}</StatusBadge>
            <StatusBadge tone={target!.can_transmit ? 'ok' : 'bad'}>{target!.can_transmit ? 'can transmit' : 'transmit blocked'}</StatusBadge>
          </div>
        )
      }
    >
      <StaleBanner receivedAt={st.receivedAt} offline={st.offline} error={st.error} now={now} />
      {s && (
        <div class="grid">
          <section class="panel" aria-labelledby="id">
            <h2 id="id">Station</h2>
            <p class="row">
              <StatusBadge tone={id!.valid ? 'ok' : 'bad'}>{id!.valid ? id!.callsign : 'no valid callsign'}</StatusBadge>
              <StatusBadge tone="idle">{s.aprsSettings.listen_only ? 'listen only' : 'may transmit'}</StatusBadge>
              <StatusBadge tone="idle">{s.aprsSettings.operating_mode}</StatusBadge>
            </p>
            {!id!.valid && id!.reason && <p class="bad">Callsign: {id!.reason}</p>}
          </section>
          <section class="panel" aria-labelledby="tg">
            <h2 id="tg">Target and transmit gate</h2>
            {!target!.can_transmit && (
              <p class="bad" data-block-reason>
                Transmit blocked: {target!.tx_block_reason}
              </p>
            )}
            <KeyValues data={target} zone={st.zone} hide={['guidance']} />
          </section>
          <section class="panel" aria-labelledby="rt">
            <h2 id="rt">Runtime</h2>
            {rt!.last_error && <p class="bad">Last error: {rt!.last_error}</p>}
            <KeyValues data={rt} zone={st.zone} hide={['target', 'recent_packets', 'heard_stations', 'output_tail']} />
          </section>
          <section class="panel" aria-labelledby="se">
            <h2 id="se">Settings</h2>
            <KeyValues data={s.aprsSettings} zone={st.zone} secret={SECRETS} />
          </section>
        </div>
      )}
    </Shell>
  );
}

mount(Page);
